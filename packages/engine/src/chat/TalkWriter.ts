/**
 * The one writer for a save a player talks to, in this process. It owns the head: it
 * keeps the engine state (a fold of the log, caught up whenever another writer moved the
 * head) and runs every change — a conversation turn, the end of a conversation, a game's
 * world tick or action result, a time skip — one at a time, each as one batch appended in
 * one transaction. A batch that fails or is abandoned before its append leaves nothing
 * behind: the state is refolded from the log.
 *
 * Each batch begins with a `PlayerInput` event: what was asked, with the talk settings
 * in force and how many events the change wrote after it, so replay verification can
 * make the very same change again (see redoInput.ts). A change that writes nothing
 * writes no PlayerInput either. A skip's PlayerInput is a batch of its own, before the
 * engine's ticks — all of them committed in one transaction with it, or none.
 *
 * What a change does is its caller's: a talk's turn (`TalkTurn`), a game input
 * (gameInputs.ts), a skip (skipWorldDays.ts).
 */
import {
  type Event,
  type GameTime,
  type LocationId,
  type NpcId,
  PLAYER_ID,
  type PlayerInputBody,
  type SaveId,
  type TalkSettings,
  type World,
} from "@hearsay/core";
import type { BrainShape, ReplyStreamer } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { BrainRunner } from "../BrainRunner.ts";
import { defaultEngineConfig, type EngineConfig } from "../EngineConfig.ts";
import { EngineSnapshots } from "../EngineSnapshots.ts";
import { EngineState } from "../EngineState.ts";
import type { Focus } from "../Focus.ts";
import type { LoreFile } from "../Genesis.ts";
import { NpcActors } from "../NpcActors.ts";
import { Routes } from "../Routes.ts";
import { historyEvents } from "../replay/readHistory.ts";
import { retrievalDossiers } from "../retrievalDossiers.ts";
import type { DossierSource, TickContext } from "../TickContext.ts";
import { TickWriter } from "../TickWriter.ts";
import { WorldIndex } from "../WorldIndex.ts";
import { skipWorldDays } from "./skipWorldDays.ts";
import { NotInWorld, NpcNotFound, TurnAbandoned } from "./TalkError.ts";
import { TalkQueries } from "./TalkQueries.ts";

export interface TalkOptions {
  /** Digest the talk every this many player turns (and always at its end). */
  readonly digestEvery: number;
  /** Raw turns the reply is given (2–6). */
  readonly recentTurns: number;
  /** What NPCs call the player. */
  readonly playerName: string;
}

export const defaultTalkOptions: TalkOptions = {
  digestEvery: 4,
  recentTurns: 6,
  playerName: "the player",
};

export interface TalkWorldSpec {
  readonly simulation: {
    readonly world: World;
    readonly worldHash: string;
    readonly lore: ReadonlyArray<LoreFile>;
  };
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  readonly brain: BrainShape;
  /** Record every brain call in the log (live models). */
  readonly recordBrain: boolean;
  /** How replies stream (default: the brain's answer word by word). */
  readonly streamer?: ReplyStreamer;
  readonly dossiers?: DossierSource;
  readonly options?: Partial<TalkOptions>;
  readonly config?: Partial<EngineConfig>;
}

export class TalkWriter {
  state = new EngineState();
  /** The NPCs' own facts; a talk runs no actors, so they rest in the host. */
  actors = new NpcActors();
  private known = 0;
  private tail: Promise<unknown> = Promise.resolve();
  readonly queries: TalkQueries;
  readonly options: TalkOptions;
  readonly dossiers: DossierSource;
  /** The brain as a tick's steps call it (and record its calls). */
  readonly runner: BrainRunner;
  readonly names: WorldIndex;
  private readonly routes: Routes;
  readonly config: EngineConfig;
  /**
   * Where the game's camera is, as its last world tick said (null: not given). Kept in
   * memory only: it ranks calls for the model budget, and each call records the reason.
   */
  private cameraAt: LocationId | null = null;

  constructor(readonly spec: TalkWorldSpec) {
    this.options = { ...defaultTalkOptions, ...spec.options };
    this.config = { ...defaultEngineConfig, ...spec.config };
    this.queries = new TalkQueries(spec.log.db, spec.saveId);
    this.dossiers = spec.dossiers ?? retrievalDossiers(spec.log, spec.saveId);
    this.runner = new BrainRunner(spec.brain, spec.recordBrain, this.config.brainConcurrency);
    this.names = new WorldIndex(spec.simulation.world);
    this.routes = new Routes(spec.simulation.world);
    this.refold();
  }

  /** The head of the save's log as this writer last saw or wrote it. */
  get head(): number {
    return this.known;
  }

  get saveId(): SaveId {
    return this.spec.saveId;
  }

  /** The game time now. */
  get t(): GameTime {
    this.catchUp();
    return this.state.t;
  }

  /**
   * Folds in whatever another writer appended since: page by page, upcast, as a resumed
   * run reads its log (a long run's millions of events do not fit the heap as one array).
   */
  catchUp(): void {
    const { log, saveId } = this.spec;
    const head = log.head(saveId);
    if (head === this.known) return;
    for (const e of historyEvents({
      log,
      saveId,
      fromSeq: this.known + 1,
      toSeq: head,
      pageSize: this.config.resumePageSize,
    })) {
      this.state.apply(e, e.seq);
      this.actors.apply(e);
    }
    this.known = head;
  }

