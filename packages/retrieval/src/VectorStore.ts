/**
 * The vectors of one collection, keyed by SQLite rowid, held twice: an f16 matrix (the
 * precise copy: cosine, reranking, saving) and an i8 matrix (each row scaled to its own
 * largest component) for fast native exact scans over any subset of rows — plus, once
 * the collection holds a block of rows, USearch HNSW graphs (`GraphSegments`) that
 * propose candidates for NPCs whose known set is a large share of the world.
 *
 * An exact scan gathers the NPC's rows as i8, scans them natively and reranks the best
 * few from f16: several times faster than gathering and scanning f32, with the same
 * top results. Everything is a cache of SQLite: `VectorFiles` saves it beside the
 * database and `CollectionIndex` decides when to trust, repair or rebuild it. Adds are
 * batched; the graphs are brought in step after every batch of puts.
 */
import { availableParallelism } from "node:os";
import type { Matches } from "usearch";
import { GraphSegments, type SegmentRows, type SegmentShape } from "./GraphSegments.ts";
import { HALF_TABLE, toHalfInto } from "./halfFloat.ts";
import { nativeScan, quantizeInto } from "./nativeScan.ts";
import { newGraph } from "./newGraph.ts";

/** Tunables of a store. */
export interface VectorStoreConfig {
  readonly dimensions: number;
  /**
   * Rows per graph segment: graphs exist once the store holds this many vectors
   * (default 1,024; see `GraphSegments`).
   */
  readonly hnswMinSize?: number;
  /** Segments of one size merged into one of the next (default 8). */
  readonly fanout?: number;
  readonly connectivity?: number;
  readonly expansionAdd?: number;
  /** Search breadth; a search asking for more candidates widens it to that many. */
  readonly expansionSearch?: number;
  /**
   * Threads a rebuild builds graph segments on (default: the machine's parallelism).
   * The graphs are the same whatever it is (`buildInWorkers`).
   */
  readonly buildThreads?: number;
  /**
   * Keep HNSW graphs at all (default true). False for callers that only ever rank
   * exactly (index mode `disabled`'s exact scans, tests of the exact path): no graph is
   * built, loaded or saved; a later caller that wants them builds them from the vectors.
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
  /**
   * The HNSW graphs of each save (by group number): a save's graphs hold only its own
   * rows, so their layout is what a replay of that save alone builds.
   */
  private readonly graphsBy = new Map<number, GraphSegments>();
  /** slot → the group (save) its row belongs to. */
  private groupAt = new Int32Array(1024);
  /** group → save id ("" for rows put without one). */
  private readonly groupNames: Array<string> = [];
  private readonly groupOf = new Map<string, number>();
  private scratch = new Int8Array(0);
  /** The rows an exact scan keeps (those present), reused between scans. */
  private present = new Int32Array(0);

