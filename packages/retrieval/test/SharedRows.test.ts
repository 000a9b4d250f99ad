import { Prng } from "@hearsay/core";
import { VectorStore } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KnowledgeIndex } from "../src/KnowledgeIndex.ts";
import { VectorRows } from "../src/VectorRows.ts";
import { randomUnit } from "./fixtures.ts";

// Rows of items known by many are copied together (`VectorStore.shareItems`) so that scans
// read them from contiguous memory. Sharing must never change what a scan finds.

const D = 16;

const unit = (p: Prng): Float32Array => randomUnit(p, D);

type Op =
  | { readonly kind: "share"; readonly rows: ReadonlyArray<number> }
  | { readonly kind: "put"; readonly row: number; readonly seed: number }
  | { readonly kind: "remove"; readonly row: number };

const ROWS = 600;
const row = fc.integer({ min: 1, max: ROWS + 50 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.array(row, { maxLength: 200 }).map((rows) => ({ kind: "share" as const, rows })),
  fc.tuple(row, fc.nat()).map(([r, seed]) => ({ kind: "put" as const, row: r, seed })),
  row.map((r) => ({ kind: "remove" as const, row: r })),
);

describe("shared rows", () => {
  it("leave every exact scan as it is, through puts, removals and reused slots", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.nat(), (ops, qseed) => {
        const store = new VectorStore({ dimensions: D, graph: false });
        const vectors = new Map<number, number>();
        const put = (s: VectorStore, r: number, seed: number) =>
          s.put([r], [seed], unit(Prng.derive(seed, "v")), false);
        for (let r = 1; r <= ROWS; r++) {
          put(store, r, r);
          vectors.set(r, r);
        }
        const items: Array<number> = [];
        for (const o of ops) {
          if (o.kind === "share") {
            items.push(...o.rows);
            store.shareItems(items, (r) => r);
          } else if (o.kind === "put") {
            put(store, o.row, o.seed + 10_000);
            vectors.set(o.row, o.seed + 10_000);
          } else {
            store.remove([o.row]);
            vectors.delete(o.row);
          }
        }
        // The same rows, put afresh into a store that shares nothing.
        const plain = new VectorStore({ dimensions: D, graph: false });
        for (const [r, seed] of [...vectors].sort((a, b) => a[0] - b[0])) put(plain, r, seed);
        const p = Prng.derive(qseed, "q");
        const known = Array.from({ length: ROWS + 50 }, (_, i) => i + 1).filter(
          () => p.float() < 0.7,
        );
        const query = unit(p);
        expect(store.exact(query, known, 5)).toEqual(plain.exact(query, known, 5));
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 40 },
    );
  });

  it("gather the bytes each row holds now, through puts, removals and reused slots", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.nat(), (ops, kseed) => {
        const rows = new VectorRows(D);
        const put = (r: number, seed: number) =>
          rows.put(r, seed, unit(Prng.derive(seed, "v")), "");
        for (let r = 1; r <= ROWS; r++) put(r, r);
        for (const o of ops) {
          if (o.kind === "share") rows.share(Float64Array.from(o.rows).sort());
          else if (o.kind === "put") put(o.row, o.seed + 10_000);
          else rows.remove([o.row]);
        }
        const p = Prng.derive(kseed, "k");
        const known = Float64Array.from(
          Array.from({ length: ROWS + 50 }, (_, i) => i + 1).filter(
            (r) => rows.has(r) && p.float() < 0.7,
          ),
        );
        const gathered = new Int8Array(known.length * D);
        const slots = new Int32Array(known.length);
        const present = new Float64Array(known.length);
        expect(rows.presentSlotsOf(known, present, slots)).toBe(known.length);
        rows.gatherSlots(slots, known.length, gathered);
        const expected = new Int8Array(known.length * D);
        for (let j = 0; j < known.length; j++) rows.copyQuantized(known[j]!, expected, j * D);
        expect(gathered).toEqual(expected);
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 1000 : 80 },
    );
  });

  it("are at most an eighth of the rows", () => {
    const store = new VectorStore({ dimensions: D, graph: false });
    const p = Prng.derive(3, "cap");
    for (let r = 1; r <= 10_000; r++) store.put([r], [r], unit(p), false);
    store.shareItems(
      Array.from({ length: 10_000 }, (_, i) => i + 1),
      (r) => r,
    );
    expect(store.sharedRows).toBe(1250);
  });
});

describe("KnowledgeIndex.common", () => {
  it("lists an item once when 16 NPCs and an eighth of those with facts know it", () => {
    const k = new KnowledgeIndex();
    // 100 NPCs know item 1 one by one; item 2 is known by 12 only.
    for (let npc = 0; npc < 100; npc++) k.learn("memory", "m1", 1, npc, 5);
    for (let npc = 0; npc < 12; npc++) k.learn("memory", "m2", 2, npc, 5);
    // Learning again adds no knower.
    for (let npc = 0; npc < 12; npc++) k.learn("memory", "m2", 2, npc, 4);
    expect(k.common("memory")).toEqual([1]);
    // Bulk-loaded facts: the share is of every NPC loaded (200 → 25 knowers needed).
    const b = new KnowledgeIndex();
    const facts = [];
    for (let npc = 0; npc < 200; npc++) {
      facts.push({ npc, kind: "world_event" as const, local: 7, t: 1 });
      if (npc < 24) facts.push({ npc, kind: "world_event" as const, local: 8, t: 1 });
      if (npc < 25) facts.push({ npc, kind: "world_event" as const, local: 9, t: 1 });
    }
    b.load(facts);
    expect(b.common("world_event")).toEqual([7, 9]);
    expect(b.common("memory")).toEqual([]);
  });
});
