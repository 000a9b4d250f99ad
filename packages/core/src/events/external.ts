/** Events that record what came from outside the simulation: model calls and lore. */
import { Schema } from "effect";
import { LlmCallId, LoreChunkId, LoreSourceId, NpcId } from "../ids.ts";
import { defineEvent, Text } from "./defineEvent.ts";

/**
 * One brain call and its answer. Replay answers from these and never calls a model
 * again; `inputHash` (sha256 of the canonical request) is how a replay finds them.
 */
export const LlmCallRecorded = defineEvent("LlmCallRecorded", 1, {
  callId: LlmCallId,
  npcId: Schema.NullOr(NpcId),
  purpose: Schema.String,
  inputHash: Schema.String,
  brain: Schema.String,
  model: Schema.String,
  /** The decoded answer as JSON; null when every brain in the chain failed. */
  output: Schema.NullOr(Schema.Json),
  error: Schema.NullOr(Schema.String),
  promptTokens: Schema.Int,
  outputTokens: Schema.Int,
  latencyMs: Schema.Number,
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
