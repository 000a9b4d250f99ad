/**
 * Game time laws: a time is whole minutes since day 0, days and hours are views of it,
 * and the arithmetic on it never leaves the non-negative integers.
 */
import {
  addDays,
  addMinutes,
  dayOf,
  formatGameTime,
  GameTime,
  gameTime,
  hourOf,
  Lifetime,
  lifetimeMinutes,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  startOfDay,
} from "@hearsay/core";
import { Schema } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

/** Times up to ~190 years of game minutes: far beyond any run, well inside safe integers. */
const arbTime = fc.integer({ min: 0, max: 100_000_000 }).map((n) => n as GameTime);
const arbDay = fc.integer({ min: 0, max: 69_000 });
const arbHour = fc.integer({ min: 0, max: 23 });
const arbMinute = fc.integer({ min: 0, max: 59 });

describe("GameTime", () => {
  it("has 60 minutes an hour and 1,440 a day", () => {
    expect(MINUTES_PER_HOUR).toBe(60);
    expect(MINUTES_PER_DAY).toBe(1440);
    expect(gameTime(0)).toBe(0);
    expect(gameTime(1)).toBe(1440);
    expect(gameTime(3, 14, 5)).toBe(3 * 1440 + 14 * 60 + 5);
    expect(startOfDay(2)).toBe(2880);
  });

  it("property: gameTime(day, hour, minute) reads back as that day and hour", () => {
    fc.assert(
      fc.property(arbDay, arbHour, arbMinute, (d, h, m) => {
        const t = gameTime(d, h, m);
        expect(dayOf(t)).toBe(d);
        expect(hourOf(t)).toBe(h);
        expect(t % MINUTES_PER_HOUR).toBe(m);
      }),
      runs(200),
    );
  });

  it("property: a time is rebuilt exactly from its day, hour and minute", () => {
    fc.assert(
      fc.property(arbTime, (t) => {
        expect(gameTime(dayOf(t), hourOf(t), t % MINUTES_PER_HOUR)).toBe(t);
        expect(hourOf(t)).toBeGreaterThanOrEqual(0);
        expect(hourOf(t)).toBeLessThanOrEqual(23);
        expect(startOfDay(dayOf(t))).toBeLessThanOrEqual(t);
        expect(t).toBeLessThan(startOfDay(dayOf(t) + 1));
      }),
      runs(200),
    );
  });

  it("property: dayOf and hourOf are monotone in t", () => {
    fc.assert(
      fc.property(arbTime, arbTime, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(dayOf(lo)).toBeLessThanOrEqual(dayOf(hi));
        if (dayOf(lo) === dayOf(hi)) expect(hourOf(lo)).toBeLessThanOrEqual(hourOf(hi));
      }),
      runs(200),
    );
  });

  it("property: addMinutes is addition for non-negative results, and composes", () => {
    fc.assert(
      fc.property(
        arbTime,
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (t, a, b) => {
          expect(addMinutes(t, a)).toBe(t + a);
          expect(addMinutes(addMinutes(t, a), b)).toBe(addMinutes(t, a + b));
          expect(addMinutes(addMinutes(t, a), -a)).toBe(t);
          expect(addMinutes(t, 0)).toBe(t);
        },
      ),
      runs(200),
    );
  });

  it("property: addMinutes clamps at minute 0 and drops fractions toward zero", () => {
    fc.assert(
      fc.property(arbTime, fc.integer({ min: 1, max: 200_000_000 }), (t, back) => {
        const r = addMinutes(t, -back);
        expect(r).toBe(Math.max(0, t - back));
        expect(r).toBeGreaterThanOrEqual(0);
      }),
      runs(200),
    );
    expect(addMinutes(10 as GameTime, 2.9)).toBe(12);
    expect(addMinutes(10 as GameTime, -2.9)).toBe(8);
    expect(Number.isInteger(addMinutes(0 as GameTime, 0.5))).toBe(true);
  });

  it("property: addDays moves the day and keeps the time of day", () => {
    fc.assert(
      fc.property(arbTime, fc.integer({ min: 0, max: 10_000 }), (t, n) => {
        const r = addDays(t, n);
        expect(r).toBe(t + n * MINUTES_PER_DAY);
        expect(dayOf(r)).toBe(dayOf(t) + n);
        expect(hourOf(r)).toBe(hourOf(t));
        expect(r % MINUTES_PER_HOUR).toBe(t % MINUTES_PER_HOUR);
        expect(addDays(r, -n)).toBe(t);
      }),
      runs(200),
    );
    expect(addDays(gameTime(1, 5), -3)).toBe(0);
  });

  it("property: formatGameTime is `day D, HH:MM` with the day, hour and minute of t", () => {
    fc.assert(
      fc.property(arbTime, (t) => {
        const text = formatGameTime(t);
        const m = /^day (\d+), (\d{2}):(\d{2})$/.exec(text);
        expect(m, text).not.toBeNull();
        expect(Number(m![1])).toBe(dayOf(t));
        expect(Number(m![2])).toBe(hourOf(t));
        expect(Number(m![3])).toBe(t % MINUTES_PER_HOUR);
      }),
      runs(200),
    );
    expect(formatGameTime(gameTime(3, 14, 5))).toBe("day 3, 14:05");
    expect(formatGameTime(0 as GameTime)).toBe("day 0, 00:00");
    expect(formatGameTime(gameTime(12, 23, 59))).toBe("day 12, 23:59");
  });

  it("lifetimes are whole days in minutes, and permanent is null", () => {
    expect(lifetimeMinutes("1d")).toBe(1440);
    expect(lifetimeMinutes("3d")).toBe(3 * 1440);
    expect(lifetimeMinutes("7d")).toBe(7 * 1440);
    expect(lifetimeMinutes("30d")).toBe(30 * 1440);
    expect(lifetimeMinutes("permanent")).toBeNull();
    for (const l of Lifetime.literals) {
      const m = lifetimeMinutes(l);
      if (l === "permanent") continue;
      expect(m! % MINUTES_PER_DAY, l).toBe(0);
      expect(dayOf(addMinutes(0 as GameTime, m!))).toBe(Number.parseInt(l, 10));
    }
  });

  it("the GameTime schema accepts whole non-negative minutes only", () => {
    const decode = Schema.decodeUnknownExit(GameTime);
    expect(decode(0)._tag).toBe("Success");
    expect(decode(90_000)._tag).toBe("Success");
    expect(decode(-1)._tag).toBe("Failure");
    expect(decode(1.5)._tag).toBe("Failure");
    expect(decode("10")._tag).toBe("Failure");
    expect(decode(Number.NaN)._tag).toBe("Failure");
  });
});
