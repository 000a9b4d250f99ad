/**
 * Replay verification: runs the engine again from the simulation definition into a
 * fresh in-memory database — with the run's own seeds, lengths, skips and checkpoint
 * interval, read from its log, and the brain that answered (the scripted brain again,
 * or the recorded answers; never a live model) — and compares every event it appends
 * with the recorded one at the same seq (see compareEvents.ts for what is compared). It
 * stops at the first difference and reports its seq, game time and type, both events,
 * the paths that differ, the state hashes after that batch on both sides and the last
 * checkpoint both agreed on.
 *
 * A log with RunResumed events (a run continued with another seed, brain or length, or
 * a branch continued that way) is run segment by segment: each segment runs until the
 * seq before the next RunResumed, then the engine resumes with that segment's settings,
 * as the original did. A run interrupted and resumed plainly needs nothing special: its
 * log is the same as an uninterrupted run's.
 *
 * Changes a player made through a TalkWorld (`chat`, `serve`: turns, ends of talks,
 * world ticks, action results, skips) each begin with a `PlayerInput`. When the next seq
 * holds one, the change is made again by a TalkWorld over the scratch database, with the
 * settings the input recorded and the recorded answers (or the scripted brain, if its
 * calls were not recorded), and what it writes is compared like the engine's. Between
 * them the engine runs on, segment by segment and leg by leg, each stretch ending where
 * the next PlayerInput begins. A TalkWorld is kept across consecutive talk changes with
 * the same settings, as one `chat` or `serve` process keeps one, and opened afresh after
 * the engine ran. Lore imported after the start (`hearsay lore import`) is appended as
 * recorded, like a player's change the engine then runs on from.
 */
