import { Prng } from "@hearsay/core";
import { VectorStore } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSignScan } from "../scripts/signScanWasm.ts";
import { shortlistSize } from "../src/ExactScan.ts";
import { SignCodes } from "../src/SignCodes.ts";
import { SIGN_SCAN_WASM } from "../src/signScanWasm.ts";
import { randomUnit } from "./fixtures.ts";

// Large exact scans rank rows by one-bit sketches first and read only a short list in
// full (`SignCodes`, `ExactScan`): the kernel must sum what the tables say, the short
// list must hold the rows the scan would find, and where a row sits must not matter.

const unit = randomUnit;

/** The rotation a sketch is the signs of, read through the private method (a test-only peek). */
const rotation = (codes: SignCodes, v: Float32Array): Float64Array =>
  Float64Array.from((codes as unknown as { rotate(v: ArrayLike<number>): Float64Array }).rotate(v));

/** The sketch score, in floats: the rotated query summed with the sign of each rotated row. */
const referenceScores = (
  codes: SignCodes,
  vectors: ReadonlyArray<Float32Array>,
  query: Float32Array,
): Array<number> => {
  const rq = rotation(codes, query);
  return vectors.map((v) => {
    const rv = rotation(codes, v);
    let s = 0;
    for (let j = 0; j < codes.bits; j++) s += rv[j]! > 0 ? rq[j]! : -rq[j]!;
    return s;
  });
};

describe("sign codes", () => {
  it("are loaded from the compiled signScan.wat (run scripts/signScanWasm.ts after editing it)", async () => {
    expect(SIGN_SCAN_WASM).toBe(await compileSignScan());
  });

  it("property: the short list is the best by the sketch scores, whatever n and the block boundaries", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(8, 24, 48, 96),
        fc.integer({ min: 2, max: 700 }),
        fc.integer({ min: 1, max: 300 }),
        fc.nat(),
        (d, n, count, seed) => {
          const p = Prng.derive(seed, "codes");
          const codes = new SignCodes(d);
          codes.ensure(2 * n);
          const vectors = Array.from({ length: n }, () => unit(p, d));
          // Slots in another order than positions, with gaps.
          const slotOf = vectors.map((_, i) => 2 * (n - 1 - i) + (i & 1));
          vectors.forEach((v, i) => {
            codes.encode(v, slotOf[i]!);
          });
          const slots = codes.slotsFor(n);
          slots.set(slotOf);
          // Two queries in turn: each scan reads its own query's table, not the last one's.
          for (const query of [unit(p, d), unit(p, d)]) {
            const got = Array.from(codes.shortlist(query, n, count));
            expect(got).toEqual([...got].sort((a, b) => a - b));
            expect(got.length).toBe(Math.min(n, count));
            if (n <= count) return;
            const ref = referenceScores(codes, vectors, query);
            const ranked = [...ref].sort((a, b) => b - a);
            const cut = ranked[count - 1]!;
            // The kernel sums i16 tables: each entry within half a step of its float, so a
            // score within bytes/2 steps; a step is at most the largest |score| / 32,767.
            const step = Math.max(...ref.map(Math.abs), 1e-9) / 32_767;
            const slack = (codes.bytes / 2 + 1) * step * 2;
            for (const at of got) expect(ref[at]!).toBeGreaterThanOrEqual(cut - slack - 1e-9);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it("property: a large scan finds the top k of a full f16 scan, rows in any slots", () => {
    const d = 48;
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 10 }), (seed, k) => {
        const p = Prng.derive(seed, "scan");
        const n = 2 * shortlistSize(0, k) + 1 + p.int(0, 400);
        const rowids = Array.from({ length: n }, (_, i) => i + 1);
        const vectors = rowids.map(() => unit(p, d));
        const fill = (store: VectorStore, order: ReadonlyArray<number>) => {
          for (const i of order) store.put([rowids[i]!], [i], vectors[i]!, false);
        };
        const a = new VectorStore({ dimensions: d, graph: false });
        const b = new VectorStore({ dimensions: d, graph: false });
        fill(
          a,
          rowids.map((_, i) => i),
        );
        fill(
          b,
          rowids.map((_, i) => n - 1 - i),
        );
        let found = 0;
        for (let q = 0; q < 8; q++) {
          const query = unit(p, d);
          const got = a.exact(query, rowids, k);
          // Where rows sit (their slots) changes nothing.
          expect(b.exact(query, rowids, k)).toEqual(got);
          const truth = rowids
            .map((r) => ({ rowid: r, similarity: a.similarity(query, r) }))
            .sort((x, y) => y.similarity - x.similarity || x.rowid - y.rowid)
            .slice(0, k);
          const tenth = truth[truth.length - 1]!.similarity;
          found += got.filter((h) => h.similarity >= tenth - 1e-6).length;
        }
        // 48-d random rows are the sketches' hard case (their signs carry the least);
        // random bits would keep ~a third of the top k.
        expect(found / (8 * k)).toBeGreaterThanOrEqual(0.9);
      }),
      { numRuns: 12 },
    );
  });

  it("property: a large scan of rowids some of which have no row is the scan of those that do", () => {
    const d = 48;
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 10 }), (seed, k) => {
        const p = Prng.derive(seed, "absent");
        const n = 2 * shortlistSize(0, k) + 1 + p.int(0, 400);
        const store = new VectorStore({ dimensions: d, graph: false });
        const asked: Array<number> = [];
        const present: Array<number> = [];
        for (let r = 1; asked.length < n + 200; r++) {
          // Rows never put, put then removed, and put: the scan keeps each rowid with its
          // own slot whichever rows before it were skipped.
          const fate = p.int(0, 3);
          if (fate > 0) store.put([r], [r], unit(p, d), false);
          if (fate === 1) store.remove([r]);
          asked.push(r);
          if (fate > 1) present.push(r);
        }
        for (let q = 0; q < 4; q++) {
          const query = unit(p, d);
          const got = store.exact(query, asked, k);
          expect(got).toEqual(store.exact(query, present, k));
          for (const h of got) expect(h.similarity).toBe(store.similarity(query, h.rowid));
        }
      }),
      { numRuns: 12 },
    );
  });

  it("property: rows sketched when a scan first reads them or all up front answer alike", () => {
    const d = 48;
    const k = 5;
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const p = Prng.derive(seed, "lazy");
        const n = 2 * shortlistSize(0, k) + 1 + p.int(0, 300);
        const rowids = Array.from({ length: n }, (_, i) => i + 1);
        const vectors = rowids.map(() => unit(p, d));
        const queries = Array.from({ length: 4 }, () => unit(p, d));
        const filled = () => {
          const store = new VectorStore({ dimensions: d, graph: false });
          for (let i = 0; i < n; i++) store.put([rowids[i]!], [i], vectors[i]!, false);
          return store;
        };
        const eager = filled();
        eager.codePending();
        // Half the rows sketched up front, the rest by the first scan that reads them; a
        // row put again (here: the same vector) is sketched again.
        const mixed = filled();
        const half = rowids.slice(0, n >> 1);
        mixed.exact(queries[0]!, half.length > 2 * shortlistSize(0, k) ? half : rowids, k);
        mixed.put([rowids[0]!], [0], vectors[0]!, false);
        const lazy = filled();
        for (const q of queries) {
          const want = eager.exact(q, rowids, k);
          expect(lazy.exact(q, rowids, k)).toEqual(want);
          expect(mixed.exact(q, rowids, k)).toEqual(want);
        }
      }),
      { numRuns: 12 },
    );
  });
});
