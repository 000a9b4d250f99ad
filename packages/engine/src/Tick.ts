/**
 * One tick, in a fixed order (the order is part of what makes a run reproducible):
 *
 *   scheduled world events → planned happenings → task deadlines → maintenance jobs due
 *   → task seeds → scenes closed → debates → wake-ups due now → decisions → scenes
 *   closed → conversations → world memories → threads → memories read reinforced
 *   → memory caps → ClockAdvanced
 *
 * Scenes close twice: before debates and before conversations, so every exchange joins
 * a scene nobody has left yet (departures happen in wake-ups and decisions).
 *
 * The brain is told the tick's plan first (TickDemand.ts): a bound of the calls its
 * steps may ask, narrowed once it is known who decides and who spoke, so its model
 * budget goes to the tick's highest classes wherever in the tick they ask.
 *
 * Every step writes through the tick's writer; the engine appends the lot in one
 * transaction, so after a crash the log ends at a whole tick. What is due — the tick
 * itself, its debates, who wakes — the world clock says; the steps do it.
 */
import type { NpcId } from "@hearsay/core";
import { runConversations } from "./Conversations.ts";
import { holdDebates } from "./Debates.ts";
import { announceScheduled } from "./Happenings.ts";
import { runMaintenanceDue } from "./Maintenance.ts";
import { capMemories, reinforceMemories } from "./Memories.ts";
import { runPlannedHappenings } from "./PlannedHappenings.ts";
import { noReactions } from "./Reactions.ts";
import { closeScenes } from "./Scenes.ts";
import { expireTasks, proposeSeeds } from "./Tasks.ts";
import { tendThreads } from "./Threads.ts";
import type { TickContext } from "./TickContext.ts";
import { demandAfterDecisions, demandAfterWakes, tickPlanOf } from "./TickDemand.ts";
import { decide, wakeDue } from "./Turns.ts";
import { rememberWorldChanges } from "./WorldMemories.ts";

export const runTick = async (ctx: TickContext): Promise<void> => {
  ctx.brain.beginTick(() => tickPlanOf(ctx, ctx.focus ?? []));
  try {
    await steps(ctx);
  } finally {
    ctx.brain.endTick();
  }
};

const steps = async (ctx: TickContext): Promise<void> => {
  announceScheduled(ctx);
  runPlannedHappenings(ctx);
  expireTasks(ctx);
  await runMaintenanceDue(ctx);
  proposeSeeds(ctx);
  await closeScenes(ctx);
  await holdDebates(ctx);
  const reactions = noReactions();
  wakeDue(ctx, ctx.actors.clock.wakesDue(), reactions);
  ctx.brain.reviseTick(() => demandAfterWakes(ctx, reactions.decide, reactions.spoken.length));
  await decide(ctx, reactions.decide, reactions);
  ctx.brain.reviseTick(() => demandAfterDecisions(ctx, reactions.spoken));
  await closeScenes(ctx);
  await runConversations(ctx, reactions.spoken);
  rememberWorldChanges(ctx);
  tendThreads(ctx);
  reinforceMemories(ctx);
  capMemories(ctx, ctx.writer.memoryOwners() as ReadonlyArray<NpcId>);
  ctx.writer.emit("ClockAdvanced", { from: ctx.from, to: ctx.t, mode: "tick" });
};
