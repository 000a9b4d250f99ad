/**
 * Moving one NPC's regard for another: the only way the engine changes an NPC↔NPC edge
 * after the world's start, and always with the reason a brain (or a rule over what was
 * said or done) gave for it.
 */
import { type NpcId, type RegardShift, shiftRegard } from "@hearsay/core";
import type { TickContext } from "./TickContext.ts";

const NO_REGARD = { trust: 0, respect: 0, suspicion: 0, summary: "" };

/**
 * Moves `from`'s regard for `to` by `shift`, recorded with its reason. A first edge gets
 * `firstSummary` (else "Has talked with …") as its one-line summary.
 */
export const moveRegard = (
  ctx: TickContext,
  from: NpcId,
  to: NpcId,
  shift: RegardShift,
  firstSummary = `Has talked with ${ctx.names.npcName(to)}.`,
): void => {
  const prior = ctx.actors.regard(from, to) ?? NO_REGARD;
  ctx.writer.emit("RelationshipChanged", {
    fromId: from,
    toId: to,
    ...shiftRegard(prior, shift),
    summary: prior.summary === "" ? firstSummary : prior.summary,
    reason: shift.reason.slice(0, 300),
  });
};
