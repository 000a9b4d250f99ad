import {
  type Consolidation,
  defaultConsolidation,
  defaultMemoryDecay,
  type MemoryDecay,
} from "@hearsay/actors";
import { defaultWorldEventLifetimes, type WorldEventLifetimes } from "@hearsay/core";

/** When the index job runs and what makes it write (`EngineConfig.indexJob`). */
export interface IndexJob {
  readonly everyDays: number;
  readonly hour: number;
  readonly minRows: number;
  /**
   * The share of the rows last written the files must be behind by too (default
   * {@link DEFAULT_INDEX_MIN_SHARE}): a write rewrites a collection's vectors file whole,
   * so writing only once a share of it changed keeps a long run's writes in proportion to
   * its rows rather than to its rows times its days.
   */
  readonly minShare?: number;
}

/**
 * `IndexJob.minShare` when not given: a collection is written once it has grown (or
 * changed) by as many rows as it was last written with, so a run writes about twice the
 * last file's size in all, and a killed run reopens an index stale by at most about half,
 * which opening repairs (re-embedding those rows: ~5 µs a row by hashing; a model's
 * vectors come from SQLite's embedding cache).
 */
export const DEFAULT_INDEX_MIN_SHARE = 1;

/**
 * The engine's tunable numbers, with the defaults a run uses. A library caller passes them
 * to `runSimulation`; the CLI sets only `checkpointEveryTicks` (`--checkpoint-every`). The
 * engine only reads them.
 */
export interface EngineConfig {
  /** Live memories an NPC keeps; beyond it the least important, oldest go first. */
  readonly memoryCap: number;
  /**
   * How memories fade: half-life in game days per category (null: never), the importance
   * below which one is forgotten, and what reading it in a dossier adds (at most once per
   * `reinforceAfterHours`). Identity memories never fade.
   */
  readonly memoryDecay: MemoryDecay;
  /**
   * The hour of the game day the world clock runs the daily maintenance job at (0–24,
   * fractional hours are minutes): memories that ran out or faded away end then.
   */
  readonly maintenanceHour: number;
  /**
   * Periodic consolidation: every `everyDays` game days (0: never) at `hour`, each NPC's
   * memories about one subject (`about`) recorded at least `olderThanDays` ago and faded
   * below `below` are summarised by the brain (`consolidate_memories`) into one, once
   * there are `minSources` of them (the oldest `maxSources`; at most `perNpc` groups an
   * NPC per run).
   */
  readonly consolidation: Consolidation;
  /**
   * The index job: every `everyDays` game days (0: never) at `hour`, the run writes its
   * vector index files beside the database when they are missing, made by another model
   * or dimensions, or behind SQLite by at least `minRows` rows and `minShare` of them, so a run killed later
   * reopens an index stale only by what came after. Nothing of it enters the log but the
   * job's `MaintenanceRan`; what it wrote is in the run's summary.
   */
  readonly indexJob: IndexJob;
  /**
   * How long a world event stays current news, by importance (bands from the most
   * important down; null days: never lapses) and by id (`pinned`: never). Written into
   * each event as `lapsesAt`; a lapsed event leaves every dossier.
   */
  readonly worldEventLifetimes: WorldEventLifetimes;
  /** A Checkpoint with the projection hash every N ticks (0: never). */
  readonly checkpointEveryTicks: number;
  /** Chance a speaker passes on a rumour it holds, and the confidence kept per hop. */
  readonly rumourChance: number;
  readonly rumourDecay: number;
  /** Rumours below this confidence are not passed on. */
  readonly rumourFloor: number;
  /** Debate rounds and the smallest gathering that holds one. */
  readonly debateRounds: number;
  readonly debateMinParticipants: number;
  readonly debateMaxParticipants: number;
  /** Work sessions that complete a task. */
  readonly taskSessions: number;
  /** How long a conversation occupies a listener drawn into it. */
  readonly conversationMinutes: number;
  /** Concurrent calls to a live model. */
  readonly brainConcurrency: number;
  /** Game minutes after which an open scene closes even if nobody has left. */
  readonly sceneMaxMinutes: number;
  /** Memories about others an NPC keeps when it leaves a scene's place. */
  readonly leaveAboutLimit: number;
  /** Game days a thread may go unmentioned before it is dropped. */
  readonly threadDropDays: number;
  /** Regard (trust − suspicion / 2) below which an edge opens a feud. */
  readonly feudBelow: number;
  /** Regard both ways at or above which a feud is resolved. */
  readonly feudRecoverAt: number;
  /** Hours a due happening waits for the people it needs before it expires. */
  readonly happeningGraceHours: number;
  /** Events per read when a resume folds the log back into the engine's state. */
  readonly resumePageSize: number;
  /**
   * An engine snapshot whenever the log's head crosses a multiple of this many events
   * (0: never): a resume folds only the events after the newest one.
   */
  readonly snapshotEveryEvents: number;
  /** Engine snapshots kept per save; older ones are deleted as new ones are taken. */
  readonly snapshotsKept: number;

  // Profile revisions: when an NPC's profile is revised (`revise_profile`, `ProfileRevised`).
  /**
   * Events that count toward a profile revision: a task it saw through, a task it took up
   * and let lapse or failed (a broken promise), a feud opened with it. Empty: only busy
   * stretches revise.
   */
  readonly profileTriggers: ReadonlyArray<ProfileEventTrigger>;
  /**
   * What each event since the last change weighs (each kind counts its newest four), and
   * the sum that makes the profile due when the NPC next decides: who someone is changes
   * with what really happened to it, not with every chore done.
   */
  readonly profileWeights: Readonly<Record<ProfileEventTrigger, number>>;
  readonly profileThreshold: number;
  /**
   * A busy stretch revises too: at least this many game days since the profile last
   * changed (0: never), with at least `profileBusyMemories` memories recorded in them.
   */
  readonly profileBusyDays: number;
  readonly profileBusyMemories: number;
  /** Fewest game hours between two revisions of one NPC's profile. */
  readonly profileMinHours: number;
}

/** The event triggers of a profile revision (the busy stretch is set by its own keys). */
export type ProfileEventTrigger = "task_completed" | "promise_broken" | "feud";

export const defaultEngineConfig: EngineConfig = {
  memoryCap: 50,
  memoryDecay: defaultMemoryDecay,
  maintenanceHour: 3,
  consolidation: defaultConsolidation,
  indexJob: { everyDays: 1, hour: 5, minRows: 1, minShare: DEFAULT_INDEX_MIN_SHARE },
  worldEventLifetimes: defaultWorldEventLifetimes,
  checkpointEveryTicks: 24,
  rumourChance: 0.35,
  rumourDecay: 0.8,
  rumourFloor: 0.3,
  debateRounds: 2,
  debateMinParticipants: 2,
  debateMaxParticipants: 5,
  taskSessions: 2,
  conversationMinutes: 60,
  brainConcurrency: 4,
  sceneMaxMinutes: 180,
  leaveAboutLimit: 3,
  threadDropDays: 21,
  feudBelow: -0.6,
  feudRecoverAt: -0.2,
  happeningGraceHours: 2,
  resumePageSize: 4096,
  snapshotEveryEvents: 500_000,
  snapshotsKept: 2,

  profileTriggers: ["task_completed", "promise_broken", "feud"],
  // A feud alone changes loyalties and fears; so does a pattern of broken promises (three,
  // or two and two tasks seen through); steady work alone does not change who one is.
  profileWeights: { task_completed: 1, promise_broken: 2, feud: 6 },
  profileThreshold: 6,
  profileBusyDays: 10,
  profileBusyMemories: 30,
  profileMinHours: 24,
};
