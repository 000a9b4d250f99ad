/**
 * A run of a world: its definition, the seed, the brain and where it is stored, and the
 * loop that advances it tick by tick until its end day. A fresh run writes the genesis
 * tick; a resumed one folds the log back into the engine state and rebuilds every actor
 * from it (never from actor snapshots), then continues from the last committed tick and
 * stops at the same game day an uninterrupted run would.
 */
import { availableParallelism } from "node:os";
import { foldSchedule, type NpcInput } from "@hearsay/actors";
import {
  type CampaignId,
  type CarriedPurpose,
  currentCarried,
  type Event,
  type EventType,
  type GameTime,
  gameTime,
  ids,
  type MaintenanceJob,
  MINUTES_PER_DAY,
  type SaveId,
  type StoredEvent,
  type World,
} from "@hearsay/core";
import type { BrainShape } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { ActorDossierReads } from "./ActorDossierReads.ts";
import { BrainRunner } from "./BrainRunner.ts";
import { DossierReads, readTracked } from "./DossierReads.ts";
import { defaultEngineConfig, type EngineConfig } from "./EngineConfig.ts";
import { RunRefused } from "./EngineError.ts";
import { EngineSnapshots } from "./EngineSnapshots.ts";
import type { EngineState } from "./EngineState.ts";
import type { Focus } from "./Focus.ts";
import { genesis, type LoreFile } from "./Genesis.ts";
import type { IndexUpkeep } from "./IndexKeeper.ts";
import { NpcActors } from "./NpcActors.ts";
import { Routes } from "./Routes.ts";
import { emptyRunFold } from "./RunFold.ts";
import { historyEvents } from "./replay/readHistory.ts";
import { runSkip, type SkipMode } from "./Skips.ts";
import { runTick } from "./Tick.ts";
import type { DossierFactory, DossierSource, TickContext } from "./TickContext.ts";
import { TickWriter } from "./TickWriter.ts";
import { WorldIndex } from "./WorldIndex.ts";

export interface SimulationSpec {
  readonly world: World;
  readonly worldHash: string;
  readonly lore: ReadonlyArray<LoreFile>;
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  /**
   * Length of the whole run in game days, counted from the world's start day. On a
   * resume, omit it to keep the length in force.
   */
  readonly days?: number;
  /** The seed (default 1). On a resume, omit it to keep the seed in force. */
  readonly seed?: number;
  readonly brain: BrainShape;
  /** Whether brain calls are recorded in the log (live models, and replays of them). */
  readonly recordBrain: boolean;
  readonly dossiers: DossierFactory;
  readonly resume: boolean;
  /**
   * For a new save: the purposes it asks inside another's answer (default core's
   * `currentCarried`); a replay passes what its recording did. A resumed save keeps its own.
   */
  readonly carried?: ReadonlyArray<CarriedPurpose>;
  readonly config?: Partial<EngineConfig>;
  readonly onProgress?: (progress: Progress) => void;
  /**
   * Each step of taking up a resumed run before its first tick, as it begins: on a long
   * log each takes seconds (the CLI says what it is doing meanwhile).
   */
  readonly onResumeStep?: (step: ResumeStep) => void;
  /**
   * Time skips to make on the way, at `atDay` `atHour`:00 (the hour may be fractional):
   * jump `days` days (default 1), or elide — for `days` days when given (a fraction is
   * kept to the minute), else until every NPC has finished what it is doing.
   */
  readonly skips?: ReadonlyArray<{
    readonly atDay: number;
    readonly atHour?: number;
    readonly mode: SkipMode;
    readonly days?: number;
  }>;
  /**
   * Called after every append with the events as stored (with their seqs, and each
   * Checkpoint's hash: the run then appends on its own thread, where the store hashes it).
   * Replay verification compares them with a recording here; throwing stops the run, and
   * the batch it was given stays committed.
   */
  readonly onAppend?: (events: ReadonlyArray<StoredEvent>) => void;
  /**
   * Whether a worker thread appends the ticks' batches (default: on a machine of more
   * than one core; only a database file can have one). Tests compare the two ways, and hold the worker's batches back
   * (`delayMs`) so that a read that did not wait for them would show.
   */
  readonly appendInBackground?: boolean | { readonly delayMs: number };
  /** Stop after this many ticks (tests use it to interrupt a run). */
  readonly maxTicks?: number;
  /** Called with the run's NPC actors once they are up (tests read what they own). */
  readonly onActors?: (actors: NpcActors) => void;
  /** Where the player and the camera are: NPCs near them rank higher for the model. */
  readonly focus?: ReadonlyArray<Focus>;
  /** Wraps each maintenance job as it runs (the engine bench times them). */
  readonly aroundJob?: <T>(job: MaintenanceJob, run: () => Promise<T>) => Promise<T>;
}

