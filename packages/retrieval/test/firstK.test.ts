/**
 * An exact scan's top rows (`firstK`) against what it replaced: every row scored as an
 * object, sorted by `bySimilarity`, the first `k` kept. The same rows in the same order,
 * ties, duplicates, zeros of either sign, infinities and NaN cosines included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bySimilarity, firstK, type Scored } from "../src/ExactScan.ts";

const sortedFirst = (rowids: ArrayLike<number>, sims: ArrayLike<number>, n: number, k: number) => {
  const all: Array<Scored> = [];
  for (let i = 0; i < n; i++) all.push({ rowid: rowids[i]!, similarity: sims[i]! });
  return all.sort(bySimilarity).slice(0, k);
};

/** Cosines that tie often, and the values an order may trip on. */
const cosine = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -8, max: 8 }).map((i) => i / 8) },
  { weight: 3, arbitrary: fc.double({ min: -1, max: 1, noNaN: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(-0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN),
  },
);

describe("firstK", () => {
  it("property: keeps the rows a full sort keeps, in its order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), cosine), { maxLength: 60 }),
        fc.integer({ min: 0, max: 12 }),
        fc.nat(3),
        (rows, k, extra) => {
          // Written into longer buffers, as the scan's reused ones are.
          const rowids = new Float64Array(rows.length + extra).fill(7);
          const sims = new Float64Array(rows.length + extra).fill(0.5);
          rows.forEach(([r, s], i) => {
            rowids[i] = r;
            sims[i] = s;
          });
          const got = firstK(rowids, sims, rows.length, k);
          const want = sortedFirst(rowids, sims, rows.length, k);
          expect(got.length).toBe(want.length);
          got.forEach((g, i) => {
            expect(g.rowid).toBe(want[i]!.rowid);
            expect(Object.is(g.similarity, want[i]!.similarity)).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
