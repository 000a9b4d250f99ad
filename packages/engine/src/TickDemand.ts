/**
 * A tick's plan for the brain, made before any phase asks: an upper bound of the calls
 * the tick may ask — by purpose and NPC, null where the NPC is not known yet — and who
 * is near the player or the camera. The brain holds its model budget for the higher
 * classes among those calls, so an early phase's low call never spends what a later
 * phase's higher call needs (TickLedger in @hearsay/mind).
 *
 * The bound, phase by phase (Tick.ts), from what is known at the tick's start — then
 * narrowed (never widened) as the tick learns who decides and who spoke:
 *   scenes closing — every witness of a scene open now, asked twice at most (a retry),
 *     one shared call per two witnesses, and every debater's share of the scene a
 *     debate opens;
 *   maintenance — a consolidation due: each NPC's groups to put together;
 *   debates due — each round's turns for at most `debateMaxParticipants`, and a summary
 *     unless the run carries it in the last turn's answer (then only a failed last turn
 *     asks it, unforeseen);
 *   turns — each NPC due to wake: a profile if it has none and a revision (unless the
 *     run carries them in the `act` answer), an `act`;
 *   conversations — per waking NPC at most one line spoken (by its answer, or by a
 *     planned step at its wake-up), so one reply and two
 *     memory extractions at most (NPC not known yet): the speaker's only when its line
 *     is answered or its answer gave no memories, the listener's only when its reply
 *     gave none — which is not known until the replies, so both are counted.
 * A call beyond the bound is still decided, and counted as unforeseen by the brain.
 */
import type { LocationId, NpcId } from "@hearsay/core";
import type { PurposeName, TickDemand, TickPlan } from "@hearsay/mind";
import { type Focus, nearnessOf } from "./Focus.ts";
import type { Spoken } from "./Reactions.ts";
import type { TickContext } from "./TickContext.ts";

/** Scene summaries are asked once more when an answer fails. */
const SUMMARY_ASKS = 2;

type Add = (purpose: PurposeName, npcId: NpcId | null, count: number) => void;

const collect = (f: (add: Add) => void): ReadonlyArray<TickDemand> => {
  const demand: Array<TickDemand> = [];
  f((purpose, npcId, count) => {
    if (count > 0) demand.push({ purpose, npcId, count });
  });
  return demand;
};

/** Every witness of a scene open now, asked at most twice. */
const sceneSummaries = (ctx: TickContext, add: Add): void => {
  for (const scene of ctx.state.narrative.open.values()) {
    for (const id of scene.participants) add("summarize_scene", id, SUMMARY_ASKS);
    add("summarize_shared_scene", null, sharedCallsAtMost(scene.participants.size));
  }
};

/** Witnesses share a summary call two or more at a time. */
const sharedCallsAtMost = (witnesses: number): number => Math.floor(witnesses / 2);

/**
 * The turns of NPCs about to decide: a profile if none yet, a revision (unless the run
 * carries it in the `act` answer), an `act`.
 */
const turns = (ctx: TickContext, ids: ReadonlyArray<NpcId>, add: Add): void => {
  const revisions = !ctx.state.carried.has("revise_profile");
  const profiles = !ctx.state.carried.has("profile");
  for (const id of new Set(ids)) {
    if (profiles && (ctx.actors.facts(id)?.profile ?? null) === null) add("profile", id, 1);
    if (revisions) add("revise_profile", id, 1);
    add("act", id, 1);
  }
};

/** Conversations when at most `lines` lines may be spoken, by whom not known yet. */
const unknownTalks = (lines: number, add: Add): void => {
  add("act", null, lines);
  add("extract_memories", null, 2 * lines);
};

/** A consolidation job due now: one call per group each NPC has to put together. */
const consolidations = (ctx: TickContext, add: Add): void => {
  if (!ctx.actors.clock.jobsDue().some(({ job }) => job === "consolidate")) return;
  for (const facts of ctx.actors.allFacts())
    add(
      "consolidate_memories",
      facts.npcId,
      ctx.actors.consolidationGroups(facts.npcId, ctx.t, ctx.config.consolidation).length,
    );
};

/** The whole tick, from what is known at its start. */
export const tickDemandOf = (ctx: TickContext): ReadonlyArray<TickDemand> =>
  collect((add) => {
    sceneSummaries(ctx, add);
    const debaters = ctx.config.debateMaxParticipants;
    for (const _ of ctx.actors.clock.debatesDue()) {
      add("debate_turn", null, ctx.config.debateRounds * debaters);
      if (!ctx.state.carried.has("summarize_debate")) add("summarize_debate", null, 1);
      add("summarize_scene", null, SUMMARY_ASKS * debaters);
      add("summarize_shared_scene", null, sharedCallsAtMost(debaters));
    }
    consolidations(ctx, add);
    if (ctx.skipping) return;
    const waking = ctx.actors.clock.wakesPending(ctx.t);
    turns(ctx, waking, add);
    unknownTalks(waking.length, add);
  });

/**
 * The rest of the tick once it is known who decides (each speaks at most one line) and
 * how many lines planned steps already spoke at their wake-ups (`planned`).
 */
export const demandAfterWakes = (
  ctx: TickContext,
  deciders: ReadonlyArray<NpcId>,
  planned = 0,
): ReadonlyArray<TickDemand> =>
  collect((add) => {
    turns(ctx, deciders, add);
    sceneSummaries(ctx, add);
    unknownTalks(new Set(deciders).size + planned, add);
  });

/**
 * The rest of the tick once the lines are spoken: scenes closing, then at most one talk
 * per line — the listener's reply and each side's memories.
 */
export const demandAfterDecisions = (
  ctx: TickContext,
  spoken: ReadonlyArray<Spoken>,
): ReadonlyArray<TickDemand> =>
  collect((add) => {
    sceneSummaries(ctx, add);
    for (const s of spoken) {
      add("act", s.to, 1);
      add("extract_memories", s.speaker, 1);
      add("extract_memories", s.to, 1);
    }
  });

/** Where every NPC is now. */
export const whereIs = (ctx: TickContext): ReadonlyMap<NpcId, LocationId> =>
  new Map([...ctx.state.npcs].map(([id, npc]) => [id, npc.locationId]));

/** The tick's plan: its demand, and who is near the focus now. */
export const tickPlanOf = (ctx: TickContext, focus: ReadonlyArray<Focus>): TickPlan => ({
  t: ctx.t,
  demand: tickDemandOf(ctx),
  near: (hops) => nearnessOf(ctx.world, whereIs(ctx), focus, hops),
});