export interface Progress {
  readonly t: GameTime;
  readonly day: number;
  readonly startDay: number;
  /** The day this call began at: `startDay` for a new run, the day it stopped at for a resumed one. */
  readonly fromDay: number;
  readonly endDay: number;
  readonly ticks: number;
  readonly events: number;
  readonly head: number;
}

/**
 * A step of taking up a resumed run: folding the events after the newest engine snapshot
 * into the engine's books and the NPCs' actors (`events` of them), then opening the
 * retrieval service on the log (`events` long): its vector files, and its view of who
 * knows what.
 */
export interface ResumeStep {
  readonly step: "actors" | "retrieval";
  readonly events: number;
}

export interface RunSummary {
  readonly saveId: SaveId;
  readonly resumed: boolean;
  readonly finished: boolean;
  readonly t: GameTime;
  readonly head: number;
  readonly ticks: number;
  readonly eventsByType: Readonly<Record<string, number>>;
  readonly debates: number;
  readonly tasksByStatus: Readonly<Record<string, number>>;
  readonly liveMemories: number;
  /**
   * Memories that went this run, by why (`expired`, `forgotten`, `capped`), and the
   * memories reinforced (counted per memory, not per MemoryReinforced).
   */
  readonly memoriesGone: Readonly<Record<string, number>>;
  readonly memoriesReinforced: number;
  /** Maintenance jobs run this run, by job (`daily`, `consolidate`, `index`). */
  readonly jobsRun: Readonly<Record<string, number>>;
  /**
   * What the index jobs wrote to the vector index files (null: the dossier source keeps
   * none, as in memory). Read off the disk, so never in the log.
   */
  readonly indexUpkeep: IndexUpkeep | null;
  readonly brainCalls: number;
  readonly brainFailures: number;
  /** Calls answered by a fallback brain, and model answers refused on the way. */
  readonly brainFellBack: number;
  readonly brainRejected: number;
  readonly brainCallsByPurpose: Readonly<Record<string, number>>;
}

