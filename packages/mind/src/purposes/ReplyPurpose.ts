/**
 * The `reply` purpose: an NPC answers a player who is talking to it. The input carries
 * what the reply may draw on — the NPC's regard for the player, the running summary of
 * their talks, the last few raw turns and the new message — and the answer is the line
 * it says (first, so a streamed answer can show it as it arrives) plus any game actions
 * it proposes, which the game validates before anything happens.
 */
import { ConversationId } from "@hearsay/core";
import { Schema } from "effect";
import { DialogueLine } from "./ExtractMemoriesPurpose.ts";
import { BoundedText, LineText, NpcSelf, Participant, Regard } from "./Fields.ts";

/** How the NPC regards the player now (its directed edge). */
export const PlayerRegard = Schema.Struct({
  trust: Regard,
  respect: Regard,
  suspicion: Regard,
  summary: Schema.String,
});
export type PlayerRegard = typeof PlayerRegard.Type;

export const ReplyInput = Schema.Struct({
  conversationId: ConversationId,
  self: NpcSelf,
  player: Participant,
  locationName: Schema.NullOr(Schema.String),
  regard: PlayerRegard,
  /** The NPC's running summary of its talks with the player, if any. */
  summary: Schema.NullOr(Schema.String),
  /** The last few raw turns of this conversation, oldest first. */
  turns: Schema.Array(DialogueLine),
  /** What the player just said. */
  message: Schema.String,
  /** What the game says is going on around them, if anything. */
  scene: Schema.NullOr(Schema.String),
});
export type ReplyInput = typeof ReplyInput.Type;

/** A game action the NPC proposes; the game decides whether it happens. */
export const ProposedAction = Schema.Struct({
  kind: Schema.Literal("assign_task"),
  title: LineText(120),
  description: BoundedText(400),
});
export type ProposedAction = typeof ProposedAction.Type;

export const ReplyOutput = Schema.Struct({
  text: LineText(800),
  actions: Schema.Array(ProposedAction).check(Schema.isMaxLength(2)),
});
export type ReplyOutput = typeof ReplyOutput.Type;

export const replyInstruction = [
  "The player is talking to you. Answer in character as one JSON object: `text` (what you",
  "say back, one to four sentences, in your own voice, drawing only on what you know) and",
  '`actions` (usually empty; to give the player a job, one `{kind: "assign_task", title,',
  "description}`). Keep promises and facts the player told you straight; never invent",
  "what you were not told.",
].join("\n");
