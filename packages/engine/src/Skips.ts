/**
 * Time skips, both recorded as events.
 *
 * - `elision` finishes what every NPC is in the middle of — travellers arrive, workers
 *   finish their shift — and moves the clock to when the last of those would have ended
 *   (at most a day on).
 * - `jump` advances whole days. The world keeps happening while nobody is watched
 *   closely: every scheduled event, planned happening, task deadline, maintenance job,
 *   task seed, scene close, debate, world memory and thread rule in the skipped span runs in order, tick by tick;
 *   NPC turns do not. At the end every NPC finishes what it was doing and wakes at the
 *   new time.
 *
 * Where a skip ends and its steps are the world clock's (`skipEnd`, `nextStep` in
 * @hearsay/actors); this module does the world's work in each step.
 */
import type { SkipMode } from "@hearsay/actors";

export type { SkipMode };

import { holdDebates } from "./Debates.ts";
import { announceScheduled } from "./Happenings.ts";
import { runMaintenanceDue } from "./Maintenance.ts";
import { capMemories, reinforceMemories } from "./Memories.ts";
import { runPlannedHappenings } from "./PlannedHappenings.ts";
import { noReactions, react } from "./Reactions.ts";
import { closeScenes } from "./Scenes.ts";
import { expireTasks, proposeSeeds } from "./Tasks.ts";
import { tendThreads } from "./Threads.ts";
import type { TickContext } from "./TickContext.ts";
import { tickPlanOf } from "./TickDemand.ts";
import { rememberWorldChanges } from "./WorldMemories.ts";

/**
 * Carries out the skip the clock has started (`clock.skip`): runs the world-level steps
 * of each step the clock hands out, ends the skip on the clock, then finishes every NPC's
 * activity at the skip's end. `ctx.from`/`ctx.t` are the skip's span.
 */
export const runSkip = async (ctx: TickContext, mode: SkipMode): Promise<void> => {
  const clock = ctx.actors.clock;
  for (let span = clock.step(); span !== null; span = clock.step()) {
    const step: TickContext = { ...ctx, from: span.from, t: span.to, skipping: true };
    ctx.writer.advanceTo(span.to);
    announceScheduled(step);
    runPlannedHappenings(step);
    expireTasks(step);
    await runMaintenanceDue(step);
    proposeSeeds(step);
    step.brain.beginTick(() => tickPlanOf(step, step.focus ?? []));
    try {
      await closeScenes(step);
      await holdDebates(step);
    } finally {
      step.brain.endTick();
    }
    rememberWorldChanges(step);
    tendThreads(step);
    capMemories(step, step.writer.memoryOwners() as never);
  }
  clock.skipDone();
  ctx.writer.advanceTo(ctx.t);
  for (const id of [...ctx.state.npcs.keys()].sort()) {
    react(ctx, id, ctx.actors.send(id, { type: "ELIDE", t: ctx.t }), noReactions());
  }
  tendThreads(ctx);
  // Every batch ends with what was read consumed, so no read outlives the batch (a
  // resume starts with none).
  reinforceMemories(ctx);
  ctx.writer.emit("ClockAdvanced", { from: ctx.from, to: ctx.t, mode });
};
