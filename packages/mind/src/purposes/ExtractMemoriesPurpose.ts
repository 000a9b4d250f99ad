/**
 * The `extract_memories` purpose: turn a conversation into a few atomic memories from one
 * NPC's point of view, each with a category, an importance and a lifetime, so the
 * engine can record them as `MemoryRecorded` events that expire on time.
 */
import { ConversationId, Lifetime, MemoryCategory, NpcId } from "@hearsay/core";
import { Schema } from "effect";
import { Fraction, LineText, Participant } from "./Fields.ts";

export const DialogueLine = Schema.Struct({
  speakerId: NpcId,
  speakerName: Schema.String,
  text: Schema.String,
});
export type DialogueLine = typeof DialogueLine.Type;

export const ExtractMemoriesInput = Schema.Struct({
  conversationId: ConversationId,
  /** Whose memories these are. */
  self: Participant,
  participants: Schema.Array(Participant),
  locationName: Schema.NullOr(Schema.String),
  turns: Schema.Array(DialogueLine),
});
export type ExtractMemoriesInput = typeof ExtractMemoriesInput.Type;

/** One atomic memory, before the engine gives it an id and an expiry time. */
export const MemoryDraft = Schema.Struct({
  text: LineText(400),
  category: MemoryCategory,
  importance: Fraction,
  lifetime: Lifetime,
});
export type MemoryDraft = typeof MemoryDraft.Type;

export const ExtractMemoriesOutput = Schema.Struct({
  memories: Schema.Array(MemoryDraft).check(Schema.isMaxLength(8)),
});
export type ExtractMemoriesOutput = typeof ExtractMemoriesOutput.Type;

export const extractMemoriesInstruction = [
  "From the conversation, list what you will remember as one JSON object `{memories: [...]}`",
  "(at most 8). Each memory is one self-contained fact in the first person: `text`,",
  "`category` (one of identity, background, observation, conversation, promise, secret,",
  "relationship, known_info, task, debate, location, world), `importance` from 0 to 1, and",
  '`lifetime` ("1d", "3d", "7d", "30d" or "permanent"): small talk fades in a day, promises',
  "and tasks last a week or more, secrets and life events are permanent.",
].join("\n");
