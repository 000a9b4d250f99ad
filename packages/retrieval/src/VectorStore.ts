/**
 * The vectors of one collection, keyed by SQLite rowid: the rows themselves, i8 in memory
 * and f16 mostly in the saved vectors file (`VectorRows`), exact scans over any subset of
 * them (`ExactScan`: i8 ranks, f16 scores the best few) and, once the collection holds a
 * block of rows, each save's HNSW graphs (`SaveGraphs`) that propose candidates for NPCs
 * whose known set is a large share of the world.
 *
 * The memory per vector is the i8 row (384 B at 384-d) plus its share of the graphs.
 * Everything is a cache of SQLite: `VectorFiles` saves it beside the database and
 * `CollectionIndex` decides when to trust, repair or rebuild it. Adds are batched; the
 * graphs are brought in step after every batch of puts.
 */
import { availableParallelism } from "node:os";
import { ExactScan, type Scored } from "./ExactScan.ts";
import type { GraphSegments, SegmentShape } from "./GraphSegments.ts";
import { SaveGraphs } from "./SaveGraphs.ts";
import { VectorRows } from "./VectorRows.ts";

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

export type { Scored } from "./ExactScan.ts";

/**
 * Puts the rows a search is about to read that the store does not hold yet: `rowids` of
 * `save`, each embedded from its `textColumns` values (`valuesOf(i)` for `rowids[i]`).
 */
export type FillRows = (
  rowids: ArrayLike<number>,
  save: string,
  valuesOf: (i: number) => ReadonlyArray<unknown>,
) => void;

export class VectorStore {
  readonly dimensions: number;
  readonly hnswMinSize: number;
  private readonly rows: VectorRows;
  private readonly graphs: SaveGraphs;
  private readonly scan: ExactScan;
  private rowChanges = 0;
  /**
   * Set when the store holds only the rows searches have asked for (`CollectionIndex`'s
   * on-demand collections): a search calls it with every row it may read before reading.
   */
  onDemand: FillRows | null = null;

  constructor(config: VectorStoreConfig) {
    this.dimensions = config.dimensions;
    this.hnswMinSize = config.hnswMinSize ?? 1024;
    this.rows = new VectorRows(config.dimensions);
    this.graphs = new SaveGraphs(
      this.rows,
      {
        dimensions: config.dimensions,
        block: Math.max(2, this.hnswMinSize),
        fanout: Math.max(2, config.fanout ?? 8),
        connectivity: config.connectivity ?? 16,
        expansionAdd: config.expansionAdd ?? 64,
        expansionSearch: config.expansionSearch ?? 128,
        buildThreads: config.buildThreads ?? availableParallelism(),
      },
      config.graph ?? true,
    );
    this.scan = new ExactScan(this.rows);
  }

  /**
   * Changes to the rows so far (puts, removals, restores): an answer computed from the
   * rows alone (an exact scan's) holds while this is unchanged.
   */
  get version(): number {
    return this.rowChanges;
  }

  /** Live vectors. */
  get size(): number {
    return this.rows.size;
  }

  /**
   * Bytes this store keeps in memory for search, graphs excepted: the i8 rows, the f16
   * rows not yet saved, the rowid maps and the scan buffers.
   */
  get residentBytes(): number {
    return this.rows.residentBytes + this.scan.residentBytes;
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
    const copyOf = new Float64Array(rowids.length);
    for (let i = 0; i < rowids.length; i++) {
      const same = sameAs === undefined ? -1 : sameAs[i]!;
      copyOf[i] = same >= 0 && same < i ? rowids[same]! : -1;
    }
    this.putRows(
      rowids,
      fingerprints,
      saves ?? new Array<string>(rowids.length).fill(""),
      copyOf,
      (i) => vectors.subarray(i * d, (i + 1) * d),
      buildGraph,
    );
  }

