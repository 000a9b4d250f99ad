/**
 * Planned-happening events (issue 8's scoped events): a feast, a raid, a market day with
 * a lifecycle, preconditions and props of its own. Props live and die with their
 * happening: when it closes only three things outlast it — objects acquired (the
 * holder's inventory), knowledge gained, relationship changes — and everything else
 * stays in the closed happening's record. The legal moves are `happeningMoves`.
 */
import { Schema } from "effect";
import { GameTime } from "../GameTime.ts";
import { FactionId, LocationId, NpcId } from "../ids.ts";
import { Visibility } from "../Visibility.ts";
import { HappeningId } from "../World.ts";
import { defineEvent, Text } from "./defineEvent.ts";

export const HappeningStatus = Schema.Literals([
  "planned",
  "active",
  "completed",
  "cancelled",
  "expired",
]);
export type HappeningStatus = typeof HappeningStatus.Type;

/**
 * The legal moves, in one place:
 *
 *   planned ──▶ active ──▶ completed | cancelled
 *      └──────▶ cancelled (a precondition that cannot hold) | expired (nobody came in time)
 */
export const happeningMoves: Readonly<Record<HappeningStatus, ReadonlyArray<HappeningStatus>>> = {
  planned: ["active", "cancelled", "expired"],
  active: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
  expired: [],
};

/** Whether a happening may move from one status to another. */
export const canMoveHappening = (from: HappeningStatus, to: HappeningStatus): boolean =>
  happeningMoves[from].includes(to);

export const HappeningPlanned = defineEvent("HappeningPlanned", 1, {
  happeningId: HappeningId,
  name: Schema.String,
  kind: Schema.String,
  description: Text,
  locationId: LocationId,
  factionId: Schema.NullOr(FactionId),
  hostId: Schema.NullOr(NpcId),
  visibility: Visibility,
  startsAt: GameTime,
  endsAt: GameTime,
});

export const HappeningStatusChanged = defineEvent("HappeningStatusChanged", 1, {
  happeningId: HappeningId,
  from: HappeningStatus,
  to: HappeningStatus,
  reason: Schema.String,
  /** Who was there at the move, in id order (empty when nobody was). */
  attendees: Schema.Array(NpcId),
});

/** A prop comes into being with its happening (when it becomes active). */
export const PropIntroduced = defineEvent("PropIntroduced", 1, {
  happeningId: HappeningId,
  propId: Schema.String,
  name: Schema.String,
  description: Text,
  /** Whether an attendee may carry it off (only such props can outlast the happening). */
  acquirable: Schema.Boolean,
});

/** An attendee takes a prop; it becomes the NPC's own when the happening completes. */
export const PropAcquired = defineEvent("PropAcquired", 1, {
  happeningId: HappeningId,
  propId: Schema.String,
  npcId: NpcId,
});
