import { isStill, MAX_SHIFT, type RegardLevels, scaleShift, shiftRegard } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });
const level = fc.double({ min: -1, max: 1, noNaN: true });
const any = fc.double({ min: -5, max: 5, noNaN: true });
const levels = (x: fc.Arbitrary<number>): fc.Arbitrary<RegardLevels> =>
  fc.record({ trust: x, respect: x, suspicion: x });

describe("shiftRegard", () => {
  it("property: levels stay in [-1, 1] and no level moves more than MAX_SHIFT", () => {
    fc.assert(
      fc.property(levels(level), levels(any), (prior, shift) => {
        const next = shiftRegard(prior, shift);
        for (const k of ["trust", "respect", "suspicion"] as const) {
          expect(Math.abs(next[k])).toBeLessThanOrEqual(1);
          expect(Math.abs(next[k] - prior[k])).toBeLessThanOrEqual(MAX_SHIFT + 0.0006);
        }
      }),
      runs(200),
    );
  });

  it("property: each level moves the way its delta points, and a still shift moves nothing", () => {
    const small = fc.double({ min: -0.2, max: 0.2, noNaN: true });
    const mid = fc.double({ min: -0.5, max: 0.5, noNaN: true });
    fc.assert(
      fc.property(levels(mid), levels(small), (prior, shift) => {
        const next = shiftRegard(prior, shift);
        for (const k of ["trust", "respect", "suspicion"] as const) {
          expect((next[k] - prior[k]) * Math.sign(shift[k])).toBeGreaterThanOrEqual(-0.001);
          if (isStill(shift)) expect(Math.abs(next[k] - prior[k])).toBeLessThanOrEqual(0.001);
        }
      }),
      runs(200),
    );
  });

  it("scales a witness's share and keeps its reason", () => {
    const s = scaleShift({ trust: 0.04, respect: -0.02, suspicion: 0, reason: "x" }, 0.5, "heard");
    expect(s).toEqual({ trust: 0.02, respect: -0.01, suspicion: 0, reason: "heard" });
    expect(isStill(scaleShift(s, 0.01, "faint"))).toBe(true);
  });
});
