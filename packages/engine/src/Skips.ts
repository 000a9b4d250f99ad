/**
 * Time skips, both recorded as events.
 *
 * - `elision` finishes what every NPC is in the middle of — travellers arrive, workers
 *   finish their shift — and moves the clock to when the last of those would have ended
 *   (at most a day on).
 * - `jump` advances whole days. The world keeps happening while nobody is watched
 *   closely: every scheduled event, planned happening, task deadline, memory expiry,
 *   task seed, scene close, debate, world memory and thread rule in the skipped span runs in order, tick by tick;
 *   NPC turns do not. At the end every NPC finishes what it was doing and wakes at the
 *   new time.
 */
import { type GameTime, MINUTES_PER_DAY } from "@hearsay/core";
import { holdDebates } from "./Debates.ts";
import { announceScheduled } from "./Happenings.ts";
import { capMemories, expireMemories } from "./Memories.ts";
import { runPlannedHappenings } from "./PlannedHappenings.ts";
import { noReactions, react } from "./Reactions.ts";
import { closeScenes } from "./Scenes.ts";
import { expireTasks, proposeSeeds } from "./Tasks.ts";
import { tendThreads } from "./Threads.ts";
import type { TickContext } from "./TickContext.ts";
import { rememberWorldChanges } from "./WorldMemories.ts";

export type SkipMode = "elision" | "jump";

/** When an elision from `t` ends: the latest end of an activity in progress, within a day. */
export const elisionEnd = (ctx: Pick<TickContext, "state">, t: GameTime): GameTime => {
  let end = t;
  for (const npc of ctx.state.npcs.values()) {
    if (npc.activity === "asleep" || npc.until === null) continue;
    if (npc.until > end) end = npc.until;
  }
  return Math.min(end, t + MINUTES_PER_DAY) as GameTime;
};

/**
 * Runs the world-level steps of every tick in (from, to] and then finishes every NPC's
 * activity at `to`. `ctx.from`/`ctx.t` are the skip's span; `tickMinutes` steps it.
 */
export const runSkip = async (
  ctx: TickContext,
  mode: SkipMode,
  tickMinutes: number,
): Promise<void> => {
  for (let from = ctx.from; from < ctx.t; ) {
    const at = Math.min(from + tickMinutes, ctx.t) as GameTime;
    const step: TickContext = { ...ctx, from: from as GameTime, t: at, skipping: true };
    ctx.writer.advanceTo(at);
    announceScheduled(step);
    runPlannedHappenings(step);
    expireTasks(step);
    expireMemories(step);
    proposeSeeds(step);
    await closeScenes(step);
    await holdDebates(step);
    rememberWorldChanges(step);
    tendThreads(step);
    capMemories(step, step.writer.memoryOwners() as never);
    from = at;
  }
  ctx.writer.advanceTo(ctx.t);
  for (const id of [...ctx.state.npcs.keys()].sort()) {
    react(ctx, id, ctx.actors.send(id, { type: "ELIDE", t: ctx.t }), noReactions());
  }
  tendThreads(ctx);
  ctx.writer.emit("ClockAdvanced", { from: ctx.from, to: ctx.t, mode });
};