  /**
   * {@link put} row by row, each as a copy or a vector: row `i` repeats the vector of the
   * row `copyOf[i]` (negative: none) — when that row is held, its stored form is copied
   * and `vectorOf(i)` is never asked for; otherwise `vectorOf(i)` is encoded. No flat
   * array of every row's vector is made.
   */
  putRows(
    rowids: ArrayLike<number>,
    fingerprints: ArrayLike<number>,
    saves: ArrayLike<string>,
    copyOf: ArrayLike<number>,
    vectorOf: (i: number) => Float32Array,
    buildGraph = true,
  ): void {
    this.rowChanges++;
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      const from = copyOf[i]!;
      const copy = from >= 0 && from !== rowid && this.rows.has(from);
      const vector = copy ? null : vectorOf(i);
      if (vector !== null && vector.length !== this.dimensions) {
        throw new RangeError(
          `VectorStore.putRows: ${vector.length} floats for a row of ${this.dimensions}`,
        );
      }
      this.putRow(rowid, fingerprints[i]!, vector, saves[i]!, copy ? from : -1);
    }
    if (buildGraph) this.syncGraphs();
  }

  /** One row of {@link put}: stored, then shown to the graphs of its save (and its old one's). */
  private putRow(
    rowid: number,
    fingerprint: number,
    vector: Float32Array | null,
    save: string,
    sameAs: number,
  ): void {
    const was = this.rows.put(rowid, fingerprint, vector, save, sameAs);
    // Without graphs (an NPC's own memories in a run) no row is ever in a graph's range.
    if (!this.graphs.keep) return;
    // A replaced vector: the graph that holds the old one must not be trusted for it.
    // The old save's graphs are asked for before the new one's: the order graphs are
    // first made in is the order their segments are listed and saved in.
    if (was >= 0) this.graphs.ofGroup(was).touched(rowid);
    this.graphs.of(save).touched(rowid);
  }

  /** Removes rowids (absent ones are ignored). A graph keeps them; its hits skip them. */
  remove(rowids: ArrayLike<number>): void {
    const held = this.rows.size;
    this.rows.remove(rowids);
    if (this.rows.size !== held) this.rowChanges++;
  }

  /**
   * Writes the one-bit sketches of every row not sketched yet; a large scan otherwise
   * writes those it reads on the way.
   */
  codePending(): void {
    this.rows.codePending();
  }

  /**
   * Restores slots saved by {@link slots} (replacing everything; no graph), their f16
   * rows being those of the vectors file `file.fd` (which the store takes over: see
   * {@link adoptHalves}) from byte `file.base` on. Each run of rows read is shown to
   * `file.onRead` (the caller hashes them); a row's i8 copy is made when first read.
   */
  restore(
    rowids: Float64Array,
    fingerprints: Uint32Array,
    file: { readonly fd: number; readonly base: number; onRead?(bits: Uint16Array): void },
    groups?: Int32Array,
    saves?: ReadonlyArray<string>,
  ): void {
    this.rowChanges++;
    this.graphs.forget();
    this.rows.restore(rowids, fingerprints, file, groups, saves);
    this.sharedFrom = new WeakMap();
  }

  /**
   * The best `k` rows `accept` takes, by cosine from f16: candidates from every graph
   * segment (each searched for `start` candidates, widened while too few are accepted,
   * scanned exactly past `maxCandidates`) ranked by {@link exact} together with the
   * accepted rows no graph holds (the tail and stale rows). Without graphs it is an exact
   * scan of every accepted row. Only the graphs and rows of `save` are searched.
   */
  filtered(
    query: Float32Array,
    k: number,
    start: number,
    maxCandidates: number,
    accept: (rowid: number) => boolean,
    save = "",
  ): Array<Scored> {
    if (k <= 0 || this.rows.size === 0) return [];
    const exactRows: Array<number> = [];
    const group = this.rows.group(save);
    const graphs = this.graphs.of(save);
    const live = (r: number) => this.rows.has(r);
    const candidates = graphs.candidates(query, k, start, maxCandidates, live, accept, (rows) => {
      for (let i = 0; i < rows.length; i++) exactRows.push(rows[i]!);
    });
    this.rows.collectOfGroup(group, graphs.frontier, accept, exactRows);
    for (const r of graphs.stale) if (this.rows.has(r) && accept(r)) exactRows.push(r);
    // The graphs' candidates are ranked with the rest: one i8 scan, the best few read in f16.
    for (const r of candidates) exactRows.push(r);
    return this.scan.exact(query, exactRows, k);
  }

  // --- the rows (`VectorRows`) ---------------------------------------------------------

  has(rowid: number): boolean {
    return this.rows.has(rowid);
  }

  /** The save a row was put for ("" when none was given). */
  saveOf(rowid: number): string {
    return this.rows.saveOf(rowid);
  }

  /** The fingerprint stored with a rowid's vector, if present. */
  fingerprint(rowid: number): number | undefined {
    return this.rows.fingerprint(rowid);
  }

  /** A rowid's vector, decoded from f16 (a copy). */
  vector(rowid: number): Float32Array | undefined {
    const out = new Float32Array(this.dimensions);
    return this.rows.vectorInto(rowid, out, 0) ? out : undefined;
  }

  /** Decodes a rowid's vector from f16 into `out` at `at`; false when it has none. */
  vectorInto(rowid: number, out: Float32Array, at: number): boolean {
    return this.rows.vectorInto(rowid, out, at);
  }

  /** Every live rowid with its fingerprint, in rowid order. */
  entries(): { rowids: Float64Array; fingerprints: Uint32Array } {
    return this.rows.entries();
  }

  /**
   * A mark of the rows as they are now: {@link rowsApartSince} counts the rows changed
   * since, in time proportional to them (`RowMarks`). Each mark is its own: several
   * callers may mark one store. Release a mark no longer asked about.
   */
  mark(): number {
    return this.rows.mark();
  }

  /** Forgets a mark (an unknown token is ignored). */
  release(token: number): void {
    this.rows.release(token);
  }

  /**
   * Rows that differ from what they were at the mark `token` — present then or now
   * only, or with another fingerprint: what {@link entries} then and now disagree on
   * (`rowsApart`). Exact across {@link restore}. Null for a token this store never gave
   * (or released).
   */
  rowsApartSince(token: number): number | null {
    return this.rows.rowsApartSince(token);
  }

  /** The raw slots and their rowids, for saving (`VectorRows.slots`). */
  slots(): ReturnType<VectorRows["slots"]> {
    return this.rows.slots();
  }

  /**
   * Reads f16 rows from the file `fd` from now on (the store takes it over): its slots
   * [0, count) start at byte `base`, as the vectors file `VectorFiles` just wrote or
   * read holds them. Rows kept in memory until then are let go.
   */
  adoptHalves(fd: number, base: number, count: number): void {
    this.rows.adoptHalves(fd, base, count);
  }

  /**
   * True when every f16 row of the file last adopted (by {@link adoptHalves} or
   * {@link restore}) is still the store's row of its slot: none was written again.
   */
  get halvesFileIntact(): boolean {
    return this.rows.halvesFileIntact;
  }

  /** Closes the f16 file: only for a store no one searches any more. */
  close(): void {
    this.rows.close();
  }

  /** Cosine of a query to one stored row, from its f16 copy (0 when absent). */
  similarity(query: Float32Array, rowid: number): number {
    return this.rows.similarity(query, rowid);
  }

  /** Copies a row's i8 vector into `out` at `at`; false when the row has no vector. */
  copyQuantized(rowid: number, out: Int8Array, at: number): boolean {
    return this.rows.copyQuantized(rowid, out, at);
  }

  /** How far into each list of items known by many {@link shareItems} has read. */
  private sharedFrom = new WeakMap<ReadonlyArray<number>, number>();

  /**
   * Keeps the rows of items known by many together (`VectorRows.share`): `items` is an
   * append-only list (`SaveView.commonItems`), read from where the last call left off,
   * `rowidOf` its items' rowids. Changes where scans read rows from, never what they find.
   */
  shareItems(items: ReadonlyArray<number>, rowidOf: (item: number) => number): void {
    const from = this.sharedFrom.get(items) ?? 0;
    if (from >= items.length) return;
    const rowids = new Float64Array(items.length - from);
    for (let i = from; i < items.length; i++) rowids[i - from] = rowidOf(items[i]!);
    // In rowid order, the order a known set is enumerated and gathered in.
    this.rows.share(rowids.sort());
    this.sharedFrom.set(items, items.length);
  }

  /** Rows kept together by {@link shareItems}. */
  get sharedRows(): number {
    return this.rows.sharedRows;
  }

  // --- exact scans (`ExactScan`) -------------------------------------------------------

  /** Exact top-`k` over the given rowids (absent ones skipped), by cosine from f16. */
  exact(query: Float32Array, rowids: ArrayLike<number>, k: number): Array<Scored> {
    return this.scan.exact(query, rowids, k);
  }

  /** A query as the i8 scans take it. */
  quantize(query: Float32Array): Int8Array {
    return this.scan.quantize(query);
  }

  /** Positions of the best `count` of `n` contiguous i8 rows for an i8 query (native scan). */
  scanQuantized(rows: Int8Array, n: number, q: Int8Array, count: number): Array<number> {
    return this.scan.scanQuantized(rows, n, q, count);
  }

  // --- the graphs (`SaveGraphs`) -------------------------------------------------------

  /** True when at least one HNSW graph is built. */
  get hasGraph(): boolean {
    return this.graphs.any;
  }

  /**
   * Candidates {@link filtered} would read from `save`'s graphs on its first try (see
   * `GraphSegments.probeRows`): 0 when the save has no graph.
   */
  graphProbeRows(k: number, start: number, save = ""): number {
    return this.graphs.of(save).probeRows(k, start);
  }

  /** True when graphs are kept at all (`graph` not false). */
  get keepsGraphs(): boolean {
    return this.graphs.keep;
  }

  /** One save's graphs ("" for rows put without a save). */
  graphsOf(save = ""): GraphSegments {
    return this.graphs.of(save);
  }

  /**
   * Seals and merges graph segments as the stored rows call for (nothing with
   * `graph: false`); returns the rows added to graphs.
   */
  syncGraphs(onProgress?: (done: number, total: number) => void): number {
    return this.graphs.sync(onProgress);
  }

  /** Drops every graph and builds them afresh from the stored vectors. */
  buildGraph(onProgress?: (done: number, total: number) => void): void {
    this.graphs.rebuild(onProgress);
  }

  /** Every save's graph segment layouts, oldest first within a save. */
  graphShapes(): Array<SegmentShape & { readonly save: string; readonly at: number }> {
    return this.graphs.shapes();
  }

  /** Rows scanned exactly because their vector changed after their graph was built. */
  staleRows(): Array<number> {
    return this.graphs.staleRows();
  }

  /** Saves one segment's graph to `path`. */
  saveSegment(save: string, at: number, path: string): void {
    this.graphs.saveSegment(save, at, path);
  }

  /**
   * Loads saved segments (each save's in order, each from `pathOf(shape)`). A save whose
   * segments do not all load keeps none; {@link syncGraphs} rebuilds them
   * (`SaveGraphs.load`). Returns how many loaded.
   */
  loadSegments<S extends SegmentShape & { readonly save: string }>(
    shapes: ReadonlyArray<S>,
    pathOf: (s: S) => string | null,
    stale: ReadonlyArray<number>,
  ): number {
    return this.graphs.load(shapes, pathOf, stale);
  }
}
