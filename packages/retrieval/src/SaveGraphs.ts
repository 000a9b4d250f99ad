/**
 * The USearch HNSW graphs over a collection's rows, one `GraphSegments` per save: a
 * save's graphs hold only its own rows, so their layout is what a replay of that save
 * alone builds. They propose candidates for NPCs whose known set is a large share of the
 * world; rows no graph holds (the tail, stale rows) are scanned exactly by the caller.
 */
import { GraphSegments, type SegmentConfig, type SegmentShape } from "./GraphSegments.ts";
import { newGraph } from "./newGraph.ts";
import type { VectorRows } from "./VectorRows.ts";

export class SaveGraphs {
  /**
   * The graphs of each save, by group number, in the order they were first asked for
   * (the order {@link shapes} lists them in).
   */
  private readonly byGroup = new Map<number, GraphSegments>();

  /** `keep` false: no graph is built, loaded or saved (every search is exact). */
  constructor(
    private readonly rows: VectorRows,
    private readonly config: SegmentConfig,
    readonly keep: boolean,
  ) {}

  /** True when at least one graph is built. */
  get any(): boolean {
    for (const g of this.byGroup.values()) if (g.segments.length > 0) return true;
    return false;
  }

  /** One save's graphs ("" for rows put without a save). */
  of(save: string): GraphSegments {
    return this.ofGroup(this.rows.group(save));
  }

  /** The graphs of a group number (`VectorRows.group`). */
  ofGroup(group: number): GraphSegments {
    let graphs = this.byGroup.get(group);
    if (!graphs) {
      graphs = new GraphSegments(this.config);
      this.byGroup.set(group, graphs);
    }
    return graphs;
  }

  /** Drops every graph (the rows were replaced). */
  forget(): void {
    this.byGroup.clear();
  }

  /**
   * Seals and merges graph segments as the stored rows call for (nothing when graphs
   * are not kept); returns the rows added to graphs.
   */
  sync(onProgress?: (done: number, total: number) => void): number {
    if (!this.keep) return 0;
    let added = 0;
    for (let g = 0; g < this.rows.groupCount; g++) {
      added += this.ofGroup(g).sync(this.rows.segmentRows(g), onProgress);
    }
    return added;
  }

  /** Drops every graph and builds them afresh from the stored vectors. */
  rebuild(onProgress?: (done: number, total: number) => void): void {
    for (const g of this.byGroup.values()) g.clear();
    this.sync(onProgress);
  }

  /** Every save's graph segment layouts, oldest first within a save. */
  shapes(): Array<SegmentShape & { readonly save: string; readonly at: number }> {
    const out: Array<SegmentShape & { readonly save: string; readonly at: number }> = [];
    for (const [g, graphs] of this.byGroup) {
      const save = this.rows.saveOfGroup(g);
      graphs.segments.forEach((s, at) => {
        out.push({ save, at, level: s.level, lo: s.lo, hi: s.hi, count: s.rowids.length });
      });
    }
    return out;
  }

  /** Rows scanned exactly because their vector changed after their graph was built. */
  staleRows(): Array<number> {
    const out: Array<number> = [];
    for (const g of this.byGroup.values()) out.push(...g.stale);
    return out.sort((a, b) => a - b);
  }

  /** Saves one segment's graph to `path`. */
  saveSegment(save: string, at: number, path: string): void {
    this.of(save).segments[at]!.graph.save(path);
  }

  /**
   * Loads saved segments (each save's in order, each from `pathOf(shape)`). A save whose
   * segments do not all load — a file unreadable or out of step with the stored rows —
   * keeps none; {@link sync} rebuilds them. Returns how many loaded.
   */
  load<S extends SegmentShape & { readonly save: string }>(
    shapes: ReadonlyArray<S>,
    pathOf: (s: S) => string | null,
    stale: ReadonlyArray<number>,
  ): number {
    if (!this.keep) return 0;
    const d = this.config.dimensions;
    for (const g of this.byGroup.values()) g.clear();
    const bySave = new Map<string, Array<S>>();
    for (const s of shapes) bySave.set(s.save, [...(bySave.get(s.save) ?? []), s]);
    let loaded = 0;
    for (const [save, list] of bySave) {
      const graphs = this.of(save);
      const rows = this.rows.segmentRows(this.rows.group(save));
      let ok = true;
      for (const shape of list) {
        const path = pathOf(shape);
        if (path === null) {
          ok = false;
          break;
        }
        try {
          const graph = newGraph(d, this.config);
          graph.load(path);
          if (graph.dimensions() !== d || !graphs.adopt(shape, graph, rows)) {
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
      for (const r of stale) {
        if (this.rows.has(r) && this.rows.saveOf(r) === save) graphs.touched(r);
      }
    }
    return loaded;
  }
}