export const runSimulation = async (spec: SimulationSpec): Promise<RunSummary> => {
  const config: EngineConfig = { ...defaultEngineConfig, ...spec.config };
  const { world, log, saveId } = spec;
  const startDay = world.meta.start.day;
  const t0 = gameTime(startDay, world.meta.start.hour);
  const existing = log.saves().find((s) => s.saveId === saveId);
  const counts = new Map<EventType, number>();
  const memories = {
    gone: new Map<string, number>(),
    reinforced: 0,
    jobs: new Map<string, number>(),
  };
  let head = existing ? log.head(saveId) : 0;
  let seed = spec.seed ?? 1;
  let endDay = startDay + (spec.days ?? 30);

  if (head > 0 && !spec.resume) {
    throw new RunRefused({
      reason: `save "${saveId}" already holds a run (${head} events)`,
      fix: "pass --resume to continue it, or choose another --db",
    });
  }
  const snapshots = new EngineSnapshots(log, saveId, {
    everyEvents: config.snapshotEveryEvents,
    kept: config.snapshotsKept,
  });
  // The save's first event, when resuming: checked before the fold (a refusal costs no
  // fold, and is its one line).
  const started = head > 0 ? log.read(saveId, { toSeq: 1 })[0] : undefined;
  if (head > 0) {
    if (started?.type !== "SimulationStarted") {
      throw new RunRefused({
        reason: `save "${saveId}" does not begin with SimulationStarted`,
        fix: "it was not written by `hearsay run`; start a new run in another --db",
      });
    }
    if (started.payload.worldHash !== spec.worldHash) {
      throw new RunRefused({
        reason: `the world definition changed since save "${saveId}" started`,
        fix: "resume with the simulation files it was started with, or branch and start a new run",
      });
    }
    if (spec.dossiers.setup !== undefined)
      refuseOtherRetrieval(saveId, started.payload, spec.dossiers.setup);
  }
  // What the log folds into (from the newest engine snapshot, if any): the engine's
  // books, the clock's schedule — folded here until the clock starts, then by the clock
  // from what each tick writes — and the NPCs' facts, held by their actors' host.
  const restored = head > 0 ? snapshots.restore(head) : null;
  const fold = restored?.fold ?? emptyRunFold();
  const state = fold.engine;
  const schedule = fold.clock;
  let clockRunning = false;
  // Created before the log is read or written: every event reaches the NPC it concerns.
  const actors = new NpcActors(config.memoryDecay);
  if (restored !== null) actors.restore(fold.npcs);
  if (head > 0) {
    // Page by page: a long run of a large world has millions of events, which as one
    // array do not fit Node's default heap.
    const fromSeq = (restored?.seq ?? 0) + 1;
    spec.onResumeStep?.({ step: "actors", events: head - fromSeq + 1 });
    for (const e of historyEvents({ log, saveId, fromSeq, pageSize: config.resumePageSize })) {
      state.apply(e, e.seq);
      actors.apply(e);
      foldSchedule(schedule, e);
    }
    seed = spec.seed ?? state.seed;
    endDay = spec.days === undefined ? state.endDay : startDay + spec.days;
  }

  const routes = new Routes(world);
  const names = new WorldIndex(world);
  const brain = new BrainRunner(spec.brain, spec.recordBrain, config.brainConcurrency);
  // Every memories section a brain reads reinforces what it holds (`reinforceMemories`).
  const reads = new DossierReads();
  if (head > 0) spec.onResumeStep?.({ step: "retrieval", events: head });
  const dossiers = readTracked(spec.dossiers(log, saveId), reads);
  // Turns read an NPC's own rows from its actor and the routing state, as of the tick's start.
  const ownRows = new ActorDossierReads(actors, state);
  const keep = (e: Event) => ownRows.before(e);
  dossiers.own?.(ownRows);
  // What the source says of itself once open (checked before the fold too, when `setup` said it).
  if (started?.type === "SimulationStarted")
    refuseOtherRetrieval(saveId, started.payload, dossiers);
  // A resumed run's retrieval view is read from the log now, within the step said above,
  // rather than by the first tick's first dossier.
  if (head > 0) dossiers.refresh?.();
  /** Records what the dossier source asks to (an embedder's fallback) in this batch. */
  const warnings = (writer: TickWriter) => {
    for (const w of dossiers.takeWarnings?.() ?? [])
      writer.emit("SimulationWarning", { code: w.code, message: w.message, npcId: null });
  };
  const append = (events: ReadonlyArray<Event>) => {
    if (events.length === 0) return;
    const before = head;
    // Log rows and read models in one transaction a tick. Appending the log rows alone and
    // folding the read models once a game day (SqliteEventLog.appendLogOnly / caughtUp)
    // measured no less CPU for the whole run (more young-generation collection offset the
    // store's saving) and would leave a killed run's file unreadable until resumed.
    const result = log.append(saveId, head, events);
    head = result.head;
    for (const e of events) {
      counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
      if (e.type === "MemoryExpired")
        memories.gone.set(e.payload.reason, (memories.gone.get(e.payload.reason) ?? 0) + 1);
      else if (e.type === "MemoryReinforced") memories.reinforced += e.payload.memories.length;
      else if (e.type === "MaintenanceRan")
        memories.jobs.set(e.payload.job, (memories.jobs.get(e.payload.job) ?? 0) + 1);
      if (!clockRunning) foldSchedule(schedule, e);
    }
    snapshots.afterAppend(
      () => ({
        engine: state,
        clock: clockRunning ? actors.clock.schedule() : schedule,
        npcs: actors.folded(),
      }),
      before,
      result.appended[result.appended.length - 1],
    );
    dossiers.refresh?.(result.appended);
    ownRows.settled();
    spec.onAppend?.(result.appended);
  };

  const context = (writer: TickWriter, from: GameTime, t: GameTime): TickContext => ({
    world,
    config,
    seed,
    state,
    routes,
    writer,
    brain,
    dossiers,
    reads,
    actors,
    from,
    t,
    names,
    skipping: false,
    focus: spec.focus ?? [],
    ...(spec.aroundJob === undefined ? {} : { aroundJob: spec.aroundJob }),
    memoryTexts: (memoryIds) => log.memoryTexts(saveId, memoryIds),
  });

  if (head === 0) {
    if (!existing) {
      log.createSave({
        saveId,
        campaignId: ids.campaign(`${world.meta.name}-${seed}`) as CampaignId,
        name: saveId,
      });
    }
    const writer = new TickWriter(state, actors, t0, head, undefined, keep);
    genesis(context(writer, t0, t0), {
      worldHash: spec.worldHash,
      campaignId: ids.campaign(`${world.meta.name}-${seed}`),
      endDay,
      brain: spec.brain.name,
      ...(dossiers.embedder === undefined ? {} : { embedder: dossiers.embedder }),
      ...(dossiers.indexMode === undefined ? {} : { indexMode: dossiers.indexMode }),
      ...(dossiers.dossierRules === undefined ? {} : { dossierRules: dossiers.dossierRules }),
      carried: spec.carried ?? currentCarried,
      lore: spec.lore,
    });
    append(writer.drain());
  }

  // Continuing with another seed, brain or length is itself a fact of the run.
  if (
    state.started &&
    (seed !== state.seed || spec.brain.name !== state.brain || endDay !== state.endDay)
  ) {
    const writer = new TickWriter(state, actors, state.t, head, undefined, keep);
    writer.emit("RunResumed", { seed, brain: spec.brain.name, endDay });
    append(writer.drain());
  }

  const startT = state.t;
  if (startT >= gameTime(endDay))
    return summarise(
      spec,
      existing !== undefined,
      state,
      actors,
      endDay,
      head,
      0,
      counts,
      brain,
      { debates: schedule.debatesHeld.size },
      memories,
      dossiers.indexUpkeep?.() ?? null,
    );
  actors.startClock({
    t: startT,
    tickMinutes: world.meta.tickMinutes,
    endAt: gameTime(endDay),
    schedule,
    debateTopics: world.debateTopics,
    jobs: [
      { job: "daily", hour: config.maintenanceHour },
      ...(config.consolidation.everyDays > 0
        ? [
            {
              job: "consolidate" as const,
              hour: config.consolidation.hour,
              everyDays: config.consolidation.everyDays,
            },
          ]
        : []),
      ...(config.indexJob.everyDays > 0
        ? [
            {
              job: "index" as const,
              hour: config.indexJob.hour,
              everyDays: config.indexJob.everyDays,
            },
          ]
        : []),
    ],
    skips: (spec.skips ?? []).map((k) => ({
      // Rounded: a fractional hour (a skip planned off the log) is a whole minute.
      at: Math.round(gameTime(k.atDay, k.atHour ?? 0)) as GameTime,
      ...(k.mode === "jump"
        ? { mode: "jump" as const, days: k.days ?? 1 }
        : { mode: k.mode, ...(k.days === undefined ? {} : { days: k.days }) }),
    })),
  });
  clockRunning = true;
  const observe = actors.clock.observe;
  for (const id of [...state.npcs.keys()].sort()) {
    const npc = state.npcs.get(id)!;
    const def = names.npc(id)!;
    const input: Omit<NpcInput, "facts"> = {
      npcId: id,
      schedule: {
        wakeHour: def.wakeHour,
        sleepHour: def.sleepHour,
        home: def.home,
        workplace: def.workplace,
      },
      routes,
      tickMinutes: world.meta.tickMinutes,
      t: npc.since,
      state: {
        activity: npc.activity,
        locationId: npc.locationId,
        destination: npc.destination,
        until: npc.until,
        taskId: npc.taskId,
        attendingTo: npc.attendingTo,
      },
    };
    actors.spawn(input);
  }

  spec.onActors?.(actors);
  // From here a worker thread appends each tick's batch (a database file only): the read
  // models fold beside the next tick, and every read of the store waits for what it needs.
  // On one core the worker would only take turns with the run: there it appends inline.
  const background =
    spec.onAppend === undefined && (spec.appendInBackground ?? availableParallelism() > 1);
  if (background !== false) log.appendInBackground(background === true ? {} : background);
  let ticks = 0;
  const progress = (t: GameTime) =>
    spec.onProgress?.({
      t,
      day: Math.floor(t / MINUTES_PER_DAY),
      startDay,
      fromDay: Math.floor(startT / MINUTES_PER_DAY),
      endDay,
      ticks,
      events: [...counts.values()].reduce((a, b) => a + b, 0),
      head,
    });
  try {
    for (;;) {
      if (spec.maxTicks !== undefined && ticks >= spec.maxTicks) break;
      const next = actors.clock.advance();
      if (next === null) break;
      if (next.kind === "skip") {
        const writer = new TickWriter(state, actors, next.from, head, observe, keep);
        await runSkip(context(writer, next.from, next.to), next.mode);
        warnings(writer);
        append(writer.drain());
        ticks += 1;
        progress(next.to);
        continue;
      }
      const { from, to: t } = next;
      const writer = new TickWriter(state, actors, t, head, observe, keep);
      const index = Math.round((from - t0) / world.meta.tickMinutes);
      if (
        config.checkpointEveryTicks > 0 &&
        index > 0 &&
        index % config.checkpointEveryTicks === 0
      ) {
        writer.checkpoint(head);
      }
      await runTick(context(writer, from, t));
      warnings(writer);
      append(writer.drain());
      ticks += 1;
      progress(t);
    }
  } catch (e) {
    // The batches already sent still land; the run's own error is the one to report.
    try {
      log.appendInForeground();
    } catch {}
    throw e;
  } finally {
    actors.stop();
    try {
      log.appendInForeground();
    } finally {
      dossiers.flush?.();
    }
  }

  return summarise(
    spec,
    existing !== undefined,
    state,
    actors,
    endDay,
    head,
    ticks,
    counts,
    brain,
    {
      debates: actors.clock.debatesHeld,
    },
    memories,
    dossiers.indexUpkeep?.() ?? null,
  );
};

