import { memoryAliveAt } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ItemTable } from "../src/ItemTable.ts";

// ItemTable is internal to the package (not exported), so this test imports it directly.

const facts = (id: string, expiresAt: number | null, goneAt: number | null) => ({
  id,
  rowid: 1,
  t: 0,
  expiresAt,
  goneAt,
  owner: -1,
  location: -1,
  faction: -1,
  importance: 0.5,
  participants: [],
  entities: [],
  aboutTask: -1,
  source: -1,
  quote: { text: id },
});

describe("ItemTable.aliveAt", () => {
  it("is core's memoryAliveAt, through expiry, going and removal", () => {
    const time = fc.option(fc.integer({ min: 0, max: 50 }), { nil: null });
    fc.assert(
      fc.property(
        time,
        time,
        time,
        fc.boolean(),
        fc.integer({ min: -1, max: 55 }),
        (expiresAt, goneAt, goneLater, removed, t) => {
          const table = new ItemTable();
          const local = table.add(facts("m", expiresAt, goneAt));
          let gone = goneAt;
          if (goneLater !== null) {
            table.setGone(local, goneLater);
            gone ??= goneLater;
          }
          if (removed) table.kill(local);
          expect(table.aliveAt(local, t)).toBe(!removed && memoryAliveAt(expiresAt, gone, t));
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 5000 : 300 },
    );
  });
});

describe("ItemTable.quoteOf", () => {
  it("gives back every quote as it was added or set, whatever its columns", () => {
    const column = fc.constantFrom("text", "topic", "summary", "outcome", "partner_id");
    const quote = fc.dictionary(column, fc.string(), { maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(quote, { minLength: 1, maxLength: 8 }), quote, (quotes, later) => {
        const table = new ItemTable();
        const locals = quotes.map((q, i) => table.add({ ...facts(`m${i}`, null, null), quote: q }));
        expect(locals.map((local) => table.quoteOf(local))).toEqual(quotes);
        table.setQuote(locals[0]!, later);
        expect(table.quoteOf(locals[0]!)).toEqual(later);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 2000 : 200 },
    );
  });
});

describe("ItemTable.localOf", () => {
  it("finds the live item of an id, by a map of ids or by the ids' keys", () => {
    const id = fc.constantFrom("a", "b", "c", "d");
    const step = fc.oneof(
      id.map((i) => ({ op: "add" as const, i })),
      fc.nat(6).map((n) => ({ op: "kill" as const, n })),
      id.map((i) => ({ op: "ask" as const, i })),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        // The store's rule: an id gets the next key when it has no live row.
        const keys = new Map<string, number>();
        let last = 0;
        const byMap = new ItemTable();
        const byKey = new ItemTable((i) => keys.get(i));
        const live = new Map<string, number>();
        for (const s of steps) {
          if (s.op === "add") {
            if (!live.has(s.i)) keys.set(s.i, ++last);
            const f = { ...facts(s.i, null, null), rowid: keys.get(s.i)! };
            const local = byMap.add(f);
            expect(byKey.add(f)).toBe(local);
            live.set(s.i, local);
          } else if (s.op === "kill") {
            if (s.n >= byMap.length) continue;
            byMap.kill(s.n);
            byKey.kill(s.n);
            for (const [i, local] of live) if (local === s.n) live.delete(i);
          } else {
            // A copy of the id, not the same string: the answer is by content.
            const asked = `${s.i}?`.slice(0, 1);
            expect(byMap.localOf(asked)).toBe(live.get(s.i));
            expect(byKey.localOf(asked)).toBe(live.get(s.i));
          }
        }
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 3000 : 300 },
    );
  });
});