  /**
   * The state from the log: from the newest engine snapshot the run left, as a resumed
   * run starts (its engine books and the NPCs' facts), then the log after it.
   */
  private refold(): void {
    const { log, saveId } = this.spec;
    const head = log.head(saveId);
    const restored =
      head > 0 ? new EngineSnapshots(log, saveId, { everyEvents: 0, kept: 1 }).restore(head) : null;
    this.state = restored?.fold.engine ?? new EngineState();
    this.actors = new NpcActors(this.config.memoryDecay);
    if (restored !== null) this.actors.restore(restored.fold.npcs);
    this.known = restored?.seq ?? 0;
    this.catchUp();
  }

  get camera(): LocationId | null {
    return this.cameraAt;
  }

  /** Moves the camera (null: none). @throws NotInWorld for a place the world lacks */
  setCamera(locationId: string | null): void {
    if (
      locationId !== null &&
      !this.spec.simulation.world.locations.some((l) => l.id === locationId)
    )
      throw new NotInWorld({ kind: "location", id: locationId });
    this.cameraAt = locationId as LocationId | null;
  }

  /** The game's focus: the camera, and the player's place when they talk to someone. */
  focus(player: LocationId | null = null): ReadonlyArray<Focus> {
    return [
      ...(player === null ? [] : [{ who: "player" as const, locationId: player }]),
      ...(this.cameraAt === null ? [] : [{ who: "camera" as const, locationId: this.cameraAt }]),
    ];
  }

  /** The NPC's id if the save has it. @throws NpcNotFound */
  npc(npcId: string): NpcId {
    this.catchUp();
    if (npcId === PLAYER_ID || !this.state.npcs.has(npcId as NpcId))
      throw new NpcNotFound({ saveId: this.saveId, npcId });
    return npcId as NpcId;
  }

  /** The talk settings a PlayerInput records: what a replay needs to answer the same. */
  get settings(): TalkSettings {
    return {
      brain: this.spec.brain.name,
      recorded: this.spec.recordBrain,
      playerName: this.options.playerName,
      digestEvery: this.options.digestEvery,
      recentTurns: this.options.recentTurns,
      checkpointEveryTicks: this.config.checkpointEveryTicks,
    };
  }

  /**
   * Runs `f` alone (one writer per save), then appends what it emitted as one batch,
   * led by the PlayerInput `input` (nothing at all when `f` emitted nothing).
   */
  write<A>(
    input: PlayerInputBody,
    f: (ctx: TickContext) => Promise<A> | A,
    signal?: AbortSignal,
  ): Promise<A> {
    return this.change(async () => {
      const writer = new TickWriter(this.state, this.actors, this.state.t, this.known);
      writer.emit("PlayerInput", { input, talk: this.settings, events: 0 });
      const value = await f(this.context(writer));
      if (signal?.aborted) throw new TurnAbandoned({ npcId: "-" });
      const events = writer.drain();
      if (events.length > 1)
        this.known = this.spec.log.append(this.spec.saveId, this.known, counted(events)).head;
      return value;
    });
  }

  /**
   * Every change a player makes goes through here: alone in this process and caught up
   * with the log; on failure the state (and the dossier source's view) is refolded from
   * the log. A change that appends once (`write`: its events go out as one batch) is
   * atomic by that append. One that appends more than once (a skip: its PlayerInput,
   * then the engine's batches) runs `atomic`, inside one transaction of the log, so the
   * PlayerInput is committed with everything it causes or none of it is — the file
   * stays write-locked meanwhile, and another writer waits (then gives up) rather than
   * land a batch between them.
   */
  private change<A>(f: () => Promise<A>, atomic = false): Promise<A> {
    return this.exclusive(async () => {
      const run = async (): Promise<A> => {
        this.catchUp();
        return await f();
      };
      try {
        return await (atomic ? this.spec.log.atomically(run) : run());
      } catch (e) {
        // Appends the dossier source saw may have been rolled back with the transaction.
        if (atomic) this.dossiers.reset?.();
        this.refold();
        throw e;
      }
    });
  }

  /** Runs `f` after every write queued before it, and before any queued after it. */
  exclusive<A>(f: () => Promise<A>): Promise<A> {
    const next = this.tail.then(f, f);
    this.tail = next.catch(() => undefined);
    return next;
  }

  private context(writer: TickWriter): TickContext {
    return {
      world: this.spec.simulation.world,
      config: this.config,
      seed: this.state.seed,
      state: this.state,
      routes: this.routes,
      writer,
      brain: this.runner,
      dossiers: this.dossiers,
      actors: this.actors,
      from: this.state.t,
      t: this.state.t,
      names: this.names,
      skipping: false,
      focus: this.focus(),
    };
  }

  /**
   * Lets the world move on `days` days: a recorded time skip (a `jump`) by the engine,
   * as `hearsay run --resume` would make it, extending the run's length if it must.
   */
  skipDays(days: number): Promise<GameTime> {
    return this.change(async () => {
      const writer = new TickWriter(this.state, this.actors, this.state.t, this.known);
      writer.emit("PlayerInput", { input: { kind: "skip", days }, talk: this.settings, events: 0 });
      this.known = this.spec.log.append(this.spec.saveId, this.known, writer.drain()).head;
      await skipWorldDays(this, days);
      this.catchUp();
      return this.state.t;
    }, true);
  }
}

/** The batch with its leading PlayerInput told how many events follow it. */
const counted = (events: ReadonlyArray<Event>): ReadonlyArray<Event> => {
  const [first, ...rest] = events;
  if (first?.type !== "PlayerInput") return events;
  return [{ ...first, payload: { ...first.payload, events: rest.length } }, ...rest];
};
