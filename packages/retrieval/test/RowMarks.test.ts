/**
 * Marks on a store's rows (`RowMarks`, `VectorStore.mark`): the rows apart from a mark,
 * counted from the rows changed since, are what a full diff of the entries at the mark
 * and now finds (`rowsApart`) — through puts of new rows, of the same or another
 * fingerprint, removes, other marks taken and released, and restores that replace every
 * row. The index job's decision to write rests on it (`IndexKeeper` in @hearsay/engine).
 */
import { mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RowEntries, rowsApart, VectorStore } from "@hearsay/retrieval";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const D = 4;
const ROWIDS = 24;
/** Rowids in two key spaces (a save's keys start at a multiple of 2^32). */
const rowidOf = (i: number): number => (i < ROWIDS / 2 ? i : 2 ** 32 + i);
const VECTOR = Float32Array.from({ length: D }, () => 0.5);

type Op =
  | { readonly op: "put"; readonly rows: ReadonlyArray<readonly [number, number]> }
  | { readonly op: "remove"; readonly rows: ReadonlyArray<number> }
  | { readonly op: "mark" }
  | { readonly op: "release"; readonly which: number }
  | { readonly op: "restore"; readonly rows: ReadonlyArray<readonly [number, number]> };

/** Fingerprints are any 32-bit unsigned value: a few small ones, and some past 2^31. */
const fingerprint = fc.constantFrom(0, 1, 2, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1);
const row = fc.tuple(fc.nat(ROWIDS - 1), fingerprint);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(row, { maxLength: 5 }).map((rows) => ({ op: "put", rows }) as const),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.nat(ROWIDS - 1), { maxLength: 4 })
      .map((rows) => ({ op: "remove", rows }) as const),
  },
  { weight: 2, arbitrary: fc.constant({ op: "mark" } as const) },
  { weight: 1, arbitrary: fc.nat().map((which) => ({ op: "release", which }) as const) },
  {
    weight: 1,
    arbitrary: fc
      .array(row, { maxLength: ROWIDS })
      .map((rows) => ({ op: "restore", rows }) as const),
  },
);

const dir = mkdtempSync(join(tmpdir(), "row-marks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Replaces every row of `store` by `rows` (last of a rowid wins), as loading a file does. */
const restore = (store: VectorStore, rows: ReadonlyArray<readonly [number, number]>): void => {
  const byRowid = new Map(rows.map(([i, fp]) => [rowidOf(i), fp]));
  // A free slot among them, as a saved file holds one where a row was removed.
  const slots = [...byRowid, [-1, 0] as const];
  const fd = openSync(join(dir, `v${files++}`), "w+");
  writeSync(fd, new Uint16Array(slots.length * D).fill(0x3800));
  store.restore(
    Float64Array.from(slots, ([r]) => r),
    Uint32Array.from(slots, ([, fp]) => fp),
    { fd, base: 0 },
  );
};

const apply = (store: VectorStore, o: Op): void => {
  if (o.op === "put") {
    for (const [i, fp] of o.rows) store.put([rowidOf(i)], [fp], VECTOR, false);
  } else if (o.op === "remove") store.remove(o.rows.map(rowidOf));
  else if (o.op === "restore") restore(store, o.rows);
};

describe("VectorStore.rowsApartSince", () => {
  it("property: counts what a full diff of the entries at the mark and now counts", () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 12 }),
        fc.array(op, { maxLength: 40 }),
        (start, ops) => {
          const store = new VectorStore({ dimensions: D, graph: false });
          for (const [i, fp] of start) store.put([rowidOf(i)], [fp], VECTOR, false);
          const marks: Array<{ token: number; at: RowEntries }> = [];
          const released: Array<number> = [];
          const check = () => {
            const now = store.entries();
            for (const m of marks) expect(store.rowsApartSince(m.token)).toBe(rowsApart(now, m.at));
            for (const t of released) expect(store.rowsApartSince(t)).toBeNull();
          };
          for (const o of ops) {
            if (o.op === "mark") marks.push({ token: store.mark(), at: store.entries() });
            else if (o.op === "release") {
              if (marks.length === 0) continue;
              const [m] = marks.splice(o.which % marks.length, 1);
              store.release(m!.token);
              released.push(m!.token);
            } else apply(store, o);
            check();
          }
          store.close();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts each row once however often it changed, and none that came back", () => {
    const store = new VectorStore({ dimensions: D, graph: false });
    store.put([1, 2, 3], [10, 20, 30], new Float32Array(3 * D).fill(0.5), false);
    const token = store.mark();
    expect(store.rowsApartSince(token)).toBe(0);
    store.put([1], [11], VECTOR, false);
    store.put([1], [12], VECTOR, false);
    store.remove([2]);
    store.put([4], [40], VECTOR, false);
    store.remove([4]);
    store.put([3], [31], VECTOR, false);
    store.put([3], [30], VECTOR, false);
    // 1 changed, 2 gone; 4 came and went, 3 is as it was.
    expect(store.rowsApartSince(token)).toBe(2);
    store.release(token);
    expect(store.rowsApartSince(token)).toBeNull();
  });
});
