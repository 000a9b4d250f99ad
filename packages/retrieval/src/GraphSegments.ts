/**
 * A collection's HNSW graphs (USearch, i8, cosine), kept so that what a search returns
 * is a function of the rows the collection holds, never of thread timing, of when the
 * process started, or of whether the graph was grown or rebuilt.
 *
 * An HNSW graph depends on its insertion order and on the random levels drawn as nodes
 * are added; USearch draws them from a per-thread generator that restarts whenever an
 * index is created or loaded. So a graph is never grown: rows are covered by immutable
 * segments, each built once, from scratch, single-threaded, in rowid order — two builds
 * of the same rows give the same graph, and a graph loaded from its file is that graph.
 *
 * Segments are laid out like the digits of a counter: rows past the last segment (the
 * tail) are sealed into a level-0 segment of `block` rows each time `block` of them
 * exist, and `fanout` adjacent segments of one level are rebuilt as one segment of the
 * next. The layout for an append-only collection depends only on how many rows it has,
 * so a run that grew its index tick by tick, a resumed run that loaded it, and a rebuild
 * from SQLite search the same graphs. Each row is rebuilt about log_fanout(n / block)
 * times over the collection's life.
 *
 * Rows in the tail, and rows whose vector changed after their segment was built
 * (`stale`), are not in any graph: a search scans them exactly. A removed row may still
 * sit in a graph; its hits are dropped (the store no longer has it).
 */
import type { Index } from "usearch";
import { buildInWorkers } from "./buildInWorkers.ts";
import { buildGraph } from "./newGraph.ts";

/** How graphs are laid out and built. */
export interface SegmentConfig {
  readonly dimensions: number;
  /** Rows per level-0 segment: smaller collections have no graph (default 1,024). */
  readonly block: number;
  /** Segments of one level merged into one of the next (default 8). */
  readonly fanout: number;
  readonly connectivity: number;
  readonly expansionAdd: number;
  readonly expansionSearch: number;
  /**
   * Threads that build segments when several are built at once (a rebuild): each
   * segment is still built by one thread in rowid order, so the graphs do not depend
   * on it (default 1).
   */
  readonly buildThreads?: number;
}

/** Fewer rows than this to build are built on this thread alone: a worker costs more. */
const PARALLEL_MIN_ROWS = 32_768;

/** One immutable graph over the live rows of a rowid range, as they were when it was built. */
export interface Segment {
  readonly level: number;
  /** First rowid of the range. */
  readonly lo: number;
  /** One past the last rowid of the range. */
  readonly hi: number;
  /** The rows it holds, ascending. */
  readonly rowids: Float64Array;
  readonly graph: Index;
}

/** What a segment's layout is, without its graph (saved in the manifest). */
export interface SegmentShape {
  readonly level: number;
  readonly lo: number;
  readonly hi: number;
  readonly count: number;
}

/** What the segments need from the vector store. */
export interface SegmentRows {
  /** Live rowids at or after `from`, ascending. */
  rowidsFrom(from: number, limit?: number): Float64Array;
  /** Live rowids in [lo, hi), ascending. */
  rowidsIn(lo: number, hi: number): Float64Array;
  /** The rows' vectors, decoded from f16, `dimensions` floats each. */
  vectorsOf(rowids: Float64Array): Float32Array;
  /** The rows' vectors as f16 bits, `dimensions` each (what a building worker decodes). */
  halvesOf(rowids: Float64Array): Uint16Array;
}

export const segmentName = (s: Pick<SegmentShape, "level" | "lo" | "hi">): string =>
  `g${s.level}-${s.lo}-${s.hi}`;

export class GraphSegments {
  private list: Array<Segment> = [];
  /** Rows put into a segment's range after it was built: scanned exactly. */
  readonly stale = new Set<number>();

  constructor(readonly config: SegmentConfig) {}

  /** The segments, oldest (lowest rowids) first. */
  get segments(): ReadonlyArray<Segment> {
    return this.list;
  }

  /** The first rowid not covered by a segment. */
  get frontier(): number {
    return this.list.length === 0 ? 0 : this.list[this.list.length - 1]!.hi;
  }

  /** Rows held by graphs. */
  get covered(): number {
    let n = 0;
    for (const s of this.list) n += s.rowids.length;
    return n;
  }

  /**
   * Candidates a first search for `k` results with `start` candidates per segment reads
   * in all: each segment returns at most its size. What the graph path costs, before any
   * widening, in units of one candidate.
   */
  probeRows(k: number, start: number): number {
    let n = 0;
    for (const s of this.list) n += Math.min(s.rowids.length, Math.max(k, start));
    return n;
  }

  /** Drops every graph. */
  clear(): void {
    this.list = [];
    this.stale.clear();
  }

  /** Marks a row whose vector was (re)written: stale when a segment's range holds it. */
  touched(rowid: number): void {
    if (rowid < this.frontier) this.stale.add(rowid);
  }

