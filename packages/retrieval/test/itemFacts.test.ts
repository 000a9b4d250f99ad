/**
 * Item facts made from rows (`itemFacts.ts`): a list column is interned to the names'
 * numbers, in order, and the same names give the same shared, frozen list — per view's
 * interners, never across views.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Interner } from "../src/Interner.ts";
import { eventFacts, loreFacts, memoryFacts, type Names, summaryFacts } from "../src/itemFacts.ts";

const names = (): Names => ({
  npcs: new Interner(),
  places: new Interner(),
  factions: new Interner(),
  entities: new Interner(),
  tasks: new Interner(),
  sources: new Interner(),
});

const memory = (id: number, entities: ReadonlyArray<string>) => ({
  id: `m${id}`,
  rowid: id,
  recorded_at: 0,
  owner_npc_id: "npc-a",
  importance: 0.5,
  entities: JSON.stringify(entities),
  text: "t",
});

describe("item facts' lists", () => {
  it("property: interned in order; equal lists are one frozen array, per view", () => {
    const name = fc.constantFrom("Abel", "bram", "Cora", "dell", "Eve");
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 4 }), { maxLength: 12 }), (lists) => {
        const n = names();
        const facts = lists.map((l, i) => memoryFacts(memory(i, l), n));
        facts.forEach((f, i) => {
          expect(f.entities.map((e) => n.entities.value(e))).toEqual(
            lists[i]!.map((s) => s.toLowerCase()),
          );
          expect(Object.isFrozen(f.entities)).toBe(true);
        });
        for (let i = 0; i < facts.length; i++)
          for (let j = 0; j < facts.length; j++) {
            const same = facts[i]!.entities.join() === facts[j]!.entities.join();
            expect(facts[i]!.entities === facts[j]!.entities).toBe(same);
          }
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 1000 : 100 },
    );
  });

  it("never shares a list between two views' interners", () => {
    const [a, b] = [names(), names()];
    b.entities.intern("someone else first");
    const fa = memoryFacts(memory(1, ["Abel"]), a);
    const fb = memoryFacts(memory(1, ["Abel"]), b);
    expect(fa.entities).toEqual([0]);
    expect(fb.entities).toEqual([1]);
    const row = { id: "w", rowid: 1, t: 0, participants: ["npc-a", "npc-b"], entities: "[]" };
    expect(eventFacts(row, a).participants).toBe(eventFacts({ ...row, id: "x" }, a).participants);
    expect(eventFacts(row, b).participants).not.toBe(eventFacts(row, a).participants);
  });
});

describe("item facts' shape", () => {
  it("is one for every kind: the same fields, in the same order, with each kind's defaults", () => {
    const n = names();
    const made = [
      memoryFacts(memory(1, ["Abel"]), n),
      eventFacts({ id: "w", rowid: 2, t: 3, lapses_at: 9, participants: ["npc-a"] }, n),
      loreFacts({ id: "l", rowid: 4, source_id: "s", heading_path: "[]", text: "x" }, n),
      summaryFacts({ rowid: 5, conversation_id: "c", npc_id: "npc-a", partner_id: "b", t: 6 }, n),
    ];
    const keys = Object.keys(made[0]!);
    for (const f of made) expect(Object.keys(f)).toEqual(keys);
    expect(made.map((f) => [f.expiresAt, f.goneAt, f.aboutTask, f.source])).toEqual([
      [null, null, -1, -1],
      [9, null, -1, -1],
      [null, null, -1, 0],
      [null, null, -1, -1],
    ]);
  });
});
