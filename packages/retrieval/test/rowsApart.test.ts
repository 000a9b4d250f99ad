/**
 * `rowsApart`, which decides whether the index job writes (`IndexKeeper` in
 * @hearsay/engine, through `RowMarks`): the rows two rowid-ordered
 * entry lists disagree on (in one only, or with another fingerprint) — the size of the
 * symmetric difference of their (rowid, fingerprint) sets.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowsApart } from "../src/RowMarks.ts";

const entries = fc
  .dictionary(fc.integer({ min: 0, max: 60 }).map(String), fc.integer({ min: 0, max: 3 }))
  .map((d) => {
    const rows = Object.entries(d)
      .map(([r, f]) => [Number(r), f] as const)
      .sort((a, b) => a[0] - b[0]);
    return {
      rowids: Float64Array.from(rows.map(([r]) => r)),
      fingerprints: Uint32Array.from(rows.map(([, f]) => f)),
    };
  });

const asMap = (e: { rowids: Float64Array; fingerprints: Uint32Array }): Map<number, number> =>
  new Map([...e.rowids].map((r, i) => [r, e.fingerprints[i]!]));

describe("rowsApart", () => {
  it("counts each row the two lists disagree on once", () => {
    fc.assert(
      fc.property(entries, entries, (a, b) => {
        const ma = asMap(a);
        const mb = asMap(b);
        let want = 0;
        for (const r of new Set([...ma.keys(), ...mb.keys()]))
          if (ma.get(r) !== mb.get(r)) want += 1;
        expect(rowsApart(a, b)).toBe(want);
        expect(rowsApart(b, a)).toBe(want);
        expect(rowsApart(a, a)).toBe(0);
      }),
    );
  });
});