import {
  canonicalJson,
  type EventOf,
  type SaveId,
  type StoredEvent,
  type Upcast,
  type World,
} from "@hearsay/core";
import { type BrainShape, ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { redoInput } from "../chat/redoInput.ts";
import { TalkWorld } from "../chat/TalkWorld.ts";
import type { EngineConfig } from "../EngineConfig.ts";
import type { LoreFile } from "../Genesis.ts";
import { recordedDossierRules } from "../recordedDossierRules.ts";
import { retrievalDossiersWith } from "../retrievalDossiers.ts";
import { runSimulation, type SimulationSpec } from "../Simulation.ts";
import { compactEvent, comparable, differingPaths, sameEvent } from "./compareEvents.ts";
import { ReplayRefused } from "./ReplayError.ts";
import { type RunSegment, readRunPlan } from "./RunPlan.ts";
import { HistoryCursor } from "./readHistory.ts";
import { refoldLog } from "./refoldLog.ts";
import { ReplayBrains, type SegmentBrain } from "./replayBrain.ts";
import { recordedIndexMode, replayEmbedding } from "./replayEmbedding.ts";

/** A simulation definition: what `loadSimulation` gives. */
export interface SimulationDefinition {
  readonly world: World;
  readonly worldHash: string;
  readonly lore: ReadonlyArray<LoreFile>;
}

export interface VerifyOptions {
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  /** The definition, or how to load it from the name SimulationStarted recorded. */
  readonly simulation: SimulationDefinition | ((name: string) => SimulationDefinition);
  /** Compare through this seq (default: the head). */
  readonly untilSeq?: number;
  /** Engine settings over the ones read from the log (tests change behaviour with it). */
  readonly config?: Partial<EngineConfig>;
  readonly upcast?: Upcast;
  /** The scripted brain (default `ScriptedBrain.make()`, as `hearsay run` uses). */
  readonly scripted?: () => BrainShape;
  /** The dossier source (default: retrieval over the scratch database, as `hearsay run`). */
  readonly dossiers?: SimulationSpec["dossiers"];
  readonly onProgress?: (seq: number, last: number) => void;
}

/** A state hash at a seq. */
export interface HashAt {
  readonly throughSeq: number;
  readonly stateHash: string;
}

/** Where and how a replay first differed from its log. */
export interface Divergence {
  readonly seq: number;
  /** Game time of the recorded event (of the produced one when the log has none). */
  readonly t: number;
  /** The recorded event's type, or `expected/actual` when they differ. */
  readonly type: string;
  readonly expected: StoredEvent | null;
  readonly actual: StoredEvent | null;
  /** Compact canonical JSON of both. */
  readonly expectedText: string;
  readonly actualText: string;
  /** Paths within the event that differ. */
  readonly paths: ReadonlyArray<string>;
  readonly why: string;
  /** Projection hashes after the batch that diverged: recorded (refolded) and produced. */
  readonly stateHashes: { readonly expected: HashAt; readonly actual: HashAt };
  /** The last Checkpoint both sides agreed on. */
  readonly lastCheckpoint: { readonly seq: number; readonly stateHash: string } | null;
  /** The brain call the recording had no answer for, if that is what happened. */
  readonly missingAnswer: string | null;
}

export interface VerifyReport {
  readonly saveId: SaveId;
  readonly ok: boolean;
  /** The last seq compared equal (the target when ok). */
  readonly throughSeq: number;
  readonly compared: number;
  /** Checkpoints passed (their hashes are part of what was compared). */
  readonly checkpoints: number;
  readonly segments: number;
  /**
   * Brains the segments were replayed with, e.g. `scripted` or `ollama (recorded)`, then
   * each distinct brain of the player's changes, e.g. `ollama (recorded) talk`.
   */
  readonly brains: ReadonlyArray<string>;
  readonly simulation: string;
  /** Recorded brain calls the replay never asked for (0 when it went the whole way). */
  readonly unusedRecordings: number;
  /** The produced save's projection hash at the end. */
  readonly stateHash: string;
  readonly divergence: Divergence | null;
}

/** Thrown from `onAppend` to stop the engine; never escapes. */
const STOP = Symbol("stop");

/** Runs the engine again and compares what it writes with the log. */
export const verifyLog = async (opts: VerifyOptions): Promise<VerifyReport> => {
  const { log, saveId } = opts;
  const plan = readRunPlan(log, saveId, opts.upcast);
  const sim =
    typeof opts.simulation === "function"
      ? opts.simulation(plan.started.simulation)
      : opts.simulation;
  if (sim.worldHash !== plan.started.worldHash) {
    throw new ReplayRefused({
      reason: `the simulation definition is not the one save "${saveId}" was recorded with (world hash ${sim.worldHash.slice(0, 12)}…, the log's ${plan.started.worldHash.slice(0, 12)}…)`,
      fix: `pass --simulation with the folder of "${plan.started.simulation}" as it was when the run was recorded`,
    });
  }
  const target = Math.min(opts.untilSeq ?? plan.head, plan.head);
  const cursor = new HistoryCursor(log, saveId, target, opts.upcast);
  const scratch = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  const brains = new ReplayBrains(plan, opts.scripted ?? (() => ScriptedBrain.make()));
  const startDay = sim.world.meta.start.day;
  // A run ranked by a live model replays from its cached vectors, never the server.
  const dossiers =
    opts.dossiers ??
    retrievalDossiersWith({
      embedding: replayEmbedding(log, saveId),
      indexMode: recordedIndexMode(log, saveId),
      dossierRules: recordedDossierRules(log, saveId) ?? "moment",
    });
  const used: Array<string> = [];

  let compared = 0;
  let checkpoints = 0;
  let lastCheckpoint: Divergence["lastCheckpoint"] = null;
  let found: { expected: StoredEvent | null; actual: StoredEvent | null; why: string } | null =
    null;

  /** Compares produced events through `end`; false (and `found` set) at a difference. */
  const check = (events: ReadonlyArray<StoredEvent>, end: number): boolean => {
    for (const actual of events) {
      if (actual.seq > end) break;
      const expected = cursor.at(actual.seq);
      if (expected === undefined || !sameEvent(expected, actual)) {
        found = { expected: expected ?? null, actual, why: "the events differ" };
        return false;
      }
      compared += 1;
      if (actual.type === "Checkpoint") {
        checkpoints += 1;
        lastCheckpoint = { seq: actual.seq, stateHash: actual.payload.stateHash };
      }
    }
    return true;
  };
  const headOf = () => (scratch.saves().length === 0 ? 0 : scratch.head(saveId));

  const segmentBrains = new Map<RunSegment, SegmentBrain>();
  const brainOf = (segment: RunSegment): SegmentBrain => {
    let chosen = segmentBrains.get(segment);
    if (chosen === undefined) {
      chosen = brains.forSegment(segment);
      segmentBrains.set(segment, chosen);
      used.push(chosen.replaysRecordings ? `${segment.brain} (recorded)` : segment.brain);
    }
    return chosen;
  };

  /** Runs the engine from the scratch head through `end` at most, comparing as it goes. */
  const runEngine = async (pos: number, stop: number): Promise<void> => {
    const segment = plan.segments.find((s) => s.fromSeq <= pos + 1 && pos + 1 <= s.toSeq);
    const leg = segment?.legs.find((l) => l.endSeq >= pos + 1);
    if (segment === undefined || leg === undefined) {
      found = {
        expected: cursor.at(pos + 1) ?? null,
        actual: null,
        why: `no run segment of the log holds seq ${pos + 1}`,
      };
      return;
    }
    const chosen = brainOf(segment);
    const end = Math.min(stop, leg.endSeq);
    try {
      await runSimulation({
        world: sim.world,
        worldHash: sim.worldHash,
        lore: sim.lore,
        log: scratch,
        saveId,
        days: segment.endDay - startDay,
        seed: segment.seed,
        brain: chosen.brain,
        recordBrain: chosen.record,
        dossiers,
        resume: pos > 0,
        carried: plan.started.carried ?? [],
        config: { checkpointEveryTicks: leg.everyTicks, ...opts.config },
        skips: plan.skips,
        onAppend: (events) => {
          if (!check(events, end)) throw STOP;
          const last = events[events.length - 1]!.seq;
          opts.onProgress?.(Math.min(last, end), target);
          if (last >= end) throw STOP;
        },
      });
    } catch (e) {
      if (e !== STOP) throw e;
    }
    const head = headOf();
    if (found === null && head < end) {
      found = {
        expected: cursor.at(head + 1) ?? null,
        actual: null,
        why: `the run ended at seq ${head}, but the log goes on to seq ${end}`,
      };
    }
  };

  /** The TalkWorld for a recorded input's settings (kept while they stay the same). */
  let talk: { readonly key: string; readonly world: TalkWorld } | null = null;
  const talkFor = (input: EventOf<"PlayerInput">["payload"]): TalkWorld => {
    const key = canonicalJson(input.talk);
    if (talk !== null && talk.key === key) return talk.world;
    const s = input.talk;
    const chosen = brains.forTalk(s.brain, s.recorded);
    const label = `${chosen.replaysRecordings ? `${s.brain} (recorded)` : s.brain} talk`;
    if (!used.includes(label)) used.push(label);
    const world = new TalkWorld({
      simulation: sim,
      log: scratch,
      saveId,
      brain: chosen.brain,
      recordBrain: chosen.record,
      dossiers: dossiers(scratch, saveId),
      options: {
        playerName: s.playerName,
        digestEvery: s.digestEvery,
        recentTurns: s.recentTurns,
      },
      config: { checkpointEveryTicks: s.checkpointEveryTicks, ...opts.config },
    });
    talk = { key, world };
    return world;
  };

  /** Makes the recorded change at `pos + 1` again and compares what it writes. */
  const redoTalk = async (pos: number): Promise<void> => {
    const recorded = cursor.at(pos + 1) as StoredEvent & EventOf<"PlayerInput">;
    let failure: string | null = null;
    try {
      await redoInput(talkFor(recorded.payload), recorded.payload.input);
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
    const produced = headOf() > pos ? scratch.read(saveId, { fromSeq: pos + 1 }) : [];
    const [input, ...rest] = produced;
    if (input !== undefined) {
      // The input itself first, but for the count of events after it: a batch that is
      // shorter or longer is reported where its events first differ, below.
      const sameCount = { ...input, payload: { ...input.payload, events: 0 } } as StoredEvent;
      const want = { ...recorded, payload: { ...recorded.payload, events: 0 } } as StoredEvent;
      if (!sameEvent(want, sameCount)) {
        found = { expected: recorded, actual: input, why: "the events differ" };
        return;
      }
      if (!check(rest, target)) return;
      const wrote = input.type === "PlayerInput" ? input.payload.events : 0;
      if (wrote < recorded.payload.events && pos + 2 + wrote <= target) {
        found = {
          expected: cursor.at(pos + 2 + wrote) ?? null,
          actual: null,
          why: `the player's change wrote ${wrote} event(s) after its PlayerInput; the log has ${recorded.payload.events}`,
        };
        return;
      }
      if (!check([input], target)) return;
    }
    if (failure !== null || input === undefined) {
      const head = headOf();
      found = {
        expected: cursor.at(head + 1) ?? null,
        actual: null,
        why: `the player's change (${recorded.payload.input.kind}) could not be made again: ${failure ?? "it wrote nothing"}`,
      };
      return;
    }
    opts.onProgress?.(Math.min(headOf(), target), target);
  };

  /** Appends lore imported from outside the engine as recorded (it is a fact, not a decision). */
  const copyImport = (pos: number): void => {
    const { seq: _seq, saveId: _save, campaignId: _campaign, ...event } = cursor.at(pos + 1)!;
    const appended = scratch.append(saveId, pos, [event]).appended;
    check(appended, target);
    opts.onProgress?.(Math.min(headOf(), target), target);
  };

  const imports = new Set(plan.imports);
  const inputs = [...plan.inputs, ...plan.imports].sort((a, b) => a - b);
  let nextInput = 0;
  for (let pos = 0; pos < target && found === null; pos = headOf()) {
    while (nextInput < inputs.length && inputs[nextInput]! <= pos) nextInput++;
    const inputSeq = inputs[nextInput];
    if (inputSeq === pos + 1 && imports.has(inputSeq)) {
      talk = null;
      copyImport(pos);
    } else if (inputSeq === pos + 1) {
      await redoTalk(pos);
    } else {
      talk = null;
      await runEngine(pos, Math.min(target, (inputSeq ?? Number.POSITIVE_INFINITY) - 1));
    }
  }

  const producedHead = scratch.saves().length === 0 ? 0 : scratch.head(saveId);
  const base = {
    saveId,
    compared,
    checkpoints,
    segments: plan.segments.filter((s) => s.fromSeq <= target).length,
    brains: used,
    simulation: plan.started.simulation,
    unusedRecordings: brains.unused(),
    stateHash: producedHead === 0 ? "" : scratch.projectionHash(saveId),
  };
  scratch.db.close();
  if (found === null) return { ...base, ok: true, throughSeq: target, divergence: null };

  const { expected, actual, why } = found as {
    expected: StoredEvent | null;
    actual: StoredEvent | null;
    why: string;
  };
  const seq = expected?.seq ?? actual!.seq;
  const expectedAt = Math.min(producedHead, plan.head);
  let expectedHash: HashAt;
  try {
    const refolded = refoldLog({
      log,
      saveId,
      untilSeq: expectedAt,
      checkpoints: false,
      ...(opts.upcast ? { upcast: opts.upcast } : {}),
    });
    expectedHash = { throughSeq: refolded.throughSeq, stateHash: refolded.stateHash };
  } catch (e) {
    // The log itself cannot be folded that far (an event that does not decode).
    const why = e instanceof Error ? e.message : String(e);
    expectedHash = { throughSeq: expectedAt, stateHash: `(cannot be refolded: ${why})` };
  }
  const missing = brains.firstMissing;
  return {
    ...base,
    ok: false,
    throughSeq: seq - 1,
    divergence: {
      seq,
      t: expected?.t ?? actual!.t,
      type:
        expected && actual && expected.type !== actual.type
          ? `${expected.type}/${actual.type}`
          : (expected ?? actual)!.type,
      expected,
      actual,
      expectedText: compactEvent(expected ?? undefined),
      actualText: compactEvent(actual ?? undefined),
      paths: expected && actual ? differingPaths(comparable(expected), comparable(actual)) : [],
      why,
      stateHashes: {
        expected: expectedHash,
        actual: { throughSeq: producedHead, stateHash: base.stateHash },
      },
      lastCheckpoint,
      missingAnswer: missing === null ? null : missing.message,
    },
  };
};
