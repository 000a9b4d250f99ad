/**
 * The shape every event shares. An event is a past-tense fact: a `type` tag, the schema
 * `version` it was written with, a stable `id` (appending the same id twice stores it
 * once), the game time `t` it happened at, and a `payload`. The store adds `seq`,
 * `saveId` and `campaignId` when it appends.
 */
import { Schema } from "effect";
import { GameTime } from "../GameTime.ts";
import { EventId } from "../ids.ts";

export const defineEvent = <
  const Type extends string,
  const Version extends number,
  const Fields extends Schema.Struct.Fields,
>(
  type: Type,
  version: Version,
  fields: Fields,
) =>
  Schema.Struct({
    type: Schema.tag(type),
    version: Schema.Literal(version),
    id: EventId,
    t: GameTime,
    payload: Schema.Struct(fields),
  });

/** 0..1, for importance, confidence and the like. */
export const Unit = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }));

/** Free text bounded so one bad answer cannot bloat the log. */
export const Text = Schema.String.check(Schema.isMaxLength(20_000));
