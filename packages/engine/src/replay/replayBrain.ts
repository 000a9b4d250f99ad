/**
 * The brain a verifying replay runs with. A segment recorded with the scripted brain
 * and no recorded calls is re-run with the scripted brain (it is a pure function of the
 * seed). Anything else answers from the log's `LlmCallRecorded` events through
 * @hearsay/mind's `RecordedBrain`, under the recorded brain's name (so SimulationStarted
 * and RunResumed come out the same), and never calls a model: a request with no
 * recording is `RecordingMissing` — remembered here so the divergence report can say
 * which call was missing. A call that failed when it was recorded fails again with the
 * very message it failed with, so its re-recorded event is the same.
 */

import type { PurposeName } from "@hearsay/mind";
import {
  type BrainAnswer,
  type BrainError,
  type BrainRequest,
  type BrainShape,
  RecordedBrain,
  type RecordedBrainShape,
  RecordedFailure,
  type RecordingMissing,
} from "@hearsay/mind";
import { Effect, Result } from "effect";
import type { RunPlan, RunSegment } from "./RunPlan.ts";

/** A recorded call that failed, failing again with the recorded message and nothing added. */
class ReplayedFailure extends RecordedFailure {
  override get message(): string {
    return this.error;
  }
}

/** The brain for one segment, and whether the engine must record its calls. */
export interface SegmentBrain {
  readonly brain: BrainShape;
  readonly record: boolean;
  readonly replaysRecordings: boolean;
}

/** Answers every segment of one replay; recordings are consumed in order across segments. */
export class ReplayBrains {
  private readonly recorded: RecordedBrainShape;
  private missing: RecordingMissing | null = null;

  constructor(
    plan: RunPlan,
    private readonly scripted: () => BrainShape,
  ) {
    this.recorded = RecordedBrain.fromPayloads(plan.recordings);
  }

  /** The first request the recording had no answer for, if any. */
  get firstMissing(): RecordingMissing | null {
    return this.missing;
  }

  /** Recorded calls never asked for. */
  unused(): number {
    return this.recorded.unused();
  }

  /**
   * The brain for a change a player made through a TalkWorld, by the settings its
   * PlayerInput recorded: the scripted brain again when its calls were not recorded.
   */
  forTalk(brain: string, recorded: boolean): SegmentBrain {
    return this.forSegment({
      fromSeq: 0,
      toSeq: 0,
      seed: 0,
      brain,
      endDay: 0,
      recordedCalls: recorded ? 1 : 0,
      legs: [],
    });
  }

  /** The brain for a segment. */
  forSegment(segment: RunSegment): SegmentBrain {
    if (segment.brain === "scripted" && segment.recordedCalls === 0) {
      return { brain: this.scripted(), record: false, replaysRecordings: false };
    }
    const recorded = this.recorded;
    const brain: BrainShape = {
      name: segment.brain,
      decide: <P extends PurposeName>(request: BrainRequest<P>) =>
        Effect.suspend((): Effect.Effect<BrainAnswer<P>, BrainError> => {
          const r = recorded.decideResult(request);
          if (Result.isSuccess(r)) return Effect.succeed(r.success);
          const error = r.failure;
          if (error._tag === "RecordingMissing") {
            this.missing ??= error;
            return Effect.fail(error);
          }
          return Effect.fail(
            new ReplayedFailure({
              purpose: error.purpose,
              npcId: error.npcId,
              t: error.t,
              error: error.error,
              model: error.model,
            }),
          );
        }),
    };
    return { brain, record: true, replaysRecordings: true };
  }
}
