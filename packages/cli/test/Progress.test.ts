/**
 * Progress as a log file or CI shows it (a line every tenth of the work): never more than
 * all of the work, whatever counts a caller reports — a scan that meets rows written after
 * it counted them raises the bar's total instead of printing 700%.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { progressBar, progressNote } from "../src/Progress.ts";

/** A stand-in for standard error when it is not a terminal: the lines written. */
const lines = () => {
  const written: Array<string> = [];
  return { out: { isTTY: false, write: (s: string) => written.push(s) }, written };
};

const percents = (written: ReadonlyArray<string>): Array<number> =>
  written.map((l) => Number(/^ {2}(-?\d+)% \(/.exec(l)?.[1] ?? Number.NaN));

describe("progressBar without a terminal", () => {
  it("shows a count past its total as all of the work, not more", () => {
    const { out, written } = lines();
    const bar = progressBar(50_000, "", false, out);
    for (const done of [0, 50_000, 100_000, 350_000]) bar.update(done, { step: "scan" });
    expect(percents(written)).toEqual([0, 100]);
    expect(written.at(-1)).toBe("  100% (step scan)\n");
  });

  it("prints a rising percentage between 0 and 100 for any counts reported", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10_000 }),
        fc.array(fc.integer({ min: -5, max: 30_000 }), { maxLength: 60 }),
        (total, counts) => {
          const { out, written } = lines();
          const bar = progressBar(total, "", false, out);
          for (const done of [...counts].sort((a, b) => a - b)) bar.update(done, {});
          const shown = percents(written);
          for (const pct of shown) {
            expect(pct).toBeGreaterThanOrEqual(0);
            expect(pct).toBeLessThanOrEqual(100);
          }
          for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeGreaterThan(shown[i - 1]!);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("says nothing when quiet", () => {
    const { out, written } = lines();
    progressBar(10, "", true, out).update(10, {});
    progressNote("resuming", true, out);
    expect(written).toEqual([]);
    progressNote("resuming", false, out);
    expect(written).toEqual(["  resuming\n"]);
  });
});
