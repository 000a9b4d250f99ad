/**
 * The recording wrapper: every call through it becomes one `LlmCallRecorded` payload —
 * input hash, which brain and model answered, the output as JSON (or the error), tokens
 * and latency — handed to `record`, which the engine puts into the tick's events. This
 * is what makes a run replayable without calling a model again.
 */
import { ids, type LlmCallId, type PayloadOf } from "@hearsay/core";
import { Effect } from "effect";
import type { BrainAnswer, BrainRequest, BrainShape } from "./Brain.ts";
import type { BrainError } from "./BrainError.ts";
import { inputHash } from "./inputHash.ts";
import { encodeOutput, type PurposeName } from "./Purpose.ts";
import type { SyncBrain } from "./ScriptedBrain.ts";

/** The payload of an `LlmCallRecorded` event. */
export type LlmCallPayload = PayloadOf<"LlmCallRecorded">;

/** Receives each call's record, in call order. */
export type RecordCall = (payload: LlmCallPayload) => void;

/** Builds the record of one answered call. */
export const answeredCall = (
  request: BrainRequest,
  hash: string,
  callId: LlmCallId,
  answer: BrainAnswer,
): LlmCallPayload => ({
  callId,
  npcId: request.npcId,
  purpose: request.purpose,
  inputHash: hash,
  brain: answer.meta.brain,
  model: answer.meta.model,
  output: encodeOutput(request.purpose, answer.output),
  error: answer.meta.fallbackReason,
  promptTokens: answer.meta.promptTokens,
  outputTokens: answer.meta.outputTokens,
  latencyMs: answer.meta.latencyMs,
});

/** Builds the record of a call every brain failed. */
export const failedCall = (
  request: BrainRequest,
  hash: string,
  callId: LlmCallId,
  brainName: string,
  error: BrainError,
): LlmCallPayload => ({
  callId,
  npcId: request.npcId,
  purpose: request.purpose,
  inputHash: hash,
  brain: brainName,
  model: "model" in error ? error.model : "",
  output: null,
  error: error.message,
  promptTokens: 0,
  outputTokens: 0,
  latencyMs: 0,
});

/**
 * Mints call ids from the input hash and how often that hash was seen before, so the
 * same run mints the same ids.
 */
const callIds = (): ((hash: string) => LlmCallId) => {
  const seen = new Map<string, number>();
  return (hash) => {
    const n = seen.get(hash) ?? 0;
    seen.set(hash, n + 1);
    return ids.llmCall(`llm-${hash.slice(0, 24)}-${n}`);
  };
};

const recordingDecide =
  (brain: BrainShape, record: RecordCall, nextId: (hash: string) => LlmCallId) =>
  <P extends PurposeName>(request: BrainRequest<P>) =>
    Effect.suspend(() => {
      const hash = inputHash(request);
      const callId = nextId(hash);
      return brain.decide(request).pipe(
        Effect.tap((answer) =>
          Effect.sync(() => record(answeredCall(request, hash, callId, answer as BrainAnswer))),
        ),
        Effect.tapError((error) =>
          Effect.sync(() => record(failedCall(request, hash, callId, brain.name, error))),
        ),
      );
    });

/** A brain that records every call (answered or failed) before returning it. */
export const withRecording = (brain: BrainShape, record: RecordCall): BrainShape => ({
  name: brain.name,
  decide: recordingDecide(brain, record, callIds()),
});

/** `withRecording` for a synchronous brain, keeping `decideSync` free of scheduling. */
export const withRecordingSync = (brain: SyncBrain, record: RecordCall): SyncBrain => {
  const nextId = callIds();
  return {
    name: brain.name,
    decide: recordingDecide(brain, record, nextId),
    decideSync: <P extends PurposeName>(request: BrainRequest<P>): BrainAnswer<P> => {
      const hash = inputHash(request);
      const answer = brain.decideSync(request);
      record(answeredCall(request, hash, nextId(hash), answer as BrainAnswer));
      return answer;
    },
  };
};
