/**
 * How a replay knows the way the run went: segments at each RunResumed, and legs that
 * reproduce every Checkpoint where the run wrote it — even when the run was resumed with
 * another checkpoint interval (which leaves no other trace) or skipped time.
 */
import { ids } from "@hearsay/core";
import { planLegs, readRunPlan, verifyLog } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hamlet, MAIN, memoryLog, runHamlet } from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

/** Tick indexes a run writes Checkpoints at, given its legs (interval, first and last tick). */
const written = (legs: ReadonlyArray<{ every: number; from: number; to: number }>): Array<number> =>
  legs.flatMap(({ every, from, to }) => {
    const out: Array<number> = [];
    for (let k = Math.max(1, from); k <= to; k++) if (every > 0 && k % every === 0) out.push(k);
    return out;
  });

describe("planLegs", () => {
  it("reproduces the checkpoints of any history of intervals, resumed at any ticks", () => {
    const history = fc
      .array(
        fc.record({
          every: fc.integer({ min: 0, max: 9 }),
          ticks: fc.integer({ min: 1, max: 30 }),
        }),
        {
          minLength: 1,
          maxLength: 6,
        },
      )
      .map((parts) => {
        let from = 1;
        return parts.map(({ every, ticks }) => {
          const leg = { every, from, to: from + ticks - 1 };
          from += ticks;
          return leg;
        });
      });
    fc.assert(
      fc.property(history, (legs) => {
        const last = legs[legs.length - 1]!.to;
        // One batch per tick, seq = tick index, so a checkpoint's tick ends at seq = index.
        const cps = written(legs).map((index) => ({ index, batchEnd: index }));
        const plan = planLegs(cps, 1, last, last);
        expect(plan[plan.length - 1]!.endSeq).toBe(last);
        let from = 1;
        const replayed = plan.map((leg) => {
          const l = { every: leg.everyTicks, from, to: leg.endSeq };
          from = leg.endSeq + 1;
          return l;
        });
        expect(written(replayed)).toEqual(cps.map((c) => c.index));
        // A constant cadence is a single leg.
        if (legs.every((l) => l.every === legs[0]!.every))
          expect(plan.length).toBeLessThanOrEqual(2);
      }),
      runs(300),
    );
  });
});

describe("a run resumed with another checkpoint interval, or skipping time", () => {
  it("verifies: its checkpoints are written again exactly where they were", async () => {
    const log = memoryLog();
    await runHamlet(log, { config: { checkpointEveryTicks: 6 }, maxTicks: 20 });
    await runHamlet(log, { resume: true, config: { checkpointEveryTicks: 4 }, maxTicks: 15 });
    await runHamlet(log, { resume: true, config: { checkpointEveryTicks: 0 } });
    const plan = readRunPlan(log, MAIN);
    expect(plan.segments).toHaveLength(1);
    expect(plan.segments[0]!.legs.map((l) => l.everyTicks)).toEqual([6, 4, 0]);
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence).toBeNull();
    expect(report.checkpoints).toBe(plan.checkpoints);
  });

  it("verifies a run with a jump and an elision; the plan reads both skips off the log", async () => {
    const log = memoryLog();
    const skips = [
      { atDay: 1, atHour: 10, mode: "jump" as const, days: 1 },
      { atDay: 2, atHour: 15, mode: "elision" as const },
    ];
    await runHamlet(log, { days: 4, skips, config: { checkpointEveryTicks: 5 } });
    const plan = readRunPlan(log, ids.save("main"));
    // An elision is planned with the span it took, so its replay ends where it ended.
    const elided = log
      .read(MAIN)
      .find((e) => e.type === "ClockAdvanced" && e.payload.mode === "elision");
    if (elided?.type !== "ClockAdvanced") throw new Error("the run made no elision");
    const span = elided.payload.to - elided.payload.from;
    expect(span).toBeGreaterThan(0);
    expect(plan.skips).toEqual([
      { atDay: 1, atHour: 10, mode: "jump", days: 1 },
      { atDay: 2, atHour: 15, mode: "elision", days: span / 1440 },
    ]);
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence).toBeNull();
  });

  it("verifies elisions of a span asked for (whole days and fractions of one)", async () => {
    const log = memoryLog();
    const skips = [
      { atDay: 1, atHour: 6, mode: "elision" as const, days: 300 / 1440 },
      { atDay: 2, atHour: 0, mode: "elision" as const, days: 1 },
    ];
    await runHamlet(log, { days: 5, skips, config: { checkpointEveryTicks: 5 } });
    const spans = log
      .read(MAIN)
      .flatMap((e) =>
        e.type === "ClockAdvanced" && e.payload.mode === "elision"
          ? [e.payload.to - e.payload.from]
          : [],
      );
    expect(spans).toEqual([300, 1440]);
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence).toBeNull();
  });
});
