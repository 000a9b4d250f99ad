/**
 * The one place an `LlmCallRecorded` payload is built, from a request and how it ended:
 * answered (by the configured model, or by a fallback — then `error` says why the
 * model did not) or failed (no brain answered). Either way the call carries what it
 * spent on answers it refused, so no rejected request goes uncounted. The engine's
 * brain runner, the talk's reply and the recording wrapper all record through here.
 */
import type { CallPolicy, LlmCallId, PayloadOf, RejectedSpend } from "@hearsay/core";
import type { BrainAnswer, BrainRequest } from "./Brain.ts";
import { type BrainError, RecordedFailure } from "./BrainError.ts";
import { encodeOutput } from "./Purpose.ts";

/** The payload of an `LlmCallRecorded` event. */
export type LlmCallPayload = PayloadOf<"LlmCallRecorded">;

export const noRejected: RejectedSpend = { answers: 0, promptTokens: 0, outputTokens: 0 };

/** `meta.rejected` of an answer: absent when the call refused nothing (as scripted answers). */
export const rejectedMeta = (spend: RejectedSpend): { readonly rejected?: RejectedSpend } =>
  spend.answers + spend.promptTokens + spend.outputTokens > 0 ? { rejected: spend } : {};

/** Two spends together. */
export const addRejected = (a: RejectedSpend, b: RejectedSpend): RejectedSpend => ({
  answers: a.answers + b.answers,
  promptTokens: a.promptTokens + b.promptTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

// A failed call's error is one of the typed BrainErrors, shared with the fallback chain;
// what the call spent on refused answers before it failed travels beside it.
const spentBefore = new WeakMap<object, RejectedSpend>();

/** `error`, noted as having cost `spend` in refused answers first. */
export const withRejected = <E extends BrainError>(error: E, spend: RejectedSpend): E => {
  spentBefore.set(error, spend);
  return error;
};

const policyBefore = new WeakMap<object, CallPolicy>();

/** `error`, noted as a call the brain policy classed as `policy`. */
export const withPolicy = <E extends BrainError>(error: E, policy: CallPolicy): E => {
  policyBefore.set(error, policy);
  return error;
};

/** The policy a failed call was classed under, or null. */
export const policyOf = (error: BrainError): CallPolicy | null => policyBefore.get(error) ?? null;

/** What a failed call spent in refused answers before it failed. */
export const rejectedOf = (error: BrainError): RejectedSpend =>
  spentBefore.get(error) ?? noRejected;

/** How a call ended. */
export type CallOutcome =
  | { readonly ok: true; readonly answer: BrainAnswer }
  | { readonly ok: false; readonly error: BrainError };

export const llmCallPayload = (call: {
  readonly request: BrainRequest;
  readonly inputHash: string;
  readonly callId: LlmCallId;
  /** The brain asked (named when no brain answered). */
  readonly brain: string;
  readonly outcome: CallOutcome;
}): LlmCallPayload => {
  const { request, outcome } = call;
  const base = {
    callId: call.callId,
    npcId: request.npcId,
    purpose: request.purpose,
    inputHash: call.inputHash,
  };
  if (outcome.ok) {
    const { meta } = outcome.answer;
    return {
      ...base,
      brain: meta.brain,
      model: meta.model,
      output: encodeOutput(request.purpose, outcome.answer.output),
      error: meta.fallbackReason,
      promptTokens: meta.promptTokens,
      outputTokens: meta.outputTokens,
      latencyMs: meta.latencyMs,
      rejected: meta.rejected ?? noRejected,
      policy: meta.policy ?? null,
    };
  }
  const { error } = outcome;
  return {
    ...base,
    brain: call.brain,
    model: "model" in error ? error.model : "",
    output: null,
    // A replayed failure records the failure it replays, word for word.
    error: error instanceof RecordedFailure ? error.error : error.message,
    promptTokens: 0,
    outputTokens: 0,
    latencyMs: 0,
    rejected: rejectedOf(error),
    policy: policyOf(error),
  };
};
