/**
 * The recorded brain: answers from a log's `LlmCallRecorded` events by input hash, in
 * the order they were recorded when a hash repeats. It never calls a model: a request
 * with no recording left is `RecordingMissing` — a divergence for replay to report —
 * and a call that failed when recorded fails again the same way. Answers carry the
 * recorded meta, so re-recording a replay reproduces the original events exactly.
 */
import type { Event } from "@hearsay/core";
import { Effect, Result } from "effect";
import type { BrainAnswer, BrainRequest, BrainShape } from "./Brain.ts";
import { RecordedFailure, RecordingMissing } from "./BrainError.ts";
import { inputHash } from "./inputHash.ts";
import { type LlmCallPayload, rejectedMeta, withPolicy, withRejected } from "./llmCallPayload.ts";
import { decodeOutput, type PurposeName } from "./Purpose.ts";

/** A brain that answers from recordings. */
export interface RecordedBrainShape extends BrainShape {
  /** The answer as a Result, without an Effect (for the engine's synchronous replay loop). */
  decideResult<P extends PurposeName>(
    request: BrainRequest<P>,
  ): Result.Result<BrainAnswer<P>, RecordingMissing | RecordedFailure>;
  /** How many recorded calls have not been asked for yet. */
  unused(): number;
}

const fromPayloads = (payloads: Iterable<LlmCallPayload>): RecordedBrainShape => {
  const byHash = new Map<string, Array<LlmCallPayload>>();
  let total = 0;
  for (const payload of payloads) {
    const queue = byHash.get(payload.inputHash);
    if (queue === undefined) byHash.set(payload.inputHash, [payload]);
    else queue.push(payload);
    total++;
  }
  const cursor = new Map<string, number>();
  let used = 0;

  const decideResult = <P extends PurposeName>(
    request: BrainRequest<P>,
  ): Result.Result<BrainAnswer<P>, RecordingMissing | RecordedFailure> => {
    const hash = inputHash(request);
    const at = cursor.get(hash) ?? 0;
    const payload = byHash.get(hash)?.[at];
    const where = { purpose: request.purpose, npcId: request.npcId, t: request.t };
    if (payload === undefined)
      return Result.fail(new RecordingMissing({ ...where, inputHash: hash }));
    cursor.set(hash, at + 1);
    used++;
    if (payload.output === null) {
      const failure = withRejected(
        new RecordedFailure({
          ...where,
          error: payload.error ?? "unknown error",
          model: payload.model,
        }),
        payload.rejected,
      );
      return Result.fail(payload.policy === null ? failure : withPolicy(failure, payload.policy));
    }
    const decoded = decodeOutput(request.purpose, payload.output);
    if (Result.isFailure(decoded))
      return Result.fail(
        new RecordedFailure({
          ...where,
          error: `the recorded output no longer decodes: ${decoded.failure.message}`,
          model: payload.model,
        }),
      );
    return Result.succeed({
      output: decoded.success,
      meta: {
        brain: payload.brain,
        model: payload.model,
        promptTokens: payload.promptTokens,
        outputTokens: payload.outputTokens,
        latencyMs: payload.latencyMs,
        fallbackReason: payload.error,
        ...rejectedMeta(payload.rejected),
        ...(payload.policy === null ? {} : { policy: payload.policy }),
      },
    });
  };

  return {
    name: "recorded",
    decideResult,
    decide: (request) => Effect.suspend(() => Effect.fromResult(decideResult(request))),
    unused: () => total - used,
  };
};

/** Builds recorded brains from a log's events or from bare payloads. */
export const RecordedBrain = {
  /** Answers from the `LlmCallRecorded` events among `events` (others are ignored). */
  fromEvents: (events: Iterable<Event>): RecordedBrainShape => {
    const payloads: Array<LlmCallPayload> = [];
    for (const event of events) if (event.type === "LlmCallRecorded") payloads.push(event.payload);
    return fromPayloads(payloads);
  },
  fromPayloads,
} as const;