const summarise = (
  spec: SimulationSpec,
  existed: boolean,
  state: EngineState,
  actors: NpcActors,
  endDay: number,
  head: number,
  ticks: number,
  counts: ReadonlyMap<EventType, number>,
  brain: BrainRunner,
  clock: { readonly debates: number },
  memories: {
    readonly gone: ReadonlyMap<string, number>;
    readonly reinforced: number;
    readonly jobs: ReadonlyMap<string, number>;
  },
  indexUpkeep: IndexUpkeep | null,
): RunSummary => {
  const tasksByStatus: Record<string, number> = {};
  for (const task of actors.allTasks())
    tasksByStatus[task.status] = (tasksByStatus[task.status] ?? 0) + 1;
  let liveMemories = 0;
  for (const facts of actors.allFacts()) liveMemories += facts.memories.size;
  return {
    saveId: spec.saveId,
    resumed: existed && spec.resume,
    finished: state.t >= gameTime(endDay),
    t: state.t,
    head,
    ticks,
    eventsByType: Object.fromEntries([...counts.entries()].sort()),
    debates: clock.debates,
    tasksByStatus: Object.fromEntries(Object.entries(tasksByStatus).sort()),
    liveMemories,
    memoriesGone: Object.fromEntries([...memories.gone.entries()].sort()),
    memoriesReinforced: memories.reinforced,
    jobsRun: Object.fromEntries([...memories.jobs.entries()].sort()),
    indexUpkeep,
    brainCalls: brain.stats.calls,
    brainFailures: brain.stats.failures,
    brainFellBack: brain.stats.fellBack,
    brainRejected: brain.stats.rejected,
    brainCallsByPurpose: Object.fromEntries([...brain.stats.byPurpose.entries()].sort()),
  };
};

