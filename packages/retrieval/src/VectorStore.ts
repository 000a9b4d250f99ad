/**
 * The vectors of one collection, keyed by SQLite rowid, held twice: an f16 matrix (the
 * precise copy: cosine, reranking, saving) and an i8 matrix (each row scaled to its own
 * largest component) for fast native exact scans over any subset of rows — plus, once
 * the collection is big enough for it to pay, a USearch HNSW graph (i8) that proposes
 * candidates for NPCs whose known set is a large share of the world.
 *
 * An exact scan gathers the NPC's rows as i8, scans them natively and reranks the best
 * few from f16: several times faster than gathering and scanning f32, with the same
 * top results. Everything is a cache of SQLite: `VectorFiles` saves it beside the
 * database and `CollectionIndex` decides when to trust, repair or rebuild it. Adds are
 * batched; the graph is kept in step with every put and remove once it exists.
 */
import usearch, { type Index, type Matches } from "usearch";
import { HALF_TABLE, toHalf } from "./halfFloat.ts";

/** Tunables of a store. */
export interface VectorStoreConfig {
  readonly dimensions: number;
  /** Build the HNSW graph once the store holds this many vectors (default 8,192). */
  readonly hnswMinSize?: number;
  readonly connectivity?: number;
  readonly expansionAdd?: number;
  /** Search breadth; a search asking for more candidates widens it to that many. */
  readonly expansionSearch?: number;
  /** Threads for HNSW adds (0: all cores). */
  readonly threads?: number;
  /**
   * Keep an HNSW graph at all (default true). False for callers that only ever rank
   * exactly (the engine's runs): no graph is built, loaded, updated or saved, which saves
   * the graph's upkeep on every added vector; a later caller that wants one builds it
   * from the vectors when it opens the index.
   */
  readonly graph?: boolean;
}

/** A rowid with its cosine similarity to a query. */
export interface Scored {
  readonly rowid: number;
  readonly similarity: number;
}

/** Below this many rows an exact scan is done in JS (no gather). */
const EXACT_NATIVE_MIN = 192;
/** Candidates an i8 scan keeps for the f16 rerank: `k` × this, at least `RERANK_MIN`. */
const RERANK_FACTOR = 4;
const RERANK_MIN = 40;

/** Writes a row as i8, scaled so its largest component is ±127 (cosine ignores scale). */
const quantizeInto = (v: ArrayLike<number>, out: Int8Array, at: number, d: number): void => {
  let m = 0;
  for (let i = 0; i < d; i++) m = Math.max(m, Math.abs(v[i]!));
  const scale = m > 0 ? 127 / m : 0;
  for (let i = 0; i < d; i++) out[at + i] = Math.round(v[i]! * scale);
};

const bySimilarity = (a: Scored, b: Scored) => b.similarity - a.similarity || a.rowid - b.rowid;

export class VectorStore {
  readonly dimensions: number;
  readonly hnswMinSize: number;
  private readonly config: Required<VectorStoreConfig>;
  /** rowid → slot + 1 (0: absent). */
  private slotOf = new Int32Array(1024);
  /** slot → rowid (-1: free). */
  private rowidAt = new Int32Array(1024).fill(-1);
  /** slot → fingerprint of the text the vector was made from. */
  private fpAt = new Uint32Array(1024);
  /** slot × dimensions, f16 bits. */
  private half: Uint16Array;
  /** slot × dimensions, per-row scaled i8. */
  private q8: Int8Array;
  private used = 0;
  private live = 0;
  private readonly freeSlots: Array<number> = [];
  private hnsw: Index | null = null;
  private scratch = new Int8Array(0);