  private adopted(
    level: number,
    lo: number,
    hi: number,
    rowids: Float64Array,
    graph: Index,
  ): Segment {
    for (const r of rowids) this.stale.delete(r);
    return { level, lo, hi, rowids, graph };
  }

  /**
   * The layout the rows call for: tail rows sealed `block` at a time, `fanout` segments
   * of a level merged. Only ranges are computed here; graphs are built by {@link sync}.
   */
  private plan(rows: SegmentRows): Array<SegmentShape> {
    const { block, fanout } = this.config;
    const shapes: Array<SegmentShape> = this.list.map((s) => ({
      level: s.level,
      lo: s.lo,
      hi: s.hi,
      count: s.rowids.length,
    }));
    let from = this.frontier;
    for (;;) {
      const next = rows.rowidsFrom(from, block);
      if (next.length < block) break;
      const hi = next[block - 1]! + 1;
      shapes.push({ level: 0, lo: from, hi, count: block });
      from = hi;
      for (;;) {
        const n = shapes.length;
        if (n < fanout) break;
        const level = shapes[n - 1]!.level;
        let same = true;
        for (let i = n - fanout; i < n; i++) if (shapes[i]!.level !== level) same = false;
        if (!same) break;
        const merged = shapes.splice(n - fanout, fanout);
        shapes.push({
          level: level + 1,
          lo: merged[0]!.lo,
          hi: merged[fanout - 1]!.hi,
          count: merged.reduce((a, s) => a + s.count, 0),
        });
      }
    }
    return shapes;
  }

  /**
   * Seals and merges as the rows call for, building each new segment's graph once.
   * Returns how many rows were added to graphs.
   */
  sync(rows: SegmentRows, onProgress?: (done: number, total: number) => void): number {
    const shapes = this.plan(rows);
    const kept = new Map(this.list.map((s) => [segmentName(s), s]));
    const fresh = shapes.filter((s) => !kept.has(segmentName(s)));
    if (fresh.length === 0) return 0;
    const total = fresh.reduce((a, s) => a + s.count, 0);
    const threads = this.config.buildThreads ?? 1;
    const jobs = fresh.map((s) => rows.rowidsIn(s.lo, s.hi));
    // One thread, rowid order, one fresh index per segment: a graph is a function of its
    // rows, whichever thread built it.
    const graphs =
      threads > 1 && fresh.length > 1 && total >= PARALLEL_MIN_ROWS
        ? buildInWorkers(this.config.dimensions, this.config, jobs, rows, threads).graphs
        : null;
    let done = 0;
    let at = 0;
    const next: Array<Segment> = [];
    for (const shape of shapes) {
      const have = kept.get(segmentName(shape));
      if (have) {
        next.push(have);
        continue;
      }
      const rowids = jobs[at]!;
      const graph =
        graphs?.[at] ?? buildGraph(this.config.dimensions, this.config, rowids, rows.vectorsOf);
      at++;
      next.push(this.adopted(shape.level, shape.lo, shape.hi, rowids, graph));
      done += rowids.length;
      onProgress?.(done, total);
    }
    this.list = next;
    return done;
  }

  /** Adopts a segment loaded from its file (its rows are those in range now). */
  adopt(shape: SegmentShape, graph: Index, rows: SegmentRows): boolean {
    const rowids = rows.rowidsIn(shape.lo, shape.hi);
    if (rowids.length !== shape.count || graph.size() !== shape.count) return false;
    if (shape.lo !== this.frontier) return false;
    this.list.push({ level: shape.level, lo: shape.lo, hi: shape.hi, rowids, graph });
    return true;
  }

  /**
   * The best `k` rows `accept` takes, per segment: each graph is searched for `start`
   * candidates (at most its size), widened ×4 while fewer than `k` are accepted, and
   * scanned exactly (`exact`) once more than `maxCandidates` would be needed. Stale rows
   * and removed rows (`live` false) are skipped. Candidates from all segments are
   * returned together, unranked: the caller scores them exactly.
   */
  candidates(
    query: Float32Array,
    k: number,
    start: number,
    maxCandidates: number,
    live: (rowid: number) => boolean,
    accept: (rowid: number) => boolean,
    exact: (rowids: ArrayLike<number>) => void,
  ): Array<number> {
    const out: Array<number> = [];
    for (const seg of this.list) {
      const size = seg.rowids.length;
      let kp = Math.min(size, Math.max(k, start));
      for (;;) {
        const m = seg.graph.search(query, kp, 1);
        const got: Array<number> = [];
        for (let i = 0; i < m.keys.length; i++) {
          const rowid = Number(m.keys[i]);
          if (!this.stale.has(rowid) && live(rowid) && accept(rowid)) got.push(rowid);
        }
        if (got.length >= k || kp >= size) {
          out.push(...got);
          break;
        }
        kp *= 4;
        if (kp > maxCandidates) {
          const known: Array<number> = [];
          for (const r of seg.rowids) if (!this.stale.has(r) && live(r) && accept(r)) known.push(r);
          exact(known);
          break;
        }
        kp = Math.min(kp, size);
      }
    }
    return out;
  }
}
