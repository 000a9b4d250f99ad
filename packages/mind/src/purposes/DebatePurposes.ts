/**
 * The debate purposes: `debate_turn` (one participant's line and stance in a round) and
 * `summarize_debate` (the summary and outcome the engine stores instead of a
 * transcript). The turn that closes a debate may carry the summary and outcome in its
 * own answer (`closes`), so a run that carries `summarize_debate` asks no separate call:
 * its speaker has heard every line, its own included, which is all a summary is given.
 */
import { DebateId, NpcId } from "@hearsay/core";
import { Schema } from "effect";
import { BoundedText, LineText, NpcSelf, Participant, RegardChange } from "./Fields.ts";

export const Stance = Schema.Literals(["for", "against", "undecided"]);
export type Stance = typeof Stance.Type;

export const DebateLine = Schema.Struct({
  speakerId: NpcId,
  speakerName: Schema.String,
  text: Schema.String,
  stance: Stance,
});
export type DebateLine = typeof DebateLine.Type;

export const DebateTurnInput = Schema.Struct({
  debateId: DebateId,
  topic: Schema.String,
  round: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  self: NpcSelf,
  participants: Schema.Array(Participant),
  /** Lines said so far, oldest first. */
  previous: Schema.Array(DebateLine),
  /**
   * True when this turn is the debate's last: its answer also gives the summary and
   * outcome. Absent on every other turn, and on every turn of a run that asks
   * `summarize_debate` separately — so such inputs hash as they always did.
   */
  closes: Schema.optionalKey(Schema.Literal(true)),
});
export type DebateTurnInput = typeof DebateTurnInput.Type;

export const DebateTurnOutput = Schema.Struct({
  text: LineText(600),
  stance: Stance,
  /** The participant answered, or null. */
  replyTo: Schema.NullOr(NpcId),
  /** How its regard for `replyTo` moves in answering them, and why; none, no change. */
  regard: Schema.optional(RegardChange),
  /** On a closing turn (`closes`): who argued what, as `SummarizeDebateOutput.summary`. */
  summary: Schema.optionalKey(LineText(1200)),
  /** On a closing turn: what was decided, as `SummarizeDebateOutput.outcome`. */
  outcome: Schema.optionalKey(BoundedText(400)),
});
export type DebateTurnOutput = typeof DebateTurnOutput.Type;

export const SummarizeDebateInput = Schema.Struct({
  debateId: DebateId,
  topic: Schema.String,
  participants: Schema.Array(Participant),
  turns: Schema.Array(DebateLine),
});
export type SummarizeDebateInput = typeof SummarizeDebateInput.Type;

export const SummarizeDebateOutput = Schema.Struct({
  summary: LineText(1200),
  outcome: BoundedText(400),
});
export type SummarizeDebateOutput = typeof SummarizeDebateOutput.Type;

export const debateTurnInstruction = [
  "Give your line in this round of the debate as one JSON object: `text` (one to three",
  'sentences in your own voice), `stance` ("for", "against" or "undecided" on the topic)',
  "and `replyTo` (the id of the participant you answer, from `participants`, or null), and",
  "optionally `regard`: how your trust, respect and suspicion of `replyTo` move (each -0.2",
  "to 0.2) with a short `reason`.",
  "When the input has `closes: true`, your line closes the debate: also give `summary` (who",
  "argued what, 2-4 sentences, fair to every side) and `outcome` (what was decided, or that",
  "nothing was), from the lines said, yours included.",
].join("\n");

export const summarizeDebateInstruction = [
  "Summarise the debate as one JSON object: `summary` (who argued what, 2-4 sentences)",
  "and `outcome` (what was decided, or that nothing was). Use only what was said.",
].join("\n");
