/** Events that record what came from outside the simulation: model calls and lore. */
import { Schema } from "effect";
import { LlmCallId, LoreChunkId, LoreSourceId, NpcId } from "../ids.ts";
import { defineEvent, Text } from "./defineEvent.ts";

/** What a call spent on model answers that were refused (invalid JSON, unknown ids). */
export const RejectedSpend = Schema.Struct({
  /** Model answers refused, repairs and fallback models' included. */
  answers: Schema.Int,
  /** Tokens of the requests whose answers were refused. */
  promptTokens: Schema.Int,
  outputTokens: Schema.Int,
});
export type RejectedSpend = typeof RejectedSpend.Type;

/** Why a call went to a model or not: its priority class under the brain policy, and the reason. */
export const CallPolicy = Schema.Struct({
  /** scripted, low, normal, high or critical. */
  priority: Schema.String,
  /** What decided it, e.g. "act is normal, principal NPC". */
  reason: Schema.String,
});
export type CallPolicy = typeof CallPolicy.Type;

/**
 * One brain call and its answer. Replay answers from these and never calls a model
 * again; `inputHash` (sha256 of the canonical request) is how a replay finds them.
 * Version 2 added `rejected`: version-1 events (which counted no refused answers) are
 * upcast with zeros. Version 3 added `policy`: version-2 events (written before there
 * was a brain policy) are upcast with null (see upcast.ts).
 */
export const LlmCallRecorded = defineEvent("LlmCallRecorded", 3, {
  callId: LlmCallId,
  npcId: Schema.NullOr(NpcId),
  purpose: Schema.String,
  inputHash: Schema.String,
  brain: Schema.String,
  model: Schema.String,
  /** The decoded answer as JSON; null when every brain in the chain failed. */
  output: Schema.NullOr(Schema.Json),
  /** Why the configured model did not answer (a fallback answered, or none did); else null. */
  error: Schema.NullOr(Schema.String),
  /** Tokens of the request whose answer was used (all 0 when none was). */
  promptTokens: Schema.Int,
  outputTokens: Schema.Int,
  latencyMs: Schema.Number,
  rejected: RejectedSpend,
  /** The brain policy's class and reason for this call; null: no policy applied (scripted runs, older logs). */
  policy: Schema.NullOr(CallPolicy),
});

export const LoreChunk = Schema.Struct({
  chunkId: LoreChunkId,
  headingPath: Schema.Array(Schema.String),
  text: Text,
  tags: Schema.Array(Schema.String),
  entities: Schema.Array(Schema.String),
});
export type LoreChunk = typeof LoreChunk.Type;

export const LoreImported = defineEvent("LoreImported", 1, {
  sourceId: LoreSourceId,
  path: Schema.String,
  /** sha256 of the source text; the same hash again imports nothing. */
  contentHash: Schema.String,
  chunks: Schema.Array(LoreChunk),
});
