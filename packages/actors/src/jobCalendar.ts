/**
 * When the maintenance jobs come due: a job falls at its hour on every game day that is
 * a multiple of its `everyDays` (every day, by default), and it is due in a tick (or a skip's step) when that moment lies in the span (from, t] and the
 * job has not yet run for that day. What ran is the clock's schedule (`jobsRun`, folded
 * from `MaintenanceRan`), so a job runs exactly once per day whether the day is ticked
 * through, skipped over or resumed into, and never for a day a run began after.
 */
import {
  type GameTime,
  type MaintenanceJob,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
} from "@hearsay/core";

export interface JobSpec {
  readonly job: MaintenanceJob;
  /** The hour of the day it runs at (fractional hours are minutes). */
  readonly hour: number;
  /** It falls on the days that are multiples of this (default 1: every day). */
  readonly everyDays?: number;
}

export interface DueJob {
  readonly job: MaintenanceJob;
  readonly day: number;
}

/** The moment `spec` falls on `day`, in game minutes. */
export const jobAt = (spec: JobSpec, day: number): GameTime =>
  (day * MINUTES_PER_DAY + Math.round(spec.hour * MINUTES_PER_HOUR)) as GameTime;

/**
 * The jobs due in (from, t], by day then job (in `specs` order), leaving out days each
 * job already ran for (`ran`: the last day it ran for).
 */
export const dueJobs = (
  specs: ReadonlyArray<JobSpec>,
  from: GameTime,
  t: GameTime,
  ran: ReadonlyMap<MaintenanceJob, number>,
): ReadonlyArray<DueJob> => {
  const out: Array<DueJob> = [];
  const firstDay = Math.floor(from / MINUTES_PER_DAY) - 1;
  const lastDay = Math.floor(t / MINUTES_PER_DAY);
  for (let day = Math.max(0, firstDay); day <= lastDay; day++) {
    for (const spec of specs) {
      if (day % Math.max(1, spec.everyDays ?? 1) !== 0) continue;
      const at = jobAt(spec, day);
      if (at <= from || at > t) continue;
      const last = ran.get(spec.job);
      if (last === undefined || day > last) out.push({ job: spec.job, day });
    }
  }
  return out;
};
