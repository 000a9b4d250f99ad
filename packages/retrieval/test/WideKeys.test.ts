import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  indexPaths,
  loadVectorFiles,
  makeHashingEmbedder,
  saveVectorFiles,
  VectorStore,
} from "@hearsay/retrieval";
import { ITEM_KEY_SPACE } from "@hearsay/store";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { KeySlots } from "../src/KeySlots.ts";
import { Prng, sentence } from "./fixtures.ts";

// Item keys reach 2^53 (one key space per save: store/src/ItemKeys.ts). The vector rows
// are indexed by key: a save whose keys lie in a far space must search, save and load as
// the same rows keyed from 1, without arrays as long as its keys are large.

const LAST_SPACE = Math.floor(Number.MAX_SAFE_INTEGER / ITEM_KEY_SPACE);

describe("KeySlots", () => {
  const key = fc
    .tuple(fc.constantFrom(0, 1, 7, LAST_SPACE), fc.integer({ min: 0, max: 3000 }))
    .map(([space, at]) => space * ITEM_KEY_SPACE + at)
    .filter(Number.isSafeInteger);
  type Op = readonly [key: number, value: number];
  it("answers as a map of keys to slots, and enumerates a range in key order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.integer({ min: 0, max: 50 })) as fc.Arbitrary<Op>, {
          maxLength: 200,
        }),
        key,
        key,
        (ops, a, b) => {
          const slots = new KeySlots();
          const model = new Map<number, number>();
          for (const [k, v] of ops) {
            slots.set(k, v);
            if (v === 0) model.delete(k);
            else model.set(k, v);
          }
          for (const [k] of ops) expect(slots.get(k)).toBe(model.get(k) ?? 0);
          expect(slots.get(-1)).toBe(0);
          const [from, to] = a <= b ? [a, b] : [b, a];
          const seen: Array<[number, number]> = [];
          slots.each(from, to, (k, v) => {
            seen.push([k, v]);
            return true;
          });
          const want = [...model.entries()]
            .filter(([k]) => k >= from && k < to)
            .sort((x, y) => x[0] - y[0]);
          expect(seen).toEqual(want);
        },
      ),
    );
  });

  it("refuses a key that is not a non-negative safe integer", () => {
    const slots = new KeySlots();
    expect(() => slots.set(2 ** 53, 1)).toThrow(/not a non-negative safe integer/);
    expect(() => slots.set(-3, 1)).toThrow(/not a non-negative safe integer/);
  });
});

describe("a vector store keyed in a far key space", () => {
  const embedder = makeHashingEmbedder({ dimensions: 32 });
  const d = embedder.dimensions;
  const N = 300;
  const p = Prng.derive(8, "wide keys");
  const vectors = Array.from({ length: N }, (_, i) => embedder.embedSync!(sentence(p, i % 9)));
  const queries = Array.from({ length: 6 }, (_, i) => embedder.embedSync!(sentence(p, i % 7)));
  const config = { dimensions: d, hnswMinSize: 64, fanout: 3, expansionSearch: 16 };
  const dir = mkdtempSync(join(tmpdir(), "hearsay-wide-keys-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const storeFrom = (base: number) => {
    const store = new VectorStore(config);
    const keys = Array.from({ length: N }, (_, j) => base + j + 1);
    const flat = new Float32Array(N * d);
    vectors.forEach((v, j) => {
      flat.set(v, j * d);
    });
    store.put(keys, keys, flat, false);
    store.syncGraphs();
    return store;
  };
  /** Every query's best 10 among the accepted rows, keys shown relative to `base`. */
  const answers = (store: VectorStore, base: number) =>
    queries.flatMap((q) =>
      [(i: number) => i % 2 === 0, (i: number) => i % 5 !== 1].map((accept) =>
        store
          .filtered(q, 10, 40, 1024, (r) => accept(r - base))
          .map((s) => `${s.rowid - base}:${s.similarity.toFixed(6)}`),
      ),
    );

  it("searches, saves and loads as the same rows keyed from 1, in memory of their number", () => {
    const base = LAST_SPACE * ITEM_KEY_SPACE;
    expect(base + N).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    const near = storeFrom(0);
    const far = storeFrom(base);
    expect(far.hasGraph).toBe(true);
    expect(answers(far, base)).toEqual(answers(near, 0));
    expect(Array.from(far.entries().rowids, (r) => r - base)).toEqual(
      Array.from(near.entries().rowids),
    );
    expect(far.residentBytes).toBeLessThan(near.residentBytes + 64 * 1024);
    const paths = indexPaths(join(dir, "far.db"), "memories");
    saveVectorFiles(far, paths, { collection: "memories", model: "m" });
    const loaded = loadVectorFiles(paths, { collection: "memories", model: "m" }, config);
    expect(loaded.ok && loaded.graphLoaded).toBe(true);
    if (loaded.ok) {
      expect(answers(loaded.store, base)).toEqual(answers(near, 0));
      expect(loaded.store.fingerprint(base + 7)).toBe((base + 7) >>> 0);
    }
  });
});
