/**
 * What it takes to run a recorded save again, read from its log in one paged pass: how
 * it started (world hash, seed, brain, end day), each later `RunResumed` (a continuation
 * with another seed, brain or length starts a new *segment*), the checkpoint interval
 * the run used, the time skips it made, and every recorded brain call. None of this is
 * guessed from flags: the log says it.
 *
 * The checkpoint interval is not in the log, and a run resumed with another
 * `--checkpoint-every` changes it with no other trace; yet a Checkpoint takes a seq, so
 * a replay must write one exactly where the run did. Each segment is therefore split into
 * *legs*, each with one interval, read off the tick indexes the Checkpoints sit at: a leg
 * runs while they keep one cadence, and ends with the tick of its last Checkpoint, where
 * the replay resumes (plainly, as the run did) with the next leg's interval. A constant
 * cadence is one leg; any cadence is reproduced exactly, time skips included.
 *
 * Changes a player made through a TalkWorld (`chat`, `serve`) are not the run's: each
 * starts with a `PlayerInput`, whose seq the plan lists so a replay can make that change
 * again instead of running the engine. Their stretch of the log — the input's batch
 * (its `events` count says how long), or for a skip everything up to and including the
 * skip's jump — adds no planned skip, no recorded call to its segment's count (the
 * talk's brain answers for those) and no Checkpoint to its segment's cadence (a skip's
 * ticks use the talk's own interval). A RunResumed inside a skip still begins a segment.
 */
import {
  dayOf,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  type PayloadOf,
  type Upcast,
} from "@hearsay/core";
import type { LlmCallPayload } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import type { SkipMode } from "../Skips.ts";
import { ReplayRefused } from "./ReplayError.ts";
import { historyEvents } from "./readHistory.ts";

/** A stretch of a segment run with one checkpoint interval. */
export interface RunLeg {
  /** Checkpoint every N ticks (0: none). */
  readonly everyTicks: number;
  /** The last seq it writes. */
  readonly endSeq: number;
}

/** A stretch of the log written by one run with one seed, brain and length. */
export interface RunSegment {
  /** The first seq it wrote (1 for the start; its RunResumed's seq after). */
  readonly fromSeq: number;
  /** The last seq it wrote. */
  readonly toSeq: number;
  readonly seed: number;
  readonly brain: string;
  readonly endDay: number;
  /** LlmCallRecorded events within it. */
  readonly recordedCalls: number;
  /** Its checkpoint cadence, leg by leg (at least one leg). */
  readonly legs: ReadonlyArray<RunLeg>;
}

/** A time skip the run made, as the engine's `skips` spec takes it. */
export interface PlannedSkip {
  readonly atDay: number;
  readonly atHour: number;
  readonly mode: SkipMode;
  readonly days?: number;
}

export interface RunPlan {
  readonly saveId: string;
  readonly head: number;
  readonly started: PayloadOf<"SimulationStarted">;
  /** The game time the run started at (the world's start). */
  readonly startedAt: number;
  readonly segments: ReadonlyArray<RunSegment>;
  readonly checkpoints: number;
  readonly skips: ReadonlyArray<PlannedSkip>;
  /** Every recorded brain call, in seq order. */
  readonly recordings: ReadonlyArray<LlmCallPayload>;
  /** Seqs of the PlayerInput events (changes made through a TalkWorld), in order. */
  readonly inputs: ReadonlyArray<number>;
  /**
   * Seqs of lore imported into the save after its start (`hearsay lore import`): facts
   * from outside the engine, which a replay appends as recorded.
   */
  readonly imports: ReadonlyArray<number>;
}

/** A Checkpoint's tick index and where its tick's batch ends. */
interface CheckpointAt {
  readonly index: number;
  readonly seq: number;
  batchEnd: number;
}

interface SegmentDraft {
  readonly fromSeq: number;
  readonly seed: number;
  readonly brain: string;
  readonly endDay: number;
  /** The tick index its first tick starts at. */
  readonly firstIndex: number;
  recordedCalls: number;
  lastIndex: number;
  readonly checkpoints: Array<CheckpointAt>;
}

/**
 * The legs that reproduce a segment's checkpoints: greedily, the longest runs of one
 * cadence. A leg with interval N from tick `start` writes a Checkpoint at every multiple
 * of N from `start` on; its first Checkpoint at k needs N | k with k − N < start, and
 * N = k always qualifies.
 */
export const planLegs = (
  checkpoints: ReadonlyArray<{ readonly index: number; readonly batchEnd: number }>,
  firstIndex: number,
  lastIndex: number,
  endSeq: number,
): ReadonlyArray<RunLeg> => {
  const legs: Array<RunLeg> = [];
  let start = Math.max(1, firstIndex);
  let i = 0;
  while (i < checkpoints.length) {
    const k = checkpoints[i]!.index;
    const d = i + 1 < checkpoints.length ? checkpoints[i + 1]!.index - k : 0;
    const every = d > 0 && k % d === 0 && k - d < start ? d : k;
    let j = i;
    while (
      j + 1 < checkpoints.length &&
      checkpoints[j + 1]!.index === checkpoints[j]!.index + every
    )
      j++;
    if (j === checkpoints.length - 1 && checkpoints[j]!.index + every > lastIndex) {
      legs.push({ everyTicks: every, endSeq });
      return legs;
    }
    legs.push({ everyTicks: every, endSeq: checkpoints[j]!.batchEnd });
    start = checkpoints[j]!.index + 1;
    i = j + 1;
  }
  if (legs.length === 0 || legs[legs.length - 1]!.endSeq < endSeq)
    legs.push({ everyTicks: 0, endSeq });
  return legs;
};

