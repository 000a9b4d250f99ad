/**
 * The purposes that digest a talk with the player while the NPC's reply is being said:
 * `extract_facts` turns a stretch of it into atomic facts ("the player promised to
 * defend the ford", not the player's florid sentence) from one listener's point of view
 * — the NPC spoken to, or a witness who overheard — and `summarize_talk` folds it into
 * the NPC's running summary of the player and moves its regard for them.
 */
import { ConversationId } from "@hearsay/core";
import { Schema } from "effect";
import { DialogueLine, ExtractMemoriesOutput } from "./ExtractMemoriesPurpose.ts";
import { BoundedText, LineText, Participant, Regard } from "./Fields.ts";
import { PlayerRegard } from "./ReplyPurpose.ts";

export const ExtractFactsInput = Schema.Struct({
  conversationId: ConversationId,
  /** Whose memories these are. */
  self: Participant,
  /** The NPC the player is talking to (the same as `self` unless `self` overheard). */
  npc: Participant,
  player: Participant,
  /** `participant`: spoken to; `witness`: present and overheard. */
  role: Schema.Literals(["participant", "witness"]),
  locationName: Schema.NullOr(Schema.String),
  /** The turns not yet digested, oldest first. */
  turns: Schema.Array(DialogueLine),
});
export type ExtractFactsInput = typeof ExtractFactsInput.Type;

export const ExtractFactsOutput = ExtractMemoriesOutput;
export type ExtractFactsOutput = typeof ExtractFactsOutput.Type;

export const extractFactsInstruction = [
  "From these turns, list the facts you will remember as one JSON object",
  "`{memories: [...]}` (at most 8). Each memory is one atomic fact in plain words, not a",
  'quotation: "The player promised to defend the ford." Give each a `category` (promise,',
  "secret, relationship, known_info, task, conversation, …), an `importance` from 0 to 1",
  'and a `lifetime` ("1d", "3d", "7d", "30d" or "permanent"): small talk fades in a day,',
  "promises and tasks last a week or more, what someone is and secrets are permanent. If",
  "your role is `witness`, you only overheard: remember less, and only what you heard.",
].join("\n");

export const SummarizeTalkInput = Schema.Struct({
  conversationId: ConversationId,
  self: Participant,
  partner: Participant,
  /** The summary so far (of this and earlier talks), or null at a first meeting. */
  priorSummary: Schema.NullOr(Schema.String),
  regard: PlayerRegard,
  /** The turns not yet summarised, oldest first. */
  turns: Schema.Array(DialogueLine),
});
export type SummarizeTalkInput = typeof SummarizeTalkInput.Type;

export const SummarizeTalkOutput = Schema.Struct({
  summary: LineText(1500),
  trust: Regard,
  respect: Regard,
  suspicion: Regard,
  /** One sentence on how you now regard your partner. */
  regardSummary: BoundedText(300),
});
export type SummarizeTalkOutput = typeof SummarizeTalkOutput.Type;

export const summarizeTalkInstruction = [
  "Update your running summary of everything you and your partner have said to each other",
  "as one JSON object: `summary` (the old summary with the new turns folded in; keep every",
  "promise, request and fact about them; drop small talk), your new `trust`, `respect`",
  "and `suspicion` of them (each from -1 to 1, moving only as far as the turns justify),",
  "and `regardSummary` (one sentence on how you regard them now).",
].join("\n");
