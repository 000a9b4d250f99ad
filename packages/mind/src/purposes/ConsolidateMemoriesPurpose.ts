/**
 * The `consolidate_memories` purpose: an NPC's old, faint memories of one subject (a
 * person, a place, a task…) are put together into one memory, in its own words. The
 * input holds only those memories, oldest first, so the summary can draw on nothing the
 * NPC did not remember; which memories, and what the new one is worth, the engine
 * decides by rule (`consolidationGroups` in @hearsay/actors).
 */
import { GameTime, MemoryCategory, MemoryId } from "@hearsay/core";
import { Schema } from "effect";
import { LineText, NpcSelf } from "./Fields.ts";

/** One memory to put together. */
export const ConsolidatedSource = Schema.Struct({
  memoryId: MemoryId,
  text: Schema.String,
  category: MemoryCategory,
  recordedAt: GameTime,
});
export type ConsolidatedSource = typeof ConsolidatedSource.Type;

export const ConsolidateMemoriesInput = Schema.Struct({
  /** Whose memories these are. */
  self: NpcSelf,
  /** What they are all about, named as the NPC knows it. */
  subject: Schema.Struct({ kind: Schema.String, id: Schema.String, name: Schema.String }),
  /** The memories, oldest first. */
  memories: Schema.Array(ConsolidatedSource).check(Schema.isMinLength(1)),
});
export type ConsolidateMemoriesInput = typeof ConsolidateMemoriesInput.Type;

export const ConsolidateMemoriesOutput = Schema.Struct({
  /** First person: what the NPC still holds of the subject, in a few sentences. */
  summary: LineText(800),
});
export type ConsolidateMemoriesOutput = typeof ConsolidateMemoriesOutput.Type;

export const consolidateMemoriesInstruction = [
  "These are old memories of yours about one subject, fading. Put them together as one",
  "JSON object: `summary` (two or three sentences in the first person and in your own",
  "voice: what you still hold of the subject, the gist rather than each occasion — use",
  "only what the memories say, invent nothing).",
].join("\n");
