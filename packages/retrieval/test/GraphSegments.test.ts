import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  indexPaths,
  loadVectorFiles,
  makeHashingEmbedder,
  saveVectorFiles,
  VectorStore,
} from "@hearsay/retrieval";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { Prng, sentence } from "./fixtures.ts";

const embedder = makeHashingEmbedder({ dimensions: 64 });
const d = embedder.dimensions;
const N = 1400;
const p = Prng.derive(5, "segments");
const texts = Array.from({ length: N }, (_, i) => sentence(p, i % 9));
const vectors = texts.map((t) => embedder.embedSync!(t));
const queries = Array.from({ length: 12 }, (_, i) => embedder.embedSync!(sentence(p, i % 9)));
const config = { dimensions: d, hnswMinSize: 64, fanout: 3, expansionSearch: 16 };
const dir = mkdtempSync(join(tmpdir(), "hearsay-segments-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flat = (rowids: ReadonlyArray<number>) => {
  const out = new Float32Array(rowids.length * d);
  rowids.forEach((r, j) => {
    out.set(vectors[r - 1]!, j * d);
  });
  return out;
};

/** Rows 1..n put in batches of the given sizes (cycled), the graphs synced after each. */
const grown = (n: number, batches: ReadonlyArray<number>) => {
  const store = new VectorStore(config);
  for (let at = 1, b = 0; at <= n; b++) {
    const size = Math.min(batches[b % batches.length]!, n - at + 1);
    const rowids = Array.from({ length: size }, (_, j) => at + j);
    store.put(rowids, rowids, flat(rowids));
    at += size;
  }
  return store;
};

/** Rows 1..n put at once, the graphs built at the end (a rebuild from SQLite). */
const bulk = (n: number) => {
  const store = new VectorStore(config);
  const rowids = Array.from({ length: n }, (_, j) => j + 1);
  store.put(rowids, rowids, flat(rowids), false);
  store.syncGraphs();
  return store;
};

/** What the store answers: every query, filtered by three visibility rules. */
const answers = (store: VectorStore) => {
  const rules = [(r: number) => r % 2 === 0, (r: number) => r % 7 !== 3, (r: number) => r > 300];
  return queries.flatMap((q) =>
    rules.map((accept) =>
      store.filtered(q, 10, 40, 1024, accept).map((s) => `${s.rowid}:${s.similarity.toFixed(6)}`),
    ),
  );
};

describe("graph segments", () => {
  it("search the same graphs however the rows arrived: grown in any batches, rebuilt, or reloaded", () => {
    const reference = bulk(N);
    expect(reference.hasGraph).toBe(true);
    // 1,400 rows are 21 blocks of 64 (and a tail of 56), fanout 3: 21 = 2·9 + 1·3.
    expect(reference.graphShapes().map((s) => s.level)).toEqual([2, 2, 1]);
    expect(reference.graphsOf().covered).toBe(21 * 64);
    const expected = answers(reference);
    expect(answers(bulk(N))).toEqual(expected);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 6 }),
        (b) => {
          const store = grown(N, b);
          expect(store.graphShapes()).toEqual(reference.graphShapes());
          expect(answers(store)).toEqual(expected);
        },
      ),
      { numRuns: 6 },
    );
    const paths = indexPaths(join(dir, "a.db"), "memories");
    const manifest = saveVectorFiles(reference, paths, { collection: "memories", model: "m" });
    // Each segment file is named in the manifest with the sha1 of its bytes.
    expect(manifest.segments.map((s) => s.hash)).toEqual(
      manifest.segments.map((s) =>
        createHash("sha1")
          .update(readFileSync(paths.segment(s)))
          .digest("hex"),
      ),
    );
    const loaded = loadVectorFiles(paths, { collection: "memories", model: "m" }, config);
    expect(loaded.ok && loaded.graphLoaded).toBe(true);
    if (loaded.ok) expect(answers(loaded.store)).toEqual(expected);
  });

  it("keep each save's rows in graphs of their own: interleaved with another save's, a save searches as if alone", () => {
    const n = 700;
    const alone = bulk(n);
    // Save "a" at odd rowids, save "b" (other vectors) at even ones, put in one batch.
    const mixed = new VectorStore(config);
    const rowids: Array<number> = [];
    const saves: Array<string> = [];
    const rows: Array<Float32Array> = [];
    for (let i = 1; i <= n; i++) {
      rowids.push(2 * i - 1, 2 * i);
      saves.push("a", "b");
      rows.push(vectors[i - 1]!, vectors[N - i]!);
    }
    const flatRows = new Float32Array(rows.length * d);
    rows.forEach((v, j) => {
      flatRows.set(v, j * d);
    });
    mixed.put(rowids, rowids, flatRows, false, saves);
    mixed.syncGraphs();
    expect(mixed.graphsOf("a").covered).toBe(alone.graphsOf().covered);
    for (const q of queries) {
      const want = alone.filtered(q, 10, 40, 1024, (r) => r % 3 !== 0);
      const got = mixed.filtered(
        q,
        10,
        40,
        1024,
        (r) => r % 2 === 1 && ((r + 1) / 2) % 3 !== 0,
        "a",
      );
      expect(got.map((s) => [(s.rowid + 1) / 2, s.similarity])).toEqual(
        want.map((s) => [s.rowid, s.similarity]),
      );
    }
  });

  it("returns only accepted rows, and the exact top 10 for nearly every query", () => {
    const store = bulk(N);
    let hits = 0;
    let total = 0;
    for (const q of queries) {
      for (const accept of [(r: number) => r % 2 === 0, (r: number) => r % 5 !== 0]) {
        const got = store.filtered(q, 10, 40, 1024, accept);
        for (const s of got) expect(accept(s.rowid)).toBe(true);
        const all = Array.from({ length: N }, (_, j) => j + 1).filter(accept);
        const truth = store.exact(q, all, 10);
        const tenth = truth[truth.length - 1]!.similarity;
        hits += Math.min(10, got.filter((s) => s.similarity >= tenth - 1e-6).length);
        total += truth.length;
      }
    }
    expect(hits / total).toBeGreaterThanOrEqual(0.95);
  });

  it("scans a row exactly once its vector changed after its graph was built, and forgets removed rows", () => {
    const store = bulk(N);
    const q = queries[0]!;
    const [best] = store.filtered(q, 1, 40, 1024, (r) => r !== 5);
    // Row 5 (inside the first graph) now holds the query's own vector: it must win.
    store.put([5], [99], q);
    expect(store.graphsOf().stale.has(5)).toBe(true);
    expect(store.filtered(q, 1, 40, 1024, () => true)[0]!.rowid).toBe(5);
    store.remove([5]);
    expect(store.filtered(q, 1, 40, 1024, () => true)[0]!.rowid).toBe(best!.rowid);
  });
});
