/**
 * A pure embedder's index copies a text met again from the row first put for it
 * (`CollectionIndex.rowOfText`) rather than embedding and encoding it again: whatever
 * rows are put, replaced and removed, every stored row is what embedding its own text
 * gives — what an index that remembers no text (an embedder not pure) stores.
 */
import { openDatabase } from "@hearsay/store";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeHashingEmbedder } from "../src/HashingEmbedder.ts";
import type { Touched, TouchedRows } from "../src/SaveView.ts";
import { VectorIndexes } from "../src/VectorIndex.ts";

const TEXTS = ["the well ran dry", "a storm at the mill", "the well ran dry again", "bread"];

/** One update: rows put with a text (by its index in `TEXTS`) or removed (null). */
const arbStep = fc.array(
  fc.tuple(fc.integer({ min: 1, max: 10 }), fc.option(fc.nat({ max: TEXTS.length - 1 }))),
  { minLength: 1, maxLength: 8 },
);

/** Each row's stored f16 and i8 forms, by rowid. */
const storedRows = (index: VectorIndexes) => {
  const store = index.store("memories")!;
  return [...store.entries().rowids].map((r) => {
    const q8 = new Int8Array(store.dimensions);
    store.copyQuantized(r, q8, 0);
    return { r, fp: store.fingerprint(r), half: [...store.vector(r)!], q8: [...q8] };
  });
};

describe("an index remembering the rows of its texts", () => {
  it("property: stores what embedding every row's own text stores, through replacements and removals", () => {
    // The rows are given (`GivenRows`): no table is read, and one database serves every run.
    const db = openDatabase(":memory:");
    fc.assert(
      fc.property(fc.array(arbStep, { minLength: 1, maxLength: 12 }), (steps) => {
        const open = (pure: boolean) =>
          Effect.runSync(
            VectorIndexes.open(
              db,
              { ...makeHashingEmbedder(), pure },
              { dbPath: null, collections: ["memories"] },
            ),
          ).index;
        const remembering = open(true);
        const plain = open(false);
        for (const step of steps) {
          const values = new Map<number, ReadonlyArray<unknown> | null>();
          for (const [rowid, text] of step) values.set(rowid, text === null ? null : [TEXTS[text]]);
          const touched: Touched = { memories: [...values.keys()].sort((a, b) => a - b) };
          const rows: TouchedRows = { memories: values };
          remembering.updateSync(touched, { saveId: "s", rows });
          plain.updateSync(touched, { saveId: "s", rows });
          expect(storedRows(remembering)).toEqual(storedRows(plain));
        }
      }),
    );
    db.close();
  });
});
