/**
 * A coarse partition of one vector store's rows into a few clusters ("lists", k-means
 * over a deterministic sample of the store), so a scan over a large known set can read
 * only the clusters nearest the query — an inverted-file layout as in FAISS's IVF.
 * `KnownMatrices` keeps big known-set copies grouped by list and scans the best lists
 * first; reading a third of a 40k-row copy instead of all of it is what keeps those
 * dossiers within budget, since such a scan is bound by memory bandwidth.
 *
 * Everything here is a cache of the store: centroids come from its vectors, and each
 * row's list is assigned once (natively, in batches) and kept by rowid. A row whose
 * vector is later replaced keeps its list — that can only cost recall, never add an
 * item: lists choose what is scanned, the NPC's knowledge still filters every hit.
 */
import usearch, { type BatchMatches, type Matches } from "usearch";
import { KeySlots } from "./KeySlots.ts";
import type { VectorStore } from "./VectorStore.ts";

/** Sample rows per list used to train the centroids. */
const SAMPLE_PER_LIST = 64;
const ITERATIONS = 6;
const BATCH = 2048;

export class CoarseLists {
  /** by rowid: list + 1 (0: not assigned yet). */
  /** rowid → list + 1 (0: not assigned yet). */
  private readonly listOf = new KeySlots();
  private readonly centroidsQ: Int8Array;

  private constructor(
    readonly store: VectorStore,
    readonly count: number,
    /** count × dimensions, unit rows. */
    private readonly centroids: Float32Array,
  ) {
    const d = store.dimensions;
    this.centroidsQ = new Int8Array(count * d);
    for (let c = 0; c < count; c++) {
      this.centroidsQ.set(store.quantize(centroids.subarray(c * d, (c + 1) * d)), c * d);
    }
  }

  /**
   * Trains `count` lists on an evenly spaced sample of the store (rowid order, so the
   * same store gives the same lists); null when the store is too small to split.
   */
  static train(store: VectorStore, count: number): CoarseLists | null {
    const d = store.dimensions;
    const { rowids } = store.entries();
    if (count < 2 || rowids.length < count * 16) return null;
    const n = Math.min(rowids.length, count * SAMPLE_PER_LIST);
    const sample = Array.from(
      { length: n },
      (_, i) => rowids[Math.floor((i * rowids.length) / n)]!,
    );
    const sampleQ = new Int8Array(n * d);
    sample.forEach((r, i) => {
      store.copyQuantized(r, sampleQ, i * d);
    });
    const centroids = new Float32Array(count * d);
    for (let c = 0; c < count; c++) {
      centroids.set(store.vector(sample[Math.floor((c * n) / count)]!)!, c * d);
    }
    for (let it = 0; it < ITERATIONS; it++) {
      const lists = new CoarseLists(store, count, centroids);
      const assigned = lists.nearestLists(sampleQ, n);
      const sum = new Float32Array(count * d);
      const members = new Int32Array(count);
      for (let i = 0; i < n; i++) {
        const c = assigned[i]!;
        const v = store.vector(sample[i]!)!;
        for (let j = 0; j < d; j++) sum[c * d + j]! += v[j]!;
        members[c]!++;
      }
      for (let c = 0; c < count; c++) {
        if (members[c] === 0) continue; // an empty list keeps its centroid
        let norm = 0;
        for (let j = 0; j < d; j++) norm += sum[c * d + j]! ** 2;
        norm = Math.sqrt(norm) || 1;
        for (let j = 0; j < d; j++) centroids[c * d + j] = sum[c * d + j]! / norm;
      }
    }
    return new CoarseLists(store, count, centroids);
  }

  /** The nearest centroid of each of `n` i8 rows (per-row scale, cosine). */
  private nearestLists(rows: Int8Array, n: number): Int32Array {
    const d = this.store.dimensions;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i += BATCH) {
      const m = Math.min(BATCH, n - i);
      // A copy, not a subarray: the native scan reads from the start of the buffer.
      const found = usearch.exactSearch(
        this.centroidsQ,
        rows.slice(i * d, (i + m) * d),
        d,
        1,
        usearch.MetricKind.Cos,
        1,
      ) as Matches | BatchMatches;
      for (let j = 0; j < m; j++) out[i + j] = Number(found.keys[j]);
    }
    return out;
  }

  /** The list of each rowid (assigned on first ask; -1 for a row without a vector). */
  listsOf(rowids: ArrayLike<number>): Int32Array {
    const d = this.store.dimensions;
    const missing: Array<number> = [];
    for (let i = 0; i < rowids.length; i++) {
      const r = rowids[i]!;
      if (this.listOf.get(r) === 0 && this.store.has(r)) missing.push(r);
    }
    if (missing.length > 0) {
      const rows = new Int8Array(missing.length * d);
      missing.forEach((r, i) => {
        this.store.copyQuantized(r, rows, i * d);
      });
      const lists = this.nearestLists(rows, missing.length);
      missing.forEach((r, i) => {
        this.listOf.set(r, lists[i]! + 1);
      });
    }
    const out = new Int32Array(rowids.length);
    for (let i = 0; i < rowids.length; i++) {
      const r = rowids[i]!;
      out[i] = this.listOf.get(r) - 1;
    }
    return out;
  }

  /** Every list, nearest the query first (ties by list number). */
  rank(query: Float32Array): Int32Array {
    const d = this.store.dimensions;
    const sims = new Float64Array(this.count);
    for (let c = 0; c < this.count; c++) {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += this.centroids[c * d + j]! * query[j]!;
      sims[c] = dot;
    }
    return Int32Array.from({ length: this.count }, (_, i) => i).sort(
      (a, b) => sims[b]! - sims[a]! || a - b,
    );
  }
}
