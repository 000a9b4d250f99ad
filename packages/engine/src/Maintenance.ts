/**
 * The maintenance jobs the world clock schedules (its job calendar, `jobCalendar` in
 * @hearsay/actors), each recorded as a `MaintenanceRan` the clock folds, so a job runs
 * once per game day, live, skipped over or resumed.
 *
 * The daily job is the one place memories end by themselves: every NPC whose next
 * memory end is due (the actors' expiry schedule) asks its own actor what ran out
 * (`expired`) or faded below the threshold (`forgotten`). Nothing else emits those
 * reasons, so two steps can never disagree about when a memory goes. Reads already hide
 * a memory from the minute its lifetime ends (`expiresAt`), so ending it at the next
 * daily job changes no dossier; a faded one stays readable until the job forgets it.
 */
import type { MaintenanceJob } from "@hearsay/core";
import { runConsolidation } from "./Consolidation.ts";
import type { TickContext } from "./TickContext.ts";

/** What one job did, for a run's summary. */
export interface JobCounts {
  readonly job: MaintenanceJob;
  readonly day: number;
  readonly expired: number;
  readonly forgotten: number;
  readonly consolidated: number;
}

/**
 * The daily maintenance job for game day `day`, at the context's time: a MemoryExpired
 * for every memory that ran out (`expired`) or faded below `memoryDecay.forgetBelow`
 * (`forgotten`) by `ctx.t`, in memory id order, then the job's `MaintenanceRan`. A time
 * skip's step calls it through `runMaintenanceDue` like a tick does; a jump that moves
 * the clock straight on can call it once for the day it lands on.
 */
export const runDailyMaintenance = (ctx: TickContext, day: number): JobCounts => {
  let expired = 0;
  let forgotten = 0;
  for (const { memoryId, owner, reason } of ctx.actors.expired(ctx.t)) {
    ctx.writer.emit("MemoryExpired", { memoryId, ownerNpcId: owner, reason });
    if (reason === "expired") expired += 1;
    else forgotten += 1;
  }
  ctx.writer.emit("MaintenanceRan", { job: "daily", day, expired, forgotten, consolidated: 0 });
  return { job: "daily", day, expired, forgotten, consolidated: 0 };
};

/**
 * The index job for game day `day`: its `MaintenanceRan` (all counts 0, so the log is the
 * same whatever the disk holds), and the dossier source writes its index files if they
 * fell behind (`IndexKeeper`) — a side effect no dossier sees, skipped in memory.
 */
export const runIndexMaintenance = (ctx: TickContext, day: number): JobCounts => {
  ctx.dossiers.keepIndex?.(ctx.config.indexJob);
  ctx.writer.emit("MaintenanceRan", {
    job: "index",
    day,
    expired: 0,
    forgotten: 0,
    consolidated: 0,
  });
  return { job: "index", day, expired: 0, forgotten: 0, consolidated: 0 };
};

/** Runs one job. */
const runJob = async (ctx: TickContext, job: MaintenanceJob, day: number): Promise<JobCounts> => {
  switch (job) {
    case "daily":
      return runDailyMaintenance(ctx, day);
    case "consolidate":
      return runConsolidation(ctx, day);
    case "index":
      return runIndexMaintenance(ctx, day);
  }
};

/**
 * Runs the jobs the world clock says are due in this tick (or skip step), in its order
 * (by day, then the daily job before consolidation, so nothing is put together that the
 * day's job forgets, and the index job last).
 */
export const runMaintenanceDue = async (ctx: TickContext): Promise<ReadonlyArray<JobCounts>> => {
  const done: Array<JobCounts> = [];
  for (const { job, day } of ctx.actors.clock.jobsDue()) {
    const run = () => runJob(ctx, job, day);
    done.push(await (ctx.aroundJob === undefined ? run() : ctx.aroundJob(job, run)));
  }
  return done;
};
