/** Events of the world as a whole: its start, its clock, its happenings, its checkpoints. */
import { Schema } from "effect";
import { GameTime } from "../GameTime.ts";
import { CampaignId, FactionId, LocationId, NpcId, WorldEventId } from "../ids.ts";
import { Visibility } from "../Visibility.ts";
import { defineEvent, Text, Unit } from "./defineEvent.ts";

/**
 * Purposes a run asks inside another purpose's answer instead of as calls of their own:
 * `profile` (a first-meeting profile) and `revise_profile` in the `act` answer of the NPC's
 * own turn that would have followed the call, `summarize_debate` in the answer of a
 * debate's last turn (its speaker has heard every line). A fact of the run
 * (`SimulationStarted.carried`), so a replay asks the calls its recording answered.
 */
export const carriedPurposeNames = ["profile", "revise_profile", "summarize_debate"] as const;
export const CarriedPurpose = Schema.Literals(carriedPurposeNames);
export type CarriedPurpose = typeof CarriedPurpose.Type;
/** What a new run carries. */
export const currentCarried: ReadonlyArray<CarriedPurpose> = carriedPurposeNames;

export const SimulationStarted = defineEvent("SimulationStarted", 1, {
  simulation: Schema.String,
  /** sha256 of the canonical world definition, so replay can tell the world changed. */
  worldHash: Schema.String,
  seed: Schema.Int,
  campaignId: CampaignId,
  /** Game minutes one tick advances. */
  tickMinutes: Schema.Int.check(Schema.isGreaterThan(0)),
  /** The game day a run of `--days N` ends on (exclusive). */
  endDay: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  brain: Schema.String,
  /**
   * The embedder a run ranks by meaning with, when not the default hashing one, e.g.
   * `ollama:nomic-embed-text@768`; replay embeds the same way (from cached vectors).
   */
  embedder: Schema.optionalKey(Schema.String),
  /**
   * `disabled` when the run kept no vector index (keywords and filters only); absent: the
   * default, vectors and graphs. Replay ranks the same way.
   */
  indexMode: Schema.optionalKey(Schema.Literal("disabled")),
  /**
   * `stable` or `steady` when the run's dossiers choose their items by those rules (core's
   * `DossierRules`); absent: the earlier `moment` rules. Replay builds dossiers the same way.
   */
  dossierRules: Schema.optionalKey(Schema.Literals(["stable", "steady"])),
  /** Purposes the run asks inside another's answer (`CarriedPurpose`); absent: none. */
  carried: Schema.optionalKey(Schema.Array(CarriedPurpose)),
});

export const ClockAdvanced = defineEvent("ClockAdvanced", 1, {
  from: GameTime,
  to: GameTime,
  mode: Schema.Literals(["tick", "elision", "jump"]),
});

export const WorldEventOccurred = defineEvent("WorldEventOccurred", 2, {
  worldEventId: WorldEventId,
  /** What sort of happening: `market`, `storm`, `theft`, `debate_outcome`, … */
  kind: Schema.String,
  text: Text,
  locationId: Schema.NullOr(LocationId),
  factionId: Schema.NullOr(FactionId),
  visibility: Visibility,
  importance: Unit,
  participants: Schema.Array(NpcId),
  /** Names of people, places and things it mentions, for exact-match retrieval. */
  entities: Schema.Array(Schema.String),
  /**
   * When it lapses: from then on nobody knows it as current news, so it leaves every
   * dossier (it stays in the log and in who-knew-what history). Null: it never lapses.
   * Set from its importance when it is recorded (`worldEventLapsesAt`).
   */
  lapsesAt: Schema.NullOr(GameTime),
});

export const Checkpoint = defineEvent("Checkpoint", 1, {
  /** The last seq the hash covers (this Checkpoint's own seq minus one). */
  throughSeq: Schema.Int,
  /**
   * sha256 of the canonical projection state after `throughSeq`. Empty when appended: the
   * store fills it in as it writes the event (see `EventAppend`), so the run never waits
   * for the read models to hash them. A stored Checkpoint always holds it.
   */
  stateHash: Schema.String,
});

export const SimulationWarning = defineEvent("SimulationWarning", 1, {
  code: Schema.String,
  message: Text,
  npcId: Schema.NullOr(NpcId),
});

/**
 * A run was continued with another seed, brain or length than the one in force: from
 * here on, random draws use `seed`. A plain resume after a crash writes none of these,
 * so it ends identical to an uninterrupted run.
 */
export const RunResumed = defineEvent("RunResumed", 1, {
  seed: Schema.Int,
  brain: Schema.String,
  endDay: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
});

/** The maintenance jobs the world clock schedules (`jobCalendar` in @hearsay/actors). */
export const MaintenanceJob = Schema.Literals(["daily", "consolidate", "index"]);
export type MaintenanceJob = typeof MaintenanceJob.Type;

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));

/**
 * A maintenance job the world clock scheduled ran, for the game day `day`, with what it
 * did (the lines before it in its batch): the `daily` one ended every memory whose
 * lifetime ran out (`expired`) or whose importance faded below the threshold
 * (`forgotten`); `consolidate` summarised old faint memories of one subject into one
 * (`consolidated`: the source memories that went); `index` had the run keep its vector
 * index files level with SQLite (its counts are all 0: what it wrote depends on the disk,
 * so it is reported in the run's summary, never logged). The clock folds it, so a job
 * runs once per day it is due, resumed or not.
 */
export const MaintenanceRan = defineEvent("MaintenanceRan", 1, {
  job: MaintenanceJob,
  day: Count,
  expired: Count,
  forgotten: Count,
  consolidated: Count,
});
