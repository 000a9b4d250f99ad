import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Prng } from "@hearsay/core";
import { indexPaths, loadVectorFiles, saveVectorFiles, VectorStore } from "@hearsay/retrieval";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

/** The search memory a vector may cost, every resident structure counted (issue 23). */
const BUDGET_PER_VECTOR = 1536;
/** What a store holds whatever its size: its row and scan buffers. */
const FIXED_BYTES = 64 * 1024;

const d = 384;
const dir = mkdtempSync(join(tmpdir(), "hearsay-halfrows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gaussian = (p: Prng): number =>
  Math.sqrt(-2 * Math.log(1 - p.float())) * Math.cos(2 * Math.PI * p.float());

const unit = (v: Float32Array): Float32Array => {
  let n = 0;
  for (const x of v) n += x * x;
  const s = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) v[i]! *= s;
  return v;
};

/**
 * `n` unit vectors in clusters around `clusters` centres (near neighbours whose cosines
 * differ in the third decimal: what separates a precise ranking from an i8 one), and
 * queries drawn the same way.
 */
const clustered = (seed: number, n: number, clusters: number, queries: number) => {
  const p = Prng.derive(seed, "halfrows");
  const centres = Array.from({ length: clusters }, () =>
    unit(Float32Array.from({ length: d }, () => gaussian(p))),
  );
  const near = () => {
    const c = centres[p.int(0, clusters - 1)]!;
    return unit(Float32Array.from(c, (x) => x + 0.03 * gaussian(p)));
  };
  const rows = new Float32Array(n * d);
  for (let i = 0; i < n; i++) rows.set(near(), i * d);
  return { rows, queries: Array.from({ length: queries }, near) };
};

const saved = (name: string, store: VectorStore) => {
  const paths = indexPaths(join(dir, `${name}.db`), "memories");
  saveVectorFiles(store, paths, { collection: "memories", model: "test" });
  return paths;
};

const graphBytes = (paths: ReturnType<typeof indexPaths>) =>
  paths.segmentFiles().reduce((a, f) => a + statSync(f).size, 0);

describe("a store's f16 rows live in its saved vectors file", () => {
  it("keeps search memory within 1.5 KB a vector once saved, graphs counted", () => {
    const n = 4100;
    const { rows } = clustered(1, n, 40, 0);
    const rowids = Array.from({ length: n }, (_, i) => i + 1);
    const store = new VectorStore({ dimensions: d, hnswMinSize: 1024, buildThreads: 1 });
    store.put(rowids, rowids, rows);
    expect(store.hasGraph).toBe(true);
    // Unsaved, the f16 rows are held in memory: the count sees them.
    expect(store.residentBytes).toBeGreaterThan(n * (2 * d + d));
    const paths = saved("budget", store);
    const resident = store.residentBytes + graphBytes(paths);
    expect(resident).toBeLessThanOrEqual(BUDGET_PER_VECTOR * n + FIXED_BYTES);

    // Loaded from its files, the same.
    const loaded = loadVectorFiles(
      paths,
      { collection: "memories", model: "test" },
      { dimensions: d, hnswMinSize: 1024 },
    );
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.graphLoaded).toBe(true);
    expect(loaded.store.residentBytes + graphBytes(paths)).toBeLessThanOrEqual(
      BUDGET_PER_VECTOR * n + FIXED_BYTES,
    );
    expect(loaded.store.vector(777)).toEqual(store.vector(777));
    // A run's next rows grow it by a little, not by its size; rows read from the file
    // are cached, an eighth of them at most (d / 4 bytes a row).
    const more = clustered(4, 8, 40, 0).rows;
    loaded.store.put([n + 1, n + 2], [n + 1, n + 2], more.subarray(0, 2 * d));
    expect(loaded.store.residentBytes + graphBytes(paths)).toBeLessThanOrEqual(
      (n + 2) * (d + 12 + 600 + d / 4) * 1.15 + FIXED_BYTES,
    );
    loaded.store.close();
    store.close();
  });

  it("reads each row as written, across saves, replacements and a deleted file", () => {
    const n = 300;
    const { rows } = clustered(2, n + 20, 5, 0);
    const rowids = Array.from({ length: n }, (_, i) => i + 1);
    const store = new VectorStore({ dimensions: d, graph: false });
    store.put(rowids, rowids, rows.subarray(0, n * d));
    const before = rowids.map((r) => store.vector(r)!);
    const unsaved = store.residentBytes;
    const paths = saved("rows", store);
    // Saving lets every f16 row go.
    const afterSave = store.residentBytes;
    expect(afterSave).toBeLessThanOrEqual(unsaved - n * 2 * d);
    expect(rowids.map((r) => store.vector(r)!)).toEqual(before);

    // A new row and a replaced one are held in memory until the next save.
    const extra = rows.subarray(n * d, (n + 2) * d);
    store.put([n + 1, 5], [n + 1, 5], extra);
    expect(store.residentBytes).toBeGreaterThan(afterSave + 2 * d);
    const want = (r: number) =>
      r === n + 1 ? store.vector(n + 1)! : r === 5 ? store.vector(5)! : before[r - 1]!;
    expect(Array.from(store.vector(5)!)).not.toEqual(Array.from(before[4]!));
    const all = [...rowids, n + 1];
    const expected = all.map(want);
    saved("rows", store);
    expect(store.residentBytes).toBeLessThanOrEqual(afterSave + 4 * d);
    expect(all.map((r) => store.vector(r)!)).toEqual(expected);

    // The store holds its file open: deleting it (a rebuild, a user) changes no read.
    rmSync(paths.vectors);
    expect(all.map((r) => store.vector(r)!)).toEqual(expected);
    const q = rows.subarray((n + 5) * d, (n + 6) * d);
    const top = store.exact(q, all, 10);
    expect(top.map((h) => h.similarity)).toEqual(top.map((h) => store.similarity(q, h.rowid)));
    saved("rows", store);
    expect(all.map((r) => store.vector(r)!)).toEqual(expected);
    store.close();
  });

  it("lets each replaced file's descriptor go, off the calling thread", async () => {
    if (!existsSync("/proc/self/fd")) return;
    const open = () => readdirSync("/proc/self/fd").length;
    const { rows } = clustered(3, 40, 2, 0);
    const rowids = Array.from({ length: 40 }, (_, i) => i + 1);
    const store = new VectorStore({ dimensions: d, graph: false });
    store.put(rowids, rowids, rows);
    saved("fds", store);
    const seven = store.vector(7);
    const once = open();
    for (let i = 0; i < 8; i++) saved("fds", store);
    // Closed on libuv's pool: given a moment, only the file read now is still open.
    for (let wait = 0; wait < 200 && open() > once; wait++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(open()).toBe(once);
    expect(store.vector(7)).toEqual(seven);
    store.close();
  });

  it("reads a small file's rows once: later scores come from memory", () => {
    // A file of up to 256 rows is cached whole: a scan of so few rows (the lore's) scores
    // every one, and a smaller cache would read most of them again every scan.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 256 }), (n) => {
        const { rows, queries } = clustered(n, n, 4, 1);
        const rowids = Array.from({ length: n }, (_, i) => i + 1);
        const store = new VectorStore({ dimensions: d, graph: false });
        store.put(rowids, rowids, rows);
        const paths = saved(`small-${n}`, store);
        const q = queries[0]!;
        const first = rowids.map((r) => store.similarity(q, r));
        // Emptied, the file can serve no read: every score must come from the cache.
        truncateSync(paths.vectors, 0);
        expect(rowids.map((r) => store.similarity(q, r))).toEqual(first);
        store.close();
      }),
      { numRuns: 12 },
    );
  });

  it("finds at least 98% of the exact top 10 ranking by i8 and scoring the best from f16", () => {
    const n = 6000;
    const { rows, queries } = clustered(3, n, 60, 40);
    const rowids = Array.from({ length: n }, (_, i) => i + 1);
    const store = new VectorStore({ dimensions: d, hnswMinSize: 1024, buildThreads: 1 });
    store.put(rowids, rowids, rows);
    saved("recall", store);
    const cosine = (q: Float32Array, r: number) => {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += rows[(r - 1) * d + j]! * q[j]!;
      return dot;
    };
    let hits = 0;
    let total = 0;
    for (const [i, q] of queries.entries()) {
      for (const share of [0.02, 0.2, 0.7, 1]) {
        const accept = (r: number) => ((r * 2654435761 + i * 40503) >>> 0) % 1000 < share * 1000;
        const known = rowids.filter(accept);
        const truth = known.map((r) => cosine(q, r)).sort((a, b) => b - a);
        const tenth = truth[Math.min(9, truth.length - 1)]!;
        const want = Math.min(10, known.length);
        // An exact search of the known rows, and the graphs' filtered search.
        for (const got of [
          store.exact(q, known, 10),
          store.filtered(q, 10, Math.ceil(30 / share), 4096, accept),
        ]) {
          expect(got.every((h) => accept(h.rowid))).toBe(true);
          // Scores are the f16 rows' (the saved file's), not i8 estimates.
          for (const h of got) expect(h.similarity).toBe(store.similarity(q, h.rowid));
          // f16 rounding moves a cosine by well under 1e-4: ties within it are hits.
          hits += Math.min(want, got.filter((h) => cosine(q, h.rowid) >= tenth - 1e-4).length);
          total += want;
        }
      }
    }
    expect(hits / total).toBeGreaterThanOrEqual(0.98);
    store.close();
  });
});
