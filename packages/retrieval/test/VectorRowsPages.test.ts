import { mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Prng } from "@hearsay/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { VectorRows } from "../src/VectorRows.ts";
import { randomUnit } from "./fixtures.ts";

// The rows' per-slot arrays are held in pages (`PagedArray`): how many slots a page holds
// must change nothing a store is read for — what it saves, gathers, shortlists or finds —
// through puts, repeats, removals, shared rows, growth and a restore from its own save.

const D = 16;
const ROWS = 1100;

const unit = (seed: number): Float32Array => randomUnit(Prng.derive(seed, "v"), D);

type Op =
  | { readonly kind: "put"; readonly row: number; readonly seed: number }
  | { readonly kind: "same"; readonly row: number; readonly as: number }
  | { readonly kind: "remove"; readonly row: number }
  | { readonly kind: "share"; readonly rows: ReadonlyArray<number> };

const row = fc.integer({ min: 1, max: ROWS + 400 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.tuple(row, fc.nat()).map(([r, seed]) => ({ kind: "put" as const, row: r, seed })),
  fc.tuple(row, row).map(([r, as]) => ({ kind: "same" as const, row: r, as })),
  row.map((r) => ({ kind: "remove" as const, row: r })),
  fc.array(row, { maxLength: 100 }).map((rows) => ({ kind: "share" as const, rows })),
);

const apply = (rows: VectorRows, o: Op): void => {
  if (o.kind === "put") rows.put(o.row, o.seed, unit(o.seed + 7), `s${o.seed % 3}`);
  else if (o.kind === "same") rows.put(o.row, o.as, unit(o.as), "", o.as);
  else if (o.kind === "remove") rows.remove([o.row]);
  else rows.share(Float64Array.from(o.rows).sort());
};

const joined = <T extends ArrayLike<number>>(pieces: ReadonlyArray<T>): Array<number> =>
  pieces.flatMap((p) => Array.from(p));

/** Everything the rows are read for, for a known set drawn from `seed`. */
const readings = (rows: VectorRows, seed: number) => {
  const s = rows.slots();
  const halves = new Uint16Array(s.used * D);
  s.halves(0, s.used, halves);
  const p = Prng.derive(seed, "k");
  const known = Float64Array.from(
    Array.from({ length: ROWS + 400 }, (_, i) => i + 1).filter(() => p.float() < 0.7),
  );
  const present = new Float64Array(known.length);
  const slots = new Int32Array(known.length);
  const n = rows.presentSlotsOf(known, present, slots);
  const gathered = new Int8Array(n * D);
  rows.gatherSlots(slots, n, gathered);
  const query = unit(seed + 99);
  const short = Array.from(rows.shortlist(query, slots, n, Math.min(n, 50)));
  const one = new Int8Array(D);
  return {
    rowids: joined(s.rowids),
    fingerprints: joined(s.fingerprints),
    groups: joined(s.groups),
    saves: s.saves,
    halves,
    entries: rows.entries(),
    size: rows.size,
    slots: Array.from(slots.subarray(0, n)),
    gathered,
    short,
    scores: Array.from(present.subarray(0, n), (r) => rows.similarity(query, r)),
    quantized: Array.from(present.subarray(0, 20), (r) => {
      rows.copyQuantized(r, one, 0);
      return Array.from(one);
    }),
  };
};

const dir = mkdtempSync(join(tmpdir(), "vector-rows-pages-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Restores a store saved as `rows` into fresh rows with pages of 2^`shift` slots. */
const reloaded = (rows: VectorRows, shift: number | undefined): VectorRows => {
  const s = rows.slots();
  const bits = new Uint16Array(s.used * D);
  s.halves(0, s.used, bits);
  const fd = openSync(join(dir, `v${files++}`), "w+");
  writeSync(fd, bits);
  const out = new VectorRows(D, shift);
  out.restore(
    Float64Array.from(joined(s.rowids)),
    Uint32Array.from(joined(s.fingerprints)),
    { fd, base: 0 },
    Int32Array.from(joined(s.groups)),
    s.saves,
  );
  return out;
};

describe("VectorRows pages", () => {
  it("property: any page size reads as one page, through growth and a restore", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 3, 10, 11),
        fc.array(op, { maxLength: 40 }),
        fc.array(op, { maxLength: 20 }),
        fc.nat(),
        (shift, ops, after, seed) => {
          const one = new VectorRows(D);
          const paged = new VectorRows(D, shift);
          for (let r = 1; r <= ROWS; r++) {
            one.put(r, r, unit(r), "");
            paged.put(r, r, unit(r), "");
          }
          for (const o of ops) {
            apply(one, o);
            apply(paged, o);
          }
          expect(readings(paged, seed)).toEqual(readings(one, seed));
          paged.codePending();
          expect(readings(paged, seed)).toEqual(readings(one, seed));
          // Restored stores are sized to their rows; the puts after grow them.
          const one2 = reloaded(one, undefined);
          const paged2 = reloaded(paged, shift);
          // A restored store shortlists as the one saved: its rows are sketched anew when a
          // scan first reads them, from the same f16 rows.
          expect(readings(one2, seed).short).toEqual(readings(one, seed).short);
          for (const o of after) {
            apply(one2, o);
            apply(paged2, o);
          }
          for (let r = ROWS + 400; r < ROWS + 400 + 300; r++) {
            one2.put(r, r, unit(r), "s1");
            paged2.put(r, r, unit(r), "s1");
          }
          expect(readings(paged2, seed)).toEqual(readings(one2, seed));
          for (const r of [one, paged, one2, paged2]) r.close();
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 300 : 16 },
    );
  });

  it("property: a restored row reads as its f16 row quantised, whichever read or copy comes first", () => {
    // A restored row is quantised when first read as i8 (`VectorRows.quantized`): by a
    // gather, a copy to another row, a share or `copyQuantized`, in any order. It must read
    // as a store given each saved row's f16 vector outright reads (what restoring once did).
    const allRows = Float64Array.from({ length: ROWS + 400 }, (_, i) => i + 1);
    const i8Of = (rows: VectorRows): Array<Array<number>> => {
      const one = new Int8Array(D);
      return Array.from(allRows, (r) => (rows.copyQuantized(r, one, 0) ? Array.from(one) : []));
    };
    /** What is read by rowid, not by slot (a store put row by row lays its slots out anew). */
    const byRow = (rows: VectorRows, seed: number) => {
      const { gathered, short, scores, quantized, entries, size } = readings(rows, seed);
      return { gathered, short, scores, quantized, entries, size };
    };
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 30 }),
        fc.array(
          fc.oneof(
            // Copies of rows the store held when saved, most of them before anything reads them.
            {
              arbitrary: fc
                .tuple(row, fc.integer({ min: 1, max: ROWS }))
                .map(([r, as]) => ({ kind: "same" as const, row: r, as })),
              weight: 3,
            },
            { arbitrary: op, weight: 2 },
            { arbitrary: fc.nat().map((seed) => ({ kind: "read" as const, seed })), weight: 1 },
          ),
          { minLength: 1, maxLength: 30 },
        ),
        fc.nat(),
        (ops, after, seed) => {
          const saved = new VectorRows(D);
          for (let r = 1; r <= ROWS; r++) saved.put(r, r, unit(r), "");
          for (const o of ops) apply(saved, o);
          const restored = reloaded(saved, 3);
          const outright = new VectorRows(D);
          const v = new Float32Array(D);
          const { rowids, fingerprints } = saved.entries();
          rowids.forEach((r, i) => {
            saved.vectorInto(r, v, 0);
            outright.put(r, fingerprints[i]!, v, saved.saveOf(r));
          });
          for (const o of after) {
            if (o.kind === "read") {
              expect(readings(restored, o.seed).gathered).toEqual(
                readings(outright, o.seed).gathered,
              );
              continue;
            }
            apply(outright, o);
            apply(restored, o);
          }
          expect(byRow(restored, seed)).toEqual(byRow(outright, seed));
          expect(i8Of(restored)).toEqual(i8Of(outright));
          for (const r of [saved, restored, outright]) r.close();
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 300 : 16 },
    );
  });
});
