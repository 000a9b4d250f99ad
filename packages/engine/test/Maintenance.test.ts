/**
 * The daily maintenance job: the world clock runs it once per game day at
 * `maintenanceHour`, ticked through or skipped over, and it is the one place memories end
 * by themselves — every `expired` and `forgotten` MemoryExpired is written by it, just
 * before its MaintenanceRan, which counts them. A run resumed from its log or from a
 * snapshot, split anywhere, writes the same log.
 */
import { defaultConsolidation, defaultMemoryDecay, type MemoryDecay } from "@hearsay/actors";
import { MINUTES_PER_DAY, MINUTES_PER_HOUR, type StoredEvent } from "@hearsay/core";
import { defaultEngineConfig } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { logHash } from "./harness.ts";
import { hamlet, MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

/** Fast enough that three days forget plenty. */
const fast: MemoryDecay = {
  ...defaultMemoryDecay,
  halfLifeDays: { ...defaultMemoryDecay.halfLifeDays, observation: 0.5, scene: 0.5 },
  forgetBelow: 0.15,
};

const HOUR = 5;
// Consolidation and the index job are tested on their own (Consolidation.test.ts, IndexJob.test.ts).
const spec = {
  days: 3,
  config: {
    memoryDecay: fast,
    maintenanceHour: HOUR,
    consolidation: { ...defaultConsolidation, everyDays: 0 },
    indexJob: { ...defaultEngineConfig.indexJob, everyDays: 0 },
  },
} as const;

/** Checks the job's calendar and that it alone ends memories; returns the days it ran for. */
const checkJobs = (events: ReadonlyArray<StoredEvent>): Array<number> => {
  const days: Array<number> = [];
  let pending = { expired: 0, forgotten: 0, t: -1 };
  for (const e of events) {
    if (
      e.type === "MemoryExpired" &&
      (e.payload.reason === "expired" || e.payload.reason === "forgotten")
    ) {
      // Only a job's expiries are pending: they all lie at one time, the job's.
      if (pending.t !== -1) expect(e.t).toBe(pending.t);
      pending.t = e.t;
      pending[e.payload.reason] += 1;
    } else if (e.type === "MaintenanceRan") {
      expect(e.payload.job).toBe("daily");
      expect(e.payload.consolidated).toBe(0);
      expect({ expired: e.payload.expired, forgotten: e.payload.forgotten }).toEqual({
        expired: pending.expired,
        forgotten: pending.forgotten,
      });
      if (pending.t !== -1) expect(e.t).toBe(pending.t);
      // Run in the first tick (or skip step) at or after its hour on its day.
      const at = e.payload.day * MINUTES_PER_DAY + HOUR * MINUTES_PER_HOUR;
      expect(e.t).toBeGreaterThanOrEqual(at);
      expect(e.t - at).toBeLessThan(60);
      days.push(e.payload.day);
      pending = { expired: 0, forgotten: 0, t: -1 };
    } else if (pending.t !== -1) {
      // Nothing but the job's own lines between its expiries and its record.
      expect(e.type).toBe("MemoryExpired");
    }
  }
  expect(pending.t).toBe(-1);
  return days;
};

/** Every day from the run's first to its last whose job hour lies in (start, end]. */
const daysPassed = (events: ReadonlyArray<StoredEvent>): Array<number> => {
  const start = events[0]!.t;
  const end = events[events.length - 1]!.t;
  const out: Array<number> = [];
  for (let day = 0; day * MINUTES_PER_DAY + HOUR * MINUTES_PER_HOUR <= end; day++)
    if (day * MINUTES_PER_DAY + HOUR * MINUTES_PER_HOUR > start) out.push(day);
  return out;
};

describe("daily maintenance job", () => {
  it("runs once per day at its hour, and is the only writer of expired and forgotten memories", async () => {
    const log = memoryLog();
    const summary = await runHamlet(log, spec);
    const events = log.read(MAIN);
    const days = checkJobs(events);
    expect(days).toEqual(daysPassed(events));
    expect(days.length).toBeGreaterThanOrEqual(2);
    expect(summary.jobsRun).toEqual({ daily: days.length });
    expect(summary.memoriesGone.forgotten).toBeGreaterThan(0);
  });

  it("runs once for each day a skip passes over", async () => {
    const log = memoryLog();
    await runHamlet(log, {
      ...spec,
      days: 5,
      skips: [{ atDay: hamlet().world.meta.start.day + 1, atHour: 2, mode: "jump", days: 2 }],
    });
    const events = log.read(MAIN);
    expect(events.some((e) => e.type === "ClockAdvanced" && e.payload.mode === "jump")).toBe(true);
    expect(checkJobs(events)).toEqual(daysPassed(events));
  });

  it("a run resumed from its log or from a snapshot, split anywhere, writes the log an uninterrupted one does", async () => {
    const whole = memoryLog();
    await runHamlet(whole, spec);
    for (const maxTicks of [4, 29, 53]) {
      const split = memoryLog();
      await runHamlet(split, { ...spec, maxTicks });
      await runHamlet(split, { ...spec, resume: true });
      expect(logHash(split)).toBe(logHash(whole));
    }
    const snapped = memoryLog();
    const snaps = { ...spec, config: { ...spec.config, snapshotEveryEvents: 150 } };
    await runHamlet(snapped, { ...snaps, maxTicks: 29 });
    await runHamlet(snapped, { ...snaps, resume: true });
    expect(logHash(snapped)).toBe(logHash(whole));
  });
});