  constructor(config: VectorStoreConfig) {
    this.dimensions = config.dimensions;
    this.config = {
      dimensions: config.dimensions,
      hnswMinSize: config.hnswMinSize ?? 1024,
      fanout: config.fanout ?? 8,
      connectivity: config.connectivity ?? 16,
      expansionAdd: config.expansionAdd ?? 64,
      expansionSearch: config.expansionSearch ?? 128,
      buildThreads: config.buildThreads ?? availableParallelism(),
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

  /** True when at least one HNSW graph is built. */
  get hasGraph(): boolean {
    for (const g of this.graphsBy.values()) if (g.segments.length > 0) return true;
    return false;
  }

  /** The group number of a save id, made on first use. */
  private group(save: string): number {
    let g = this.groupOf.get(save);
    if (g === undefined) {
      g = this.groupNames.length;
      this.groupNames.push(save);
      this.groupOf.set(save, g);
    }
    return g;
  }

  /** One save's graphs ("" for rows put without a save). */
  graphsOf(save = ""): GraphSegments {
    const g = this.group(save);
    let graphs = this.graphsBy.get(g);
    if (!graphs) {
      graphs = new GraphSegments({
        dimensions: this.dimensions,
        block: Math.max(2, this.config.hnswMinSize),
        fanout: Math.max(2, this.config.fanout),
        connectivity: this.config.connectivity,
        expansionAdd: this.config.expansionAdd,
        expansionSearch: this.config.expansionSearch,
        buildThreads: this.config.buildThreads,
      });
      this.graphsBy.set(g, graphs);
    }
    return graphs;
  }

  /** The save a row was put for ("" when none was given). */
  saveOf(rowid: number): string {
    return this.has(rowid) ? this.groupNames[this.groupAt[this.slotOf[rowid]! - 1]!]! : "";
  }

  /** True when graphs are kept at all (`graph` not false). */
  get keepsGraphs(): boolean {
    return this.config.graph;
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
  slots(): {
    rowids: Int32Array;
    fingerprints: Uint32Array;
    groups: Int32Array;
    saves: ReadonlyArray<string>;
    half: Uint16Array;
    used: number;
  } {
    return {
      rowids: this.rowidAt.subarray(0, this.used),
      fingerprints: this.fpAt.subarray(0, this.used),
      groups: this.groupAt.subarray(0, this.used),
      saves: this.groupNames,
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
      const g = new Int32Array(n);
      g.set(this.groupAt);
      this.groupAt = g;
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
   * floats (unit length). The graphs are then brought in step (see `GraphSegments`) —
   * unless `buildGraph` is false (bulk loads sync them once at the end). `saves` names
   * each row's save (default: none), whose graphs it goes to. `sameAs[i]`, when given and
   * not negative, names an earlier row of this call whose vector row `i` repeats: its
   * stored form is copied rather than encoded again.
   */
  put(
    rowids: ArrayLike<number>,
    fingerprints: ArrayLike<number>,
    vectors: Float32Array,
    buildGraph = true,
    saves?: ArrayLike<string>,
    sameAs?: ArrayLike<number>,
  ): void {
    const d = this.dimensions;
    if (vectors.length !== rowids.length * d) {
      throw new RangeError(
        `VectorStore.put: ${vectors.length} floats for ${rowids.length} rows of ${d}`,
      );
    }
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      this.grow(rowid);
      let slot = this.slotOf[rowid]! - 1;
      if (slot < 0) {
        slot = this.allocSlot();
        this.slotOf[rowid] = slot + 1;
        this.rowidAt[slot] = rowid;
        this.live++;
      } else {
        // A replaced vector: the graph that holds the old one must not be trusted for it.
        this.graphsOf(this.groupNames[this.groupAt[slot]!]!).touched(rowid);
      }
      const save = saves ? saves[i]! : "";
      this.groupAt[slot] = this.group(save);
      this.graphsOf(save).touched(rowid);
      this.fpAt[slot] = fingerprints[i]! >>> 0;
      const same = sameAs === undefined ? -1 : sameAs[i]!;
      if (same >= 0 && same < i) {
        const from = (this.slotOf[rowids[same]!]! - 1) * d;
        this.half.copyWithin(slot * d, from, from + d);
        this.q8.copyWithin(slot * d, from, from + d);
        continue;
      }
      const v = vectors.subarray(i * d, (i + 1) * d);
      toHalfInto(vectors, i * d, this.half, slot * d, d);
      quantizeInto(v, this.q8, slot * d, d);
    }
    if (buildGraph) this.syncGraphs();
  }

  /** Removes rowids (absent ones are ignored). A graph keeps them; its hits skip them. */
  remove(rowids: ArrayLike<number>): void {
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      if (!this.has(rowid)) continue;
      const slot = this.slotOf[rowid]! - 1;
      this.slotOf[rowid] = 0;
      this.rowidAt[slot] = -1;
      this.freeSlots.push(slot);
      this.live--;
    }
  }

  /** What one save's graphs read from the store: its rows only. */
  private rowsOf(group: number): SegmentRows {
    const mine = (r: number) => {
      const slot = this.slotOf[r]!;
      return slot > 0 && this.groupAt[slot - 1] === group;
    };
    /** This save's rowids in [lo, hi), at most `limit` of them, in order. */
    const collect = (lo: number, hi: number, limit: number) => {
      const out: Array<number> = [];
      const end = Math.min(hi, this.slotOf.length);
      for (let r = Math.max(0, lo); r < end && out.length < limit; r++) if (mine(r)) out.push(r);
      return Int32Array.from(out);
    };
    return {
      rowidsFrom: (from, limit = Number.POSITIVE_INFINITY) =>
        collect(from, Number.POSITIVE_INFINITY, limit),
      rowidsIn: (lo, hi) => collect(lo, hi, Number.POSITIVE_INFINITY),
      vectorsOf: (rowids) => {
        const d = this.dimensions;
        const out = new Float32Array(rowids.length * d);
        for (let j = 0; j < rowids.length; j++) {
          const o = (this.slotOf[rowids[j]!]! - 1) * d;
          for (let x = 0; x < d; x++) out[j * d + x] = HALF_TABLE[this.half[o + x]!]!;
        }
        return out;
      },
      halvesOf: (rowids) => {
        const d = this.dimensions;
        const out = new Uint16Array(rowids.length * d);
        for (let j = 0; j < rowids.length; j++) {
          const o = (this.slotOf[rowids[j]!]! - 1) * d;
          out.set(this.half.subarray(o, o + d), j * d);
        }
        return out;
      },
    };
  }

  /**
   * Seals and merges graph segments as the stored rows call for (nothing with
   * `graph: false`); returns the rows added to graphs.
   */
  syncGraphs(onProgress?: (done: number, total: number) => void): number {
    if (!this.config.graph) return 0;
    let added = 0;
    for (let g = 0; g < this.groupNames.length; g++) {
      added += this.graphsOf(this.groupNames[g]!).sync(this.rowsOf(g), onProgress);
    }
    return added;
  }

  /** Drops every graph and builds them afresh from the stored vectors. */
  buildGraph(onProgress?: (done: number, total: number) => void): void {
    for (const g of this.graphsBy.values()) g.clear();
    this.syncGraphs(onProgress);
  }

  /** Every save's graph segment layouts, oldest first within a save. */
  graphShapes(): Array<SegmentShape & { readonly save: string; readonly at: number }> {
    const out: Array<SegmentShape & { readonly save: string; readonly at: number }> = [];
    for (const [g, graphs] of this.graphsBy) {
      const save = this.groupNames[g]!;
      graphs.segments.forEach((s, at) => {
        out.push({ save, at, level: s.level, lo: s.lo, hi: s.hi, count: s.rowids.length });
      });
    }
    return out;
  }

  /** Rows scanned exactly because their vector changed after their graph was built. */
  staleRows(): Array<number> {
    const out: Array<number> = [];
    for (const g of this.graphsBy.values()) out.push(...g.stale);
    return out.sort((a, b) => a - b);
  }

  /** Saves one segment's graph to `path`. */
  saveSegment(save: string, at: number, path: string): void {
    this.graphsOf(save).segments[at]!.graph.save(path);
  }

  /**
   * Loads saved segments (each save's in order, each from `pathOf(shape)`). A save whose
   * segments do not all load — a file unreadable or out of step with the stored rows —
   * keeps none; {@link syncGraphs} rebuilds them. Returns how many loaded.
   */
  loadSegments<S extends SegmentShape & { readonly save: string }>(
    shapes: ReadonlyArray<S>,
    pathOf: (s: S) => string | null,
    stale: ReadonlyArray<number>,
  ): number {
    if (!this.config.graph) return 0;
    for (const g of this.graphsBy.values()) g.clear();
    const bySave = new Map<string, Array<S>>();
    for (const s of shapes) bySave.set(s.save, [...(bySave.get(s.save) ?? []), s]);
    let loaded = 0;
    for (const [save, list] of bySave) {
      const graphs = this.graphsOf(save);
      const rows = this.rowsOf(this.group(save));
      let ok = true;
      for (const shape of list) {
        const path = pathOf(shape);
        if (path === null) {
          ok = false;
          break;
        }
        try {
          const graph = newGraph(this.dimensions, this.config);
          graph.load(path);
          if (graph.dimensions() !== this.dimensions || !graphs.adopt(shape, graph, rows)) {
            ok = false;
            break;
          }
        } catch {
          ok = false;
          break;
        }
      }
      if (!ok) {
        // A partial layout cannot carry the stale marks of the lost segments: start over.
        graphs.clear();
        continue;
      }
      loaded += list.length;
      for (const r of stale) if (this.has(r) && this.saveOf(r) === save) graphs.touched(r);
    }
    return loaded;
  }

  /** Restores slots saved by {@link slots} (replacing everything; no graph). */
  restore(
    rowids: Int32Array,
    fingerprints: Uint32Array,
    half: Uint16Array,
    groups?: Int32Array,
    saves: ReadonlyArray<string> = [""],
  ): void {
    const d = this.dimensions;
    const cap = Math.max(1024, rowids.length);
    this.slotOf = new Int32Array(1024);
    this.rowidAt = new Int32Array(cap).fill(-1);
    this.fpAt = new Uint32Array(cap);
    this.groupAt = new Int32Array(cap);
    this.half = new Uint16Array(cap * d);
    this.q8 = new Int8Array(cap * d);
    this.used = 0;
    this.live = 0;
    this.freeSlots.length = 0;
    this.graphsBy.clear();
    const groupOfSaved = saves.map((save) => this.group(save));
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
      this.groupAt[slot] = groupOfSaved[groups ? groups[i]! : 0] ?? this.group("");
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
    return Array.from(this.scanDotRaw(rows, n, q, count)?.keys ?? [], Number);
  }

  /** {@link scanDot} as the native scan returns it: positions and distances, or null. */
  scanDotRaw(rows: Int8Array, n: number, q: Int8Array, count: number): Matches | null {
    return nativeScan(rows, n, q, this.dimensions, count, "ip");
  }

  /** A query as the i8 scans take it. */
  quantize(query: Float32Array): Int8Array {
    const q = new Int8Array(this.dimensions);
    quantizeInto(query, q, 0, this.dimensions);
    return q;
  }

  /** Positions of the best `count` of `n` contiguous i8 rows for an i8 query (native scan). */
  scanQuantized(rows: Int8Array, n: number, q: Int8Array, count: number): Array<number> {
    return Array.from(nativeScan(rows, n, q, this.dimensions, count, "cos")?.keys ?? [], Number);
  }

  /**
   * Exact top-`k` over the given rowids (absent ones skipped), by cosine. Small sets are
   * scored in JS from f16; larger ones are gathered as i8, scanned natively, and the
   * best `4k` (at least 40) reranked from f16.
   */
  exact(query: Float32Array, rowids: ArrayLike<number>, k: number): Array<Scored> {
    const d = this.dimensions;
    if (k <= 0 || rowids.length === 0) return [];
    if (this.present.length < rowids.length) {
      this.present = new Int32Array(Math.max(rowids.length, this.present.length * 2));
    }
    const present = this.present;
    let n = 0;
    for (let i = 0; i < rowids.length; i++) if (this.has(rowids[i]!)) present[n++] = rowids[i]!;
    if (n === 0) return [];
    if (n < EXACT_NATIVE_MIN) {
      const scored: Array<Scored> = [];
      for (let j = 0; j < n; j++) {
        scored.push({ rowid: present[j]!, similarity: this.similarity(query, present[j]!) });
      }
      return scored.sort(bySimilarity).slice(0, k);
    }
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
   * The best `k` rows `accept` takes, by cosine from f16: candidates from every graph
   * segment (each searched for `start` candidates, widened while too few are accepted,
   * scanned exactly past `maxCandidates`), plus an exact scan of the accepted rows no
   * graph holds (the tail and stale rows). Without graphs it is an exact scan of every
   * accepted row. Only the graphs and rows of `save` are searched.
   */
  filtered(
    query: Float32Array,
    k: number,
    start: number,
    maxCandidates: number,
    accept: (rowid: number) => boolean,
    save = "",
  ): Array<Scored> {
    if (k <= 0 || this.live === 0) return [];
    const exactRows: Array<number> = [];
    const group = this.group(save);
    const graphs = this.graphsOf(save);
    const live = (r: number) => this.has(r);
    const candidates = graphs.candidates(query, k, start, maxCandidates, live, accept, (rows) => {
      for (let i = 0; i < rows.length; i++) exactRows.push(rows[i]!);
    });
    const frontier = graphs.frontier;
    for (let r = frontier; r < this.slotOf.length; r++) {
      const slot = this.slotOf[r]!;
      if (slot > 0 && this.groupAt[slot - 1] === group && accept(r)) exactRows.push(r);
    }
    for (const r of graphs.stale) if (this.has(r) && accept(r)) exactRows.push(r);
    const scored = this.exact(query, exactRows, k);
    for (const rowid of candidates)
      scored.push({ rowid, similarity: this.similarity(query, rowid) });
    return scored.sort(bySimilarity).slice(0, k);
  }
}
