/**
 * The recording wrapper: every call through it becomes one `LlmCallRecorded` payload —
 * input hash, which brain and model answered, the output as JSON (or the error), tokens
 * and latency — handed to `record`, which the engine puts into the tick's events. This
 * is what makes a run replayable without calling a model again.
 */
import { ids, type LlmCallId } from "@hearsay/core";
import { Effect } from "effect";
import type { BrainAnswer, BrainRequest, BrainShape } from "./Brain.ts";
import { inputHash } from "./inputHash.ts";
import { type CallOutcome, type LlmCallPayload, llmCallPayload } from "./llmCallPayload.ts";
import type { PurposeName } from "./Purpose.ts";
import type { SyncBrain } from "./ScriptedBrain.ts";

/** Receives each call's record, in call order. */
export type RecordCall = (payload: LlmCallPayload) => void;

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
      const recordAs = (outcome: CallOutcome) =>
        Effect.sync(() =>
          record(llmCallPayload({ request, inputHash: hash, callId, brain: brain.name, outcome })),
        );
      return brain.decide(request).pipe(
        Effect.tap((answer) => recordAs({ ok: true, answer: answer as BrainAnswer })),
        Effect.tapError((error) => recordAs({ ok: false, error })),
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
      record(
        llmCallPayload({
          request,
          inputHash: hash,
          callId: nextId(hash),
          brain: brain.name,
          outcome: { ok: true, answer: answer as BrainAnswer },
        }),
      );
      return answer;
    },
  };
};
