/**
 * Contiguous copies of the i8 vectors each NPC knows, for NPCs whose known set is too
 * large to gather per query and too small a share of the world for the HNSW graph.
 * Gathering rows scattered over a million-row matrix costs about half a microsecond a
 * row (memory latency, one call per row); scanning the same rows kept contiguous is one
 * native SIMD pass. A matrix is built on an NPC's first such query, then appended to as
 * the NPC learns more (rows are never rewritten: memory, event and debate texts do not
 * change). Matrices hold every item the NPC has a fact for; each hit is still checked
 * with `SaveView.knows` at the asked time, and the scan widens until `k` survive.
 * Least recently used matrices are dropped beyond a byte budget.
 */
import type { CollectionName } from "./collections.ts";
import type { KnownList } from "./KnownList.ts";
import type { SaveView } from "./SaveView.ts";
import type { VectorStore } from "./VectorStore.ts";

/** A hit: an item (by local number) and its cosine. */
export interface MatrixHit {
  readonly local: number;
  readonly similarity: number;
}

interface Entry {
  readonly store: VectorStore;
  locals: Int32Array;
  rows: Int8Array;
  n: number;
  /** by local: 1 when the row is in the matrix. */
  included: Uint8Array;
  /** Known items whose vector did not exist yet. */
  late: Array<number>;
  /** The list size when last synced. */
  synced: number;
}

const RERANK_MIN = 40;

export class KnownMatrices {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** `budgetBytes`: total size of all matrices kept (default 2 GiB). */
  constructor(readonly budgetBytes: number = 2 * 1024 ** 3) {}

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  /** Drops every matrix (or those of one save). */
  clear(saveId?: string): void {
    for (const [key, e] of this.entries) {
      if (saveId !== undefined && !key.startsWith(`${saveId}\u0000`)) continue;
      this.bytes -= e.rows.byteLength;
      this.entries.delete(key);
    }
  }

  private append(e: Entry, view: SaveView, c: CollectionName, local: number): void {
    const d = e.store.dimensions;
    if (e.n * d + d > e.rows.length) {
      const rows = new Int8Array(Math.max(e.rows.length * 2, (e.n + 1) * d, 1024 * d));
      rows.set(e.rows);
      this.bytes += rows.byteLength - e.rows.byteLength;
      e.rows = rows;
      const locals = new Int32Array(rows.length / d);
      locals.set(e.locals);
      e.locals = locals;
    }
    if (!e.store.copyQuantized(view.items[c].rowids[local]!, e.rows, e.n * d)) {
      e.late.push(local);
      return;
    }
    if (local >= e.included.length) {
      const inc = new Uint8Array(Math.max(local + 1, e.included.length * 2));
      inc.set(e.included);
      e.included = inc;
    }
    e.included[local] = 1;
    e.locals[e.n++] = local;
  }

  private sync(
    key: string,
    view: SaveView,
    store: VectorStore,
    c: CollectionName,
    list: KnownList,
  ): Entry {
    let e = this.entries.get(key);
    if (!e || e.store !== store) {
      if (e) this.bytes -= e.rows.byteLength;
      e = {
        store,
        locals: new Int32Array(0),
        rows: new Int8Array(0),
        n: 0,
        included: new Uint8Array(view.items[c].length + 1),
        late: [],
        synced: -1,
      };
    }
    this.entries.delete(key); // re-inserted last: most recently used
    this.entries.set(key, e);
    if (e.late.length > 0) {
      const late = e.late;
      e.late = [];
      for (const local of late) this.append(e, view, c, local);
    }
    if (list.size !== e.synced) {
      const entry = e;
      list.forEach((local) => {
        if (!(entry.included[local] === 1)) this.append(entry, view, c, local);
      });
      e.synced = list.size;
    }
    for (const [k, old] of this.entries) {
      if (this.bytes <= this.budgetBytes || k === key) break;
      this.bytes -= old.rows.byteLength;
      this.entries.delete(k);
    }
    return e;
  }

  /**
   * The `k` items nearest the query among those the NPC knows at `t`, scanning its
   * contiguous matrix (built or brought up to date first).
   */
  nearest(
    view: SaveView,
    store: VectorStore,
    npc: number,
    c: CollectionName,
    list: KnownList,
    t: number,
    query: Float32Array,
    k: number,
  ): Array<MatrixHit> {
    const key = `${view.saveId}\u0000${npc}\u0000${c}`;
    const e = this.sync(key, view, store, c, list);
    const q = store.quantize(query);
    const table = view.items[c];
    for (let count = Math.max(4 * k, RERANK_MIN); ; count *= 4) {
      const hits: Array<MatrixHit> = [];
      for (const at of store.scanQuantized(e.rows, e.n, q, count)) {
        const local = e.locals[at]!;
        if (!view.knows(npc, c, local, t)) continue;
        hits.push({ local, similarity: store.similarity(query, table.rowids[local]!) });
      }
      if (hits.length >= k || count >= e.n) {
        return hits.sort((a, b) => b.similarity - a.similarity || a.local - b.local).slice(0, k);
      }
    }
  }
}
