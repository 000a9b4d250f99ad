/**
 * Time skips, both recorded as events.
 *
 * - `elision` finishes what every NPC is in the middle of — travellers arrive, workers
 *   finish their shift — and moves the clock to when the last of those would have ended
 *   (at most a day on). The world keeps happening meanwhile: every scheduled event,
 *   planned happening, task deadline, maintenance job, task seed, scene close, debate,
 *   world memory and thread rule in the skipped span runs in order, tick by tick; NPC
 *   turns do not. At the end every NPC finishes what it was doing and wakes at the new
 *   time.
 * - `jump` moves the clock across whole days and applies only what time alone decides,
 *   tick by tick: task deadlines (and what an expired task leaves — its memories, its
 *   question thread dropped), the maintenance jobs due (the daily job's memory expiry and
 *   forgetting by decay — the one place memories end — and consolidation), caps on what those add, and threads
 *   left unmentioned too long. Nothing else happens: no turns, no talk, no scheduled or
 *   planned happenings, no debates, no task seeds, no scene closes; NPCs stand where
 *   they were and take up what they were doing at the first tick after. World events
 *   lapse by themselves (their `lapsesAt`), so a jump needs write nothing for them.
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
  if (mode === "jump") return runJump(ctx);
  const clock = ctx.actors.clock;
  for (let span = clock.step(); span !== null; span = clock.step()) {
    const step: TickContext = { ...ctx, from: span.from, t: span.to, skipping: true };
    ctx.writer.advanceTo(span.to);
    announceScheduled(step);
    runPlannedHappenings(step);
    expireTasks(step);
    step.brain.beginTick(() => tickPlanOf(step, step.focus ?? []));
    try {
      await runMaintenanceDue(step);
      proposeSeeds(step);
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

/**
 * A jump (see the module comment): each step applies deadlines, expiries and decay, and
 * nothing else; the NPCs are not woken at its end.
 */
const runJump = async (ctx: TickContext): Promise<void> => {
  const clock = ctx.actors.clock;
  for (let span = clock.step(); span !== null; span = clock.step()) {
    const step: TickContext = { ...ctx, from: span.from, t: span.to, skipping: true };
    ctx.writer.advanceTo(span.to);
    await timeAlone(step);
  }
  clock.skipDone();
  ctx.writer.advanceTo(ctx.t);
  reinforceMemories(ctx);
  ctx.writer.emit("ClockAdvanced", { from: ctx.from, to: ctx.t, mode: "jump" });
};

/**
 * What time alone decides in one step of a jump, in the order a tick decides it. The
 * maintenance jobs are the memory upkeep a day brings (expiry, forgetting by decay, the
 * consolidation of faded memories), run by the same job a tick runs.
 */
const timeAlone = async (step: TickContext): Promise<void> => {
  expireTasks(step);
  step.brain.beginTick(() => tickPlanOf(step, step.focus ?? []));
  try {
    await runMaintenanceDue(step);
  } finally {
    step.brain.endTick();
  }
  tendThreads(step);
  capMemories(step, step.writer.memoryOwners() as never);
};
