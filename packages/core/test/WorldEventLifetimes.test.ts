/**
 * World event lifetimes: the band an importance reaches sets how long the event stays
 * current news; pinned ids and permanent bands never lapse.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  defaultWorldEventLifetimes,
  type GameTime,
  worldEventCurrentAt,
  worldEventLapsesAt,
  worldEventLifetimeDays,
} from "../src/index.ts";

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const time = fc.integer({ min: 0, max: 10_000_000 }).map((t) => t as GameTime);

describe("world event lifetimes", () => {
  it("by default: permanent from 0.9, 60 days from 0.7, 21 from 0.4, a week below", () => {
    const days = (i: number) => worldEventLifetimeDays(defaultWorldEventLifetimes, i);
    expect([
      days(1),
      days(0.9),
      days(0.89),
      days(0.7),
      days(0.5),
      days(0.4),
      days(0.39),
      days(0),
    ]).toEqual([null, null, 60, 60, 21, 21, 7, 7]);
  });

  it("property: with the defaults a more important event never lapses sooner, and none lapses before it happens", () => {
    fc.assert(
      fc.property(unit, unit, time, (a, b, t) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const at = (i: number) =>
          worldEventLapsesAt(defaultWorldEventLifetimes, { id: "w", importance: i }, t);
        const [x, y] = [at(lo), at(hi)];
        if (x !== null) expect(x).toBeGreaterThan(t);
        if (x === null) expect(y).toBeNull();
        else if (y !== null) expect(y).toBeGreaterThanOrEqual(x);
      }),
    );
  });

  it("property: the band reached is the highest whose floor the importance meets, in any order given", () => {
    const band = fc.record({
      atLeast: unit,
      days: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(band, { maxLength: 5 }),
        fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
        unit,
        (bands, belowDays, i) => {
          const reached = bands
            .filter((b) => i >= b.atLeast)
            .sort((p, q) => q.atLeast - p.atLeast)[0];
          const got = worldEventLifetimeDays({ bands, belowDays, pinned: [] }, i);
          expect(got).toBe(reached === undefined ? belowDays : reached.days);
        },
      ),
    );
  });

  it("a pinned id never lapses, whatever its importance; the lapse moment itself is past", () => {
    const lifetimes = { ...defaultWorldEventLifetimes, pinned: ["founding"] };
    expect(
      worldEventLapsesAt(lifetimes, { id: "founding", importance: 0 }, 60 as GameTime),
    ).toBeNull();
    const at = worldEventLapsesAt(lifetimes, { id: "fair", importance: 0 }, 60 as GameTime);
    expect(at).toBe(60 + 7 * 1440);
    expect(worldEventCurrentAt(at, at! - 1)).toBe(true);
    expect(worldEventCurrentAt(at, at!)).toBe(false);
    expect(worldEventCurrentAt(null, 1e12)).toBe(true);
  });
});