/** Refuses a resume whose dossier source would rank or embed otherwise than the log began. */
const refuseOtherRetrieval = (
  saveId: SaveId,
  started: { readonly embedder?: string | undefined; readonly indexMode?: string | undefined },
  source: Pick<DossierSource, "embedder" | "indexMode">,
): void => {
  const recorded = started.embedder ?? "hashing";
  const now = source.embedder ?? "hashing";
  const recordedMode = started.indexMode ?? "embedded";
  const mode = source.indexMode ?? "embedded";
  if (recordedMode !== mode) {
    throw new RunRefused({
      reason: `save "${saveId}" ran with index mode ${recordedMode} but this run would use ${mode}; a resumed run must rank as it began`,
      fix: `set "index": { "mode": "${recordedMode}" } in hearsay.config (or HEARSAY_INDEX_MODE=${recordedMode}) to resume it`,
    });
  }
  if (recorded !== now) {
    throw new RunRefused({
      reason: `save "${saveId}" embeds with ${recorded} but this run would embed with ${now}; vectors of two embedders never mix`,
      fix:
        recorded === "hashing"
          ? 'set "embedder": "hashing" in hearsay.config to resume it'
          : `set "embedder": "ollama" with the same ollama.embeddingModel (${recorded}) to resume it`,
    });
  }
};
