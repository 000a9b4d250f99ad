/**
 * A tick's plan for the brain, made before any phase asks: an upper bound of the calls
 * the tick may ask — by purpose and NPC, null where the NPC is not known yet — and who
 * is near the player or the camera. The brain holds its model budget for the higher
 * classes among those calls, so an early phase's low call never spends what a later
 * phase's higher call needs (TickLedger in @hearsay/mind).
 *
 * The bound, phase by phase (Tick.ts), from what is known at the tick's start:
 *   scenes closing — every witness of a scene open now, asked twice at most (a retry),
 *     and every debater's share of the scene a debate opens;
 *   debates due — each round's turns for at most `debateMaxParticipants`, and a summary;
 *   turns — each NPC due to wake: a profile if it has none, a revision, an `act`;
 *   conversations — per waking NPC at most one line spoken, so one reply and two
 *     memory extractions (NPC not known yet).
 * A call beyond the bound is still decided, and counted as unforeseen by the brain.
 */
import type { LocationId, NpcId } from "@hearsay/core";
import type { PurposeName, TickDemand, TickPlan } from "@hearsay/mind";
import { type Focus, nearnessOf } from "./Focus.ts";
import type { TickContext } from "./TickContext.ts";

/** Scene summaries are asked once more when an answer fails. */
const SUMMARY_ASKS = 2;

export const tickDemandOf = (ctx: TickContext): ReadonlyArray<TickDemand> => {
  const demand: Array<TickDemand> = [];
  const add = (purpose: PurposeName, npcId: NpcId | null, count: number) => {
    if (count > 0) demand.push({ purpose, npcId, count });
  };
  for (const scene of ctx.state.narrative.open.values())
    for (const id of scene.participants) add("summarize_scene", id, SUMMARY_ASKS);
  const debaters = ctx.config.debateMaxParticipants;
  for (const _ of ctx.actors.clock.debatesDue()) {
    add("debate_turn", null, ctx.config.debateRounds * debaters);
    add("summarize_debate", null, 1);
    add("summarize_scene", null, SUMMARY_ASKS * debaters);
  }
  if (ctx.skipping) return demand;
  const waking = ctx.actors.clock.wakesPending(ctx.t);
  for (const id of waking) {
    if ((ctx.actors.facts(id)?.profile ?? null) === null) add("profile", id, 1);
    add("revise_profile", id, 1);
    add("act", id, 1);
  }
  add("act", null, waking.length);
  add("extract_memories", null, 2 * waking.length);
  return demand;
};

/** Where every NPC is now. */
export const whereIs = (ctx: TickContext): ReadonlyMap<NpcId, LocationId> =>
  new Map([...ctx.state.npcs].map(([id, npc]) => [id, npc.locationId]));

/** The tick's plan: its demand, and who is near the focus now. */
export const tickPlanOf = (ctx: TickContext, focus: ReadonlyArray<Focus>): TickPlan => ({
  t: ctx.t,
  demand: tickDemandOf(ctx),
  near: (hops) => nearnessOf(ctx.world, whereIs(ctx), focus, hops),
});