  constructor(config: VectorStoreConfig) {
    this.dimensions = config.dimensions;
    this.config = {
      dimensions: config.dimensions,
      hnswMinSize: config.hnswMinSize ?? 8192,
      connectivity: config.connectivity ?? 16,
      expansionAdd: config.expansionAdd ?? 128,
      expansionSearch: config.expansionSearch ?? 128,
      threads: config.threads ?? 0,
      graph: config.graph ?? true,
    };
    this.hnswMinSize = this.config.hnswMinSize;
    this.half = new Uint16Array(1024 * config.dimensions);
    this.q8 = new Int8Array(1024 * config.dimensions);
  }

  /** Live vectors. */
  get size(): number {
    return this.live;
  }

  /** True when an HNSW graph is built. */
  get hasGraph(): boolean {
    return this.hnsw !== null;
  }

  has(rowid: number): boolean {
    return rowid >= 0 && rowid < this.slotOf.length && this.slotOf[rowid]! > 0;
  }

  /** The fingerprint stored with a rowid's vector, if present. */
  fingerprint(rowid: number): number | undefined {
    return this.has(rowid) ? this.fpAt[this.slotOf[rowid]! - 1] : undefined;
  }

  /** A rowid's vector, decoded from f16 (a copy). */
  vector(rowid: number): Float32Array | undefined {
    if (!this.has(rowid)) return undefined;
    const d = this.dimensions;
    const o = (this.slotOf[rowid]! - 1) * d;
    const out = new Float32Array(d);
    for (let i = 0; i < d; i++) out[i] = HALF_TABLE[this.half[o + i]!]!;
    return out;
  }

  /** Every live rowid with its fingerprint, in rowid order. */
  entries(): { rowids: Int32Array; fingerprints: Uint32Array } {
    const rowids = new Int32Array(this.live);
    const fingerprints = new Uint32Array(this.live);
    let n = 0;
    for (let r = 0; r < this.slotOf.length; r++) {
      const s = this.slotOf[r]!;
      if (s > 0) {
        rowids[n] = r;
        fingerprints[n] = this.fpAt[s - 1]!;
        n++;
      }
    }
    return { rowids, fingerprints };
  }

  /** The raw slots (f16 bits) and their rowids, for saving. */
  slots(): { rowids: Int32Array; fingerprints: Uint32Array; half: Uint16Array; used: number } {
    return {
      rowids: this.rowidAt.subarray(0, this.used),
      fingerprints: this.fpAt.subarray(0, this.used),
      half: this.half.subarray(0, this.used * this.dimensions),
      used: this.used,
    };
  }

  private grow(rowid: number): void {
    if (rowid < this.slotOf.length) return;
    let n = this.slotOf.length;
    while (n <= rowid) n *= 2;
    const next = new Int32Array(n);
    next.set(this.slotOf);
    this.slotOf = next;
  }