/** Reads the plan of a save's run. @throws ReplayRefused when the save holds no run. */
export const readRunPlan = (log: SqliteEventLog, saveId: string, upcast?: Upcast): RunPlan => {
  const head = log.head(saveId);
  if (head === 0) {
    throw new ReplayRefused({
      reason: `save "${saveId}" is empty`,
      fix: "run a simulation into it first, or name another --save",
    });
  }
  let started: PayloadOf<"SimulationStarted"> | null = null;
  let startedAt = 0;
  const drafts: Array<SegmentDraft> = [];
  const skips: Array<PlannedSkip> = [];
  const recordings: Array<LlmCallPayload> = [];
  let pending: CheckpointAt | null = null;
  let checkpoints = 0;
  const inputs: Array<number> = [];
  const imports: Array<number> = [];
  /** Past the start's own events (SimulationStarted and the world's lore). */
  let afterGenesis = false;
  /** The last seq of the talk batch being read, or a skip's stretch (until its jump). */
  let talkUntil = 0;
  let inSkip = false;
  const indexOf = (t: number) => Math.round((t - startedAt) / started!.tickMinutes);
  for (const e of historyEvents({ log, saveId, ...(upcast ? { upcast } : {}) })) {
    if (started === null) {
      if (e.type !== "SimulationStarted") {
        throw new ReplayRefused({
          reason: `save "${saveId}" does not begin with SimulationStarted (seq 1 is ${e.type})`,
          fix: "only a log written by `hearsay run` can be run again; the fast replay (without --verify) still works",
        });
      }
      started = e.payload;
      startedAt = e.t;
      drafts.push({
        fromSeq: 1,
        seed: e.payload.seed,
        brain: e.payload.brain,
        endDay: e.payload.endDay,
        firstIndex: 1,
        recordedCalls: 0,
        lastIndex: 0,
        checkpoints: [],
      });
      continue;
    }
    if (e.type === "LoreImported") {
      if (afterGenesis) imports.push(e.seq);
    } else afterGenesis = true;
    const segment = drafts[drafts.length - 1]!;
    const byTalk = inSkip || e.seq <= talkUntil;
    switch (e.type) {
      case "PlayerInput":
        inputs.push(e.seq);
        talkUntil = e.seq + e.payload.events;
        inSkip = e.payload.input.kind === "skip";
        break;
      case "RunResumed":
        drafts.push({
          fromSeq: e.seq,
          ...e.payload,
          firstIndex: indexOf(e.t),
          recordedCalls: 0,
          lastIndex: indexOf(e.t),
          checkpoints: [],
        });
        break;
      case "LlmCallRecorded":
        recordings.push(e.payload);
        if (!byTalk) segment.recordedCalls += 1;
        break;
      case "Checkpoint":
        checkpoints += 1;
        if (byTalk) break;
        // Written first in the tick from t − tickMinutes; that tick's index.
        pending = { index: indexOf(e.t) - 1, seq: e.seq, batchEnd: e.seq };
        segment.checkpoints.push(pending);
        break;
      case "ClockAdvanced":
        if (pending !== null) pending.batchEnd = e.seq;
        pending = null;
        segment.lastIndex = indexOf(e.payload.from);
        if (inSkip && e.payload.mode === "jump") {
          inSkip = false;
          break;
        }
        if (e.payload.mode !== "tick" && !byTalk) {
          const from = e.payload.from;
          skips.push({
            atDay: dayOf(from),
            atHour: (from % MINUTES_PER_DAY) / MINUTES_PER_HOUR,
            mode: e.payload.mode,
            // The span as recorded: an elision replays to the same time however the
            // run chose its end (the end of every activity, or a span asked for).
            days: (e.payload.to - from) / MINUTES_PER_DAY,
          });
        }
        break;
      default:
        break;
    }
  }
  const segments = drafts.map((d, i): RunSegment => {
    const toSeq = (drafts[i + 1]?.fromSeq ?? head + 1) - 1;
    return {
      fromSeq: d.fromSeq,
      toSeq,
      seed: d.seed,
      brain: d.brain,
      endDay: d.endDay,
      recordedCalls: d.recordedCalls,
      legs: planLegs(d.checkpoints, d.firstIndex, d.lastIndex, toSeq),
    };
  });
  return {
    saveId,
    head,
    started: started!,
    startedAt,
    segments,
    checkpoints,
    skips,
    recordings,
    inputs,
    imports,
  };
};
