import { VectorStore } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const D = 24;

/** A unit vector from integer components (never all zero). */
const unit = (xs: ReadonlyArray<number>): Float32Array => {
  const v = Float32Array.from(xs, (x, i) => (i === 0 ? x + 0.5 : x));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** What a store holds of a row: its f16 and i8 forms. */
const stored = (s: VectorStore, rowid: number) => {
  const q8 = new Int8Array(D);
  s.copyQuantized(rowid, q8, 0);
  return { half: Array.from(s.vector(rowid) ?? []), q8: Array.from(q8) };
};

/** A few small-integer vectors the rows are drawn from, so rows repeat. */
const vectorPool = fc.array(
  fc.array(fc.integer({ min: -9, max: 9 }), { minLength: D, maxLength: D }),
  { minLength: 1, maxLength: 4 },
);

describe("VectorStore.put with repeated vectors", () => {
  it("property: a row put as a copy of an earlier one is stored as if encoded itself", () => {
    fc.assert(
      fc.property(
        vectorPool,
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 12 }),
        (pool, picks, freed) => {
          const vectors = pool.map(unit);
          const rows = picks.map((p) => p % vectors.length);
          const make = (copies: boolean) => {
            const s = new VectorStore({ dimensions: D, graph: false });
            // Freed slots first: the rows then land in slots out of their order.
            const early = Array.from({ length: freed }, (_, i) => 1000 + i);
            s.put(early, early, new Float32Array(early.length * D), false);
            s.remove(early);
            const rowids = rows.map((_, i) => 10 + 3 * i);
            const flat = new Float32Array(rows.length * D);
            rows.forEach((r, i) => {
              flat.set(vectors[r]!, i * D);
            });
            const sameAs = rows.map((r, i) => {
              const first = rows.indexOf(r);
              return copies && first < i ? first : -1;
            });
            s.put(rowids, rowids, flat, false, undefined, sameAs);
            return { s, rowids };
          };
          const plain = make(false);
          const copied = make(true);
          for (const rowid of plain.rowids)
            expect(stored(copied.s, rowid)).toEqual(stored(plain.s, rowid));
          const q = vectors[0]!;
          expect(copied.s.exact(q, copied.rowids, 5)).toEqual(plain.s.exact(q, plain.rowids, 5));
        },
      ),
    );
  });

  it("copies rows as encoded while the in-memory tail grows under them", () => {
    // Past the tail's first 1,024 rows a copy's slot makes it grow: the source is read after.
    const pool = [0, 1, 2].map((k) =>
      unit(Array.from({ length: D }, (_, i) => ((i * 7 + k * 5) % 9) - 4)),
    );
    const n = 2600;
    const rowids = Array.from({ length: n }, (_, i) => i + 1);
    const flat = new Float32Array(n * D);
    for (let i = 0; i < n; i++) flat.set(pool[i % 3]!, i * D);
    const plain = new VectorStore({ dimensions: D, graph: false });
    plain.put(rowids, rowids, flat, false);
    const copied = new VectorStore({ dimensions: D, graph: false });
    const sameAs = rowids.map((_, i) => (i < 3 ? -1 : i % 3));
    copied.put(rowids, rowids, flat, false, undefined, sameAs);
    for (const rowid of rowids) expect(stored(copied, rowid)).toEqual(stored(plain, rowid));
  });

  it("property: putRows stores copies of rows held before or put earlier as if encoded", () => {
    fc.assert(
      fc.property(
        vectorPool,
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        (pool, firstPicks, laterPicks) => {
          const vectors = pool.map(unit);
          const first = firstPicks.map((p) => p % vectors.length);
          const later = laterPicks.map((p) => p % vectors.length);
          const firstIds = first.map((_, i) => 1 + i);
          const laterIds = later.map((_, i) => 100 + 2 * i);
          const make = (copies: boolean) => {
            const s = new VectorStore({ dimensions: D, graph: false });
            const saves = (n: number) => Array.from({ length: n }, () => "s");
            s.putRows(
              firstIds,
              firstIds,
              saves(first.length),
              firstIds.map(() => -1),
              (i) => vectors[first[i]!]!,
            );
            // A later row copies a held row of its vector (before this call or in it) when there is one.
            const copyOf = later.map((v, i) => {
              if (!copies) return -1;
              const held = first.indexOf(v);
              if (held >= 0) return firstIds[held]!;
              const earlier = later.indexOf(v);
              return earlier < i ? laterIds[earlier]! : -1;
            });
            s.putRows(laterIds, laterIds, saves(later.length), copyOf, (i) =>
              copyOf[i]! >= 0 ? new Float32Array(D).fill(Number.NaN) : vectors[later[i]!]!,
            );
            return s;
          };
          const plain = make(false);
          const copied = make(true);
          for (const rowid of [...firstIds, ...laterIds])
            expect(stored(copied, rowid)).toEqual(stored(plain, rowid));
        },
      ),
    );
  });

  it("putRows encodes the vector of a row whose copy source it does not hold", () => {
    const s = new VectorStore({ dimensions: D, graph: false });
    expect(() => s.putRows([5], [5], ["s"], [9], () => unit(new Array(D).fill(1)))).not.toThrow();
    const before = s.entries();
    // Row 9 is not held: row 6's vector is asked for (and its failure stores nothing).
    expect(() =>
      s.putRows([6], [6], ["s"], [9], () => {
        throw new Error("asked for a vector");
      }),
    ).toThrow("asked for a vector");
    expect(s.entries()).toEqual(before);
  });

  it("putRows refuses a vector of other dimensions, storing nothing for it", () => {
    const s = new VectorStore({ dimensions: D, graph: false });
    expect(() => s.putRows([1], [1], ["s"], [-1], () => new Float32Array(D + 1))).toThrow(
      RangeError,
    );
    expect(s.has(1)).toBe(false);
  });
});
