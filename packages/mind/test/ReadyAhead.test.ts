import { ReadyAhead } from "@hearsay/mind";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./arbitraries.ts";

const ms = fc.double({ min: 0.01, max: 10_000, noNaN: true });

/** Notes the samples interleaved as `order` says (true: a round trip). */
const fed = (trips: Array<number>, readies: Array<number>, order: Array<boolean>, ratio = 2) => {
  const ahead = new ReadyAhead(ratio);
  const [t, r] = [[...trips], [...readies]];
  for (const trip of order) {
    const next = trip ? t.shift() : r.shift();
    if (next !== undefined) (trip ? ahead.noteRoundTrip : ahead.noteReadying).call(ahead, next);
  }
  for (const x of t) ahead.noteRoundTrip(x);
  for (const x of r) ahead.noteReadying(x);
  return ahead;
};

describe("ReadyAhead", () => {
  it("readies ahead when every round trip is at least `ratio` times every readying", () => {
    fc.assert(
      fc.property(
        fc.array(ms, { minLength: 1, maxLength: 20 }),
        fc.array(ms, { maxLength: 20 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.integer({ min: 1, max: 8 }),
        (trips, readies, order, ratio, busy) => {
          const slowest = Math.max(0, ...readies);
          const slow = trips.map((x) => x + ratio * slowest);
          expect(fed(slow, readies, order, ratio).worthIt(busy)).toBe(true);
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("readies in the slot when answers come back faster than `ratio` readyings", () => {
    fc.assert(
      fc.property(
        fc.array(ms, { maxLength: 20 }),
        fc.array(ms, { minLength: 1, maxLength: 20 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        (trips, readies, order, ratio) => {
          const quickest = Math.min(...readies);
          const fast = trips.map((x) => Math.min(x, ratio * quickest * 0.99));
          expect(fed(fast, readies, order, ratio).worthIt(3)).toBe(false);
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("never readies ahead with no slot busy, nor before any round trip was seen", () => {
    fc.assert(
      fc.property(fc.array(ms, { maxLength: 20 }), fc.array(ms, { maxLength: 20 }), (t, r) => {
        expect(fed(t, r, []).worthIt(0)).toBe(false);
        expect(fed([], r, []).worthIt(4)).toBe(false);
      }),
      { numRuns: runs(100) },
    );
  });
});
