/**
 * The request bodies `hearsay serve` accepts, as Effect Schemas: every body is decoded
 * by one of these before anything happens, and a body that does not decode is answered
 * 400 with the path of the first field at fault and what was expected there.
 */
import { Visibility } from "@hearsay/core";
import { Result, Schema, SchemaIssue } from "effect";

const Text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max));

/** A conversation turn: the player's line, and optionally the talk it continues. */
export const TurnBody = Schema.Struct({
  message: Text(2000),
  conversationId: Schema.optional(Schema.NullOr(Schema.String)),
  /** What the game says is going on around them. */
  scene: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isMaxLength(1000)))),
  /** End the conversation with this turn: digest all of it now. */
  end: Schema.optional(Schema.Boolean),
});
export type TurnBody = typeof TurnBody.Type;

/** One thing that happened in the game. */
export const GameEvent = Schema.Struct({
  kind: Text(80),
  text: Text(2000),
  locationId: Schema.optional(Schema.NullOr(Schema.String)),
  factionId: Schema.optional(Schema.NullOr(Schema.String)),
  visibility: Visibility,
  importance: Schema.optional(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  participants: Schema.optional(Schema.Array(Schema.String)),
  entities: Schema.optional(Schema.Array(Schema.String)),
});
export type GameEvent = typeof GameEvent.Type;

/** Where the game's camera looks: NPCs near it rank higher for the model budget. */
export const Camera = Schema.Struct({ locationId: Text(200) });

/** A world tick: what changed in the game since the last one, and where the camera is. */
export const TickBody = Schema.Struct({
  events: Schema.Array(GameEvent).check(Schema.isMaxLength(200)),
  /** Absent: the camera stays where it was; null: there is none. */
  camera: Schema.optional(Schema.NullOr(Camera)),
});
export type TickBody = typeof TickBody.Type;

/** The game's verdict on an action an NPC proposed. */
export const ActionBody = Schema.Struct({
  taskId: Text(200),
  outcome: Schema.Literals(["accepted", "rejected", "completed", "failed"]),
  note: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isMaxLength(400)))),
});
export type ActionBody = typeof ActionBody.Type;

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1();

/** A body that did not decode: the field at fault and what was wrong. */
export interface BodyProblem {
  readonly field: string;
  readonly problem: string;
}

/** Decodes parsed JSON as a body, naming the first field at fault if it does not fit. */
export const decodeBody = <S extends Schema.Top>(
  schema: S,
  json: unknown,
): Result.Result<S["Type"], BodyProblem> => {
  const decoded = Schema.decodeUnknownResult(schema as unknown as Schema.Codec<unknown, unknown>, {
    onExcessProperty: "error",
  })(json);
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success as S["Type"]);
  const first = formatIssue(decoded.failure.issue).issues[0];
  const path = (first?.path ?? []).map((k) =>
    String(typeof k === "object" ? (k as { key: unknown }).key : k),
  );
  return Result.fail({
    field: path.length === 0 ? "(body)" : path.join("."),
    problem: first?.message ?? "invalid",
  });
};
