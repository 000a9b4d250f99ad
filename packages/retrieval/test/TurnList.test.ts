/**
 * A `TurnList` (one NPC's dialogue turns: times and rowids in a typed array, the rows of
 * the last `KEPT_TURN_ROWS` in a ring) holds what the array of `{ t, rowid, row }` objects
 * it replaced held: the same turns by index, the same kept rows after any pushes, fills and
 * dropped rows, the same rows read by a fill, and the same count of turns up to a time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TurnRow } from "../src/DossierSource.ts";
import { fillTurnRows, KEPT_TURN_ROWS, TurnList } from "../src/TurnRows.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });

/** The array the view held before: one object per turn, the row dropped as it leaves. */
interface Ref {
  readonly t: number;
  readonly rowid: number;
  row: TurnRow | undefined;
}

const modelPush = (list: Array<Ref>, ref: Ref): void => {
  list.push(ref);
  const leaving = list[list.length - 1 - KEPT_TURN_ROWS];
  if (leaving !== undefined) leaving.row = undefined;
};

const modelFill = (lists: Array<Array<Ref>>, read: (rowid: number) => TurnRow | undefined) => {
  const rows = new Map<number, TurnRow | undefined>();
  for (const list of lists) {
    for (let i = Math.max(0, list.length - KEPT_TURN_ROWS); i < list.length; i++) {
      const ref = list[i]!;
      let row = rows.get(ref.rowid);
      if (row === undefined && !rows.has(ref.rowid)) {
        row = read(ref.rowid);
        rows.set(ref.rowid, row);
      }
      ref.row = row;
    }
  }
};

/** The model's count of turns at or before `t`, by a plain scan. */
const modelCount = (list: Array<Ref>, t: number) => list.filter((r) => r.t <= t).length;

const LISTS = 3;
/** A few rowids, some past 2^32 and near 2^53 (item keys of later saves' key spaces). */
const arbRowid = fc.oneof(
  fc.integer({ min: 1, max: 40 }),
  fc.integer({ min: 1, max: 40 }).map((k) => 2 ** 32 * 7 + k),
  fc.integer({ min: 1, max: 40 }).map((k) => 2 ** 53 - 2 ** 32 + k),
);
const arbOp = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant("push" as const),
      list: fc.nat(LISTS - 1),
      dt: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 3 }),
        fc.double({ min: 0, max: 2, noNaN: true }),
      ),
      rowid: arbRowid,
      withRow: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("fill" as const), missing: fc.nat(5) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("drop" as const),
      list: fc.nat(LISTS - 1),
      back: fc.nat(KEPT_TURN_ROWS + 2),
    }),
  },
);

const rowOf = (rowid: number, n: number): TurnRow => ({
  conversation_id: `c${rowid}`,
  turn_index: n,
  speaker_id: "npc",
  text: `turn ${n}`,
  t: n,
});

describe("TurnList", () => {
  it("property: holds what an array of turn objects held, through pushes, fills and drops", () => {
    fc.assert(
      fc.property(
        fc.array(arbOp, { maxLength: 120 }),
        fc.array(fc.double({ min: -1, max: 200, noNaN: true }), { maxLength: 8 }),
        (ops, probes) => {
          const model: Array<Array<Ref>> = Array.from({ length: LISTS }, () => []);
          const real = Array.from({ length: LISTS }, () => new TurnList());
          const last = Array.from({ length: LISTS }, () => 0);
          let made = 0;
          for (const o of ops) {
            if (o.op === "push") {
              const t = last[o.list]! + o.dt;
              last[o.list] = t;
              const row = o.withRow ? rowOf(o.rowid, made++) : undefined;
              modelPush(model[o.list]!, { t, rowid: o.rowid, row });
              real[o.list]!.push(t, o.rowid, row);
            } else if (o.op === "fill") {
              // Some rowids read nothing (a row the table lacks): kept as no row.
              const read = (rowid: number) =>
                rowid % 6 === o.missing ? undefined : rowOf(rowid, made++);
              const modelReads: Array<number> = [];
              const realReads: Array<number> = [];
              const rows = new Map<number, TurnRow | undefined>();
              const once = (log: Array<number>) => (rowid: number) => {
                log.push(rowid);
                if (!rows.has(rowid)) rows.set(rowid, read(rowid));
                return rows.get(rowid);
              };
              modelFill(model, once(modelReads));
              fillTurnRows(real, once(realReads));
              expect(realReads).toEqual(modelReads);
            } else {
              const m = model[o.list]!;
              const r = real[o.list]!;
              const i = m.length - 1 - o.back;
              if (i >= 0 && o.back < KEPT_TURN_ROWS) {
                m[i]!.row = undefined;
                r.setRow(i, undefined);
              } else if (i >= 0) {
                // A turn out of the window has no row to drop.
                expect(() => r.setRow(i, undefined)).toThrow(RangeError);
              }
            }
            for (let l = 0; l < LISTS; l++) {
              const m = model[l]!;
              const r = real[l]!;
              expect(r.length).toBe(m.length);
              for (let i = 0; i < m.length; i++) {
                expect(r.t(i)).toBe(m[i]!.t);
                expect(r.rowid(i)).toBe(m[i]!.rowid);
                expect(r.row(i)).toBe(m[i]!.row);
                expect(r.kept(i)).toBe(i >= m.length - KEPT_TURN_ROWS);
              }
            }
          }
          for (let l = 0; l < LISTS; l++) {
            const m = model[l]!;
            const r = real[l]!;
            for (const t of [...probes, ...m.map((ref) => ref.t)]) {
              expect(r.countUpTo(t)).toBe(modelCount(m, t));
            }
            expect(r.row(-1)).toBeUndefined();
            expect(r.row(m.length)).toBeUndefined();
          }
        },
      ),
      runs(200),
    );
  });

  it("keeps every rowid exact past 2^32 as it grows", () => {
    const list = new TurnList();
    const n = 1000;
    for (let i = 0; i < n; i++) list.push(i * 0.5, 2 ** 52 + i, rowOf(i, i));
    expect(list.length).toBe(n);
    for (let i = 0; i < n; i++) {
      expect(list.rowid(i)).toBe(2 ** 52 + i);
      expect(list.t(i)).toBe(i * 0.5);
      expect(list.row(i)?.turn_index).toBe(i >= n - KEPT_TURN_ROWS ? i : undefined);
    }
    expect(list.countUpTo(10)).toBe(21);
  });
});