  private allocSlot(): number {
    const reused = this.freeSlots.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.rowidAt.length) {
      const n = this.rowidAt.length * 2;
      const d = this.dimensions;
      const r = new Int32Array(n).fill(-1);
      r.set(this.rowidAt);
      this.rowidAt = r;
      const f = new Uint32Array(n);
      f.set(this.fpAt);
      this.fpAt = f;
      const h = new Uint16Array(n * d);
      h.set(this.half);
      this.half = h;
      const q = new Int8Array(n * d);
      q.set(this.q8);
      this.q8 = q;
    }
    return this.used++;
  }

  /**
   * Inserts or replaces vectors: `vectors` holds `rowids.length` rows of `dimensions`
   * floats (unit length). The HNSW graph, if built, is updated in one batch; if there is
   * none yet it is built once the store is big enough — unless `buildGraph` is false
   * (bulk loads build it once at the end).
   */
  put(
    rowids: ArrayLike<number>,
    fingerprints: ArrayLike<number>,
    vectors: Float32Array,
    buildGraph = true,
  ): void {
    const d = this.dimensions;
    if (vectors.length !== rowids.length * d) {
      throw new RangeError(
        `VectorStore.put: ${vectors.length} floats for ${rowids.length} rows of ${d}`,
      );
    }
    const replaced: Array<bigint> = [];
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      this.grow(rowid);
      let slot = this.slotOf[rowid]! - 1;
      if (slot < 0) {
        slot = this.allocSlot();
        this.slotOf[rowid] = slot + 1;
        this.rowidAt[slot] = rowid;
        this.live++;
      } else if (this.hnsw) replaced.push(BigInt(rowid));
      this.fpAt[slot] = fingerprints[i]! >>> 0;
      const v = vectors.subarray(i * d, (i + 1) * d);
      for (let j = 0; j < d; j++) this.half[slot * d + j] = toHalf(v[j]!);
      quantizeInto(v, this.q8, slot * d, d);
    }
    if (this.hnsw) {
      if (replaced.length > 0) this.hnsw.remove(BigUint64Array.from(replaced));
      if (rowids.length > 0) {
        this.hnsw.add(
          BigUint64Array.from(rowids, (r) => BigInt(r)),
          vectors,
          this.config.threads,
        );
      }
    } else if (buildGraph) this.maybeBuildGraph();
  }

  /** Removes rowids (absent ones are ignored). */
  remove(rowids: ArrayLike<number>): void {
    const gone: Array<bigint> = [];
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      if (!this.has(rowid)) continue;
      const slot = this.slotOf[rowid]! - 1;
      this.slotOf[rowid] = 0;
      this.rowidAt[slot] = -1;
      this.freeSlots.push(slot);
      this.live--;
      gone.push(BigInt(rowid));
    }
    if (this.hnsw && gone.length > 0) this.hnsw.remove(BigUint64Array.from(gone));
  }

  private newGraph(): Index {
    return new usearch.Index({
      dimensions: this.dimensions,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.I8,
      connectivity: this.config.connectivity,
      expansion_add: this.config.expansionAdd,
      expansion_search: this.config.expansionSearch,
      multi: false,
    });
  }

  /** Builds the HNSW graph if the store is big enough and has none. */
  maybeBuildGraph(onProgress?: (done: number, total: number) => void): void {
    if (!this.config.graph || this.hnsw || this.live < this.config.hnswMinSize) return;
    this.buildGraph(onProgress);
  }

  /** (Re)builds the HNSW graph from the stored vectors, in batches. */
  buildGraph(onProgress?: (done: number, total: number) => void): void {
    const graph = this.newGraph();
    const { rowids } = this.entries();
    const d = this.dimensions;
    const batch = 4096;
    const buf = new Float32Array(batch * d);
    for (let i = 0; i < rowids.length; i += batch) {
      const keys = rowids.subarray(i, Math.min(rowids.length, i + batch));
      for (let j = 0; j < keys.length; j++) {
        const o = (this.slotOf[keys[j]!]! - 1) * d;
        for (let x = 0; x < d; x++) buf[j * d + x] = HALF_TABLE[this.half[o + x]!]!;
      }
      graph.add(
        BigUint64Array.from(keys, (r) => BigInt(r)),
        buf.subarray(0, keys.length * d),
        this.config.threads,
      );
      onProgress?.(i + keys.length, rowids.length);
    }
    this.hnsw = graph;
  }

  /** Saves the HNSW graph to `path`; false when there is none. */
  saveGraph(path: string): boolean {
    if (!this.hnsw) return false;
    this.hnsw.save(path);
    return true;
  }

  /** Loads a saved HNSW graph; false (and no graph) when it is unreadable or out of step. */
  loadGraph(path: string): boolean {
    if (!this.config.graph) return false;
    try {
      const graph = this.newGraph();
      graph.load(path);
      if (graph.size() !== this.live || graph.dimensions() !== this.dimensions) return false;
      this.hnsw = graph;
      return true;
    } catch {
      return false;
    }
  }

  /** Restores slots saved by {@link slots} (replacing everything; no graph). */
  restore(rowids: Int32Array, fingerprints: Uint32Array, half: Uint16Array): void {
    const d = this.dimensions;
    const cap = Math.max(1024, rowids.length);
    this.slotOf = new Int32Array(1024);
    this.rowidAt = new Int32Array(cap).fill(-1);
    this.fpAt = new Uint32Array(cap);
    this.half = new Uint16Array(cap * d);
    this.q8 = new Int8Array(cap * d);
    this.used = 0;
    this.live = 0;
    this.freeSlots.length = 0;
    this.hnsw = null;
    this.half.set(half.subarray(0, rowids.length * d));
    const row = new Float32Array(d);
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      const slot = this.used++;
      if (rowid < 0) {
        this.freeSlots.push(slot);
        continue;
      }
      this.grow(rowid);
      this.slotOf[rowid] = slot + 1;
      this.rowidAt[slot] = rowid;
      this.fpAt[slot] = fingerprints[i]!;
      this.live++;
      for (let x = 0; x < d; x++) row[x] = HALF_TABLE[this.half[slot * d + x]!]!;
      quantizeInto(row, this.q8, slot * d, d);
    }
  }

  /** Cosine of a query to one stored row, from its f16 copy (0 when absent). */
  similarity(query: Float32Array, rowid: number): number {
    if (!this.has(rowid)) return 0;
    const d = this.dimensions;
    const o = (this.slotOf[rowid]! - 1) * d;
    const h = this.half;
    let dot = 0;
    for (let i = 0; i < d; i++) dot += HALF_TABLE[h[o + i]!]! * query[i]!;
    return dot;
  }

  /** Copies a row's i8 vector into `out` at `at`; false when the row has no vector. */
  copyQuantized(rowid: number, out: Int8Array, at: number): boolean {
    if (!this.has(rowid)) return false;
    const d = this.dimensions;
    const s = this.slotOf[rowid]! - 1;
    out.set(this.q8.subarray(s * d, (s + 1) * d), at);
    return true;
  }

  /**
   * The one scale {@link copyScaled} writes every row with: a unit vector's components
   * up to `8/√d` fit in ±127 (larger ones, rare, are clipped; the f16 rerank corrects
   * for them).
   */
  get commonScale(): number {
    return (127 * Math.sqrt(this.dimensions)) / 8;
  }

  /**
   * Copies a row into `out` at `at` as i8 at {@link commonScale}, so the inner product
   * of two such rows is proportional to their cosine (the rows are unit length); false
   * when the row has no vector. Such rows are scanned with {@link scanDot}.
   */
  copyScaled(rowid: number, out: Int8Array, at: number): boolean {
    if (!this.has(rowid)) return false;
    const d = this.dimensions;
    const o = (this.slotOf[rowid]! - 1) * d;
    const s = this.commonScale;
    for (let i = 0; i < d; i++) {
      const x = Math.round(HALF_TABLE[this.half[o + i]!]! * s);
      out[at + i] = Math.max(-127, Math.min(127, x));
    }
    return true;
  }

  /**
   * Positions of the best `count` of `n` contiguous rows written by {@link copyScaled},
   * by inner product with an i8 query (native SIMD scan). No norms are computed, so it
   * is about twice as fast per row as {@link scanQuantized}.
   */
  scanDot(rows: Int8Array, n: number, q: Int8Array, count: number): Array<number> {
    return this.scanDotScored(rows, n, q, count).positions;
  }

  /**
   * {@link scanDot} with each position's distance (smaller is nearer), so the results of
   * several blocks can be merged. `rows` must start its buffer: the native scan reads
   * from the buffer's start whatever a typed array's offset, so pass no subarray.
   */
  scanDotScored(
    rows: Int8Array,
    n: number,
    q: Int8Array,
    count: number,
  ): { readonly positions: Array<number>; readonly distances: Float32Array } {
    const d = this.dimensions;
    if (n === 0 || count <= 0) return { positions: [], distances: new Float32Array(0) };
    if (rows.byteOffset !== 0)
      throw new RangeError("VectorStore.scanDot: rows must start their buffer");
    const m = usearch.exactSearch(
      rows.subarray(0, n * d),
      q,
      d,
      Math.min(n, count),
      usearch.MetricKind.IP,
      1,
    ) as Matches;
    return { positions: Array.from(m.keys, Number), distances: m.distances };
  }

  /**
   * {@link scanDotScored} as the native scan returns it: row positions (as bigints) and
   * distances, best first, null when there is nothing to scan — no array per call.
   */
  scanDotRaw(
    rows: Int8Array,
    n: number,
    q: Int8Array,
    count: number,
  ): { readonly keys: BigUint64Array; readonly distances: Float32Array } | null {
    const d = this.dimensions;
    if (n === 0 || count <= 0) return null;
    if (rows.byteOffset !== 0)
      throw new RangeError("VectorStore.scanDot: rows must start their buffer");
    return usearch.exactSearch(
      rows.subarray(0, n * d),
      q,
      d,
      Math.min(n, count),
      usearch.MetricKind.IP,
      1,
    ) as Matches;
  }

  /** A query as the i8 scans take it. */
  quantize(query: Float32Array): Int8Array {
    const q = new Int8Array(this.dimensions);
    quantizeInto(query, q, 0, this.dimensions);
    return q;
  }

  /** Positions of the best `count` of `n` contiguous i8 rows for an i8 query (native scan). */
  scanQuantized(rows: Int8Array, n: number, q: Int8Array, count: number): Array<number> {
    const d = this.dimensions;
    if (n === 0 || count <= 0) return [];
    const m = usearch.exactSearch(
      rows.subarray(0, n * d),
      q,
      d,
      Math.min(n, count),
      usearch.MetricKind.Cos,
      1,
    ) as Matches;
    return Array.from(m.keys, Number);
  }

  /**
   * Exact top-`k` over the given rowids (absent ones skipped), by cosine. Small sets are
   * scored in JS from f16; larger ones are gathered as i8, scanned natively, and the
   * best `4k` (at least 40) reranked from f16.
   */
  exact(query: Float32Array, rowids: ArrayLike<number>, k: number): Array<Scored> {
    const present: Array<number> = [];
    for (let i = 0; i < rowids.length; i++) if (this.has(rowids[i]!)) present.push(rowids[i]!);
    const n = present.length;
    if (n === 0 || k <= 0) return [];
    if (n < EXACT_NATIVE_MIN) {
      const scored = present.map((rowid) => ({ rowid, similarity: this.similarity(query, rowid) }));
      return scored.sort(bySimilarity).slice(0, k);
    }
    const d = this.dimensions;
    if (this.scratch.length < n * d) {
      this.scratch = new Int8Array(Math.max(n * d, this.scratch.length * 2));
    }
    for (let j = 0; j < n; j++) {
      const s = this.slotOf[present[j]!]! - 1;
      this.scratch.set(this.q8.subarray(s * d, (s + 1) * d), j * d);
    }
    const best = this.scanQuantized(
      this.scratch,
      n,
      this.quantize(query),
      Math.max(k * RERANK_FACTOR, RERANK_MIN),
    );
    const out = best.map((at) => ({
      rowid: present[at]!,
      similarity: this.similarity(query, present[at]!),
    }));
    return out.sort(bySimilarity).slice(0, k);
  }

  /**
   * Up to `kPrime` candidates near the query, reranked by cosine from f16. Uses the HNSW
   * graph when built, else scans every vector.
   */
  nearest(query: Float32Array, kPrime: number): Array<Scored> {
    if (!this.hnsw) return this.exact(query, this.entries().rowids, kPrime);
    const m = this.hnsw.search(query, Math.min(kPrime, this.live), 1);
    const out: Array<Scored> = [];
    for (let i = 0; i < m.keys.length; i++) {
      const rowid = Number(m.keys[i]);
      if (this.has(rowid)) out.push({ rowid, similarity: this.similarity(query, rowid) });
    }
    return out.sort(bySimilarity);
  }
}
