/**
 * One tick, in a fixed order (the order is part of what makes a run reproducible):
 *
 *   scheduled world events → task deadlines → memory expiries → task seeds → debates
 *   → wake-ups due now → decisions → conversations → memory caps → ClockAdvanced
 *
 * Every step writes through the tick's writer; the engine appends the lot in one
 * transaction, so after a crash the log ends at a whole tick.
 */
import type { NpcId } from "@hearsay/core";
import { runConversations } from "./Conversations.ts";
import { holdDebates } from "./Debates.ts";
import { announceScheduled } from "./Happenings.ts";
import { capMemories, expireMemories } from "./Memories.ts";
import { noReactions } from "./Reactions.ts";
import { expireTasks, proposeSeeds } from "./Tasks.ts";
import type { TickContext } from "./TickContext.ts";
import { decide, wakeDue } from "./Turns.ts";

export const runTick = async (ctx: TickContext): Promise<void> => {
  announceScheduled(ctx);
  expireTasks(ctx);
  expireMemories(ctx);
  proposeSeeds(ctx);
  await holdDebates(ctx);
  const reactions = noReactions();
  wakeDue(ctx, reactions);
  await decide(ctx, reactions.decide, reactions);
  await runConversations(ctx, reactions.spoken);
  capMemories(ctx, ctx.writer.memoryOwners() as ReadonlyArray<NpcId>);
  ctx.writer.emit("ClockAdvanced", { from: ctx.from, to: ctx.t, mode: "tick" });
};
