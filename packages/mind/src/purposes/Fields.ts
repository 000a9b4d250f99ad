/**
 * Field schemas the purposes share: who the deciding NPC is, who else is there, and the
 * bounded text and number types model output is held to. Bounds keep one runaway answer
 * from bloating the log; finite numbers keep the derived JSON Schema a plain `number`.
 */
import { FactionId, NpcId } from "@hearsay/core";
import { Schema } from "effect";

/** Text of at most `max` characters. */
export const BoundedText = (max: number) => Schema.String.check(Schema.isMaxLength(max));

/** Non-empty text of at most `max` characters. */
export const LineText = (max: number) =>
  Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max));

/** A finite number in [0, 1]. */
export const Fraction = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }));

/** How one NPC regards another, from -1 (hostile) to 1 (devoted). */
export const Regard = Schema.Finite.check(Schema.isBetween({ minimum: -1, maximum: 1 }));

/** One level's move in a regard change: small, at most 0.2 either way. */
const Shift = Schema.Finite.check(Schema.isBetween({ minimum: -0.2, maximum: 0.2 }));

/**
 * How the answering NPC's regard for the one it addresses moves because of this exchange,
 * and why. Optional in every answer: no change is made without one.
 */
export const RegardChange = Schema.Struct({
  trust: Shift,
  respect: Shift,
  suspicion: Shift,
  reason: LineText(200),
});
export type RegardChange = typeof RegardChange.Type;

/** The NPC who decides: its id and the parts of its character text is drawn from. */
export const NpcSelf = Schema.Struct({
  id: NpcId,
  name: Schema.String,
  role: Schema.String,
  factionId: Schema.NullOr(FactionId),
  traits: Schema.Array(Schema.String),
  /** From its first-meeting profile, once generated. */
  speechStyle: Schema.NullOr(Schema.String),
});
export type NpcSelf = typeof NpcSelf.Type;

/** Another NPC as the decider sees it. */
export const NpcGlimpse = Schema.Struct({
  id: NpcId,
  name: Schema.String,
  role: Schema.String,
  factionId: Schema.NullOr(FactionId),
  regard: Regard,
});
export type NpcGlimpse = typeof NpcGlimpse.Type;

/** A participant named in a conversation or debate. */
export const Participant = Schema.Struct({ id: NpcId, name: Schema.String });
export type Participant = typeof Participant.Type;
