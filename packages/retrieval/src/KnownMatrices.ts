/**
 * Contiguous copies of the i8 vectors each NPC knows, for NPCs whose known set is too
 * large to gather per query and too small a share of the world for the HNSW graph.
 * Gathering rows scattered over a million-row matrix costs a memory access and a call
 * per row; scanning the same rows kept contiguous is one native SIMD pass. A matrix is built on an NPC's first such query, then appended to as
 * the NPC learns more (rows are never rewritten: memory, event and debate texts do not
 * change). Matrices hold every item the NPC has a fact for; each hit is still checked
 * with `SaveView.knows` at the asked time, and the scan widens until `k` survive.
 * Least recently used matrices are dropped beyond a byte budget.
 *
 * Items that can never be known again are pruned from a copy once a scan finds them
 * outnumbering the live ones: removed items and, for memories, those expired or gone.
 * Late in a long run an NPC has had many times more memory facts than it has live
 * memories, and unpruned, every scan would widen until it had read the whole copy several
 * times over. A copy remembers the
 * time it was pruned at; a query at an earlier time starts a new copy.
 *
 * Rows are stored at one common scale (`commonScale.ts`), not each scaled to its
 * own largest component, so the native scan ranks them by a plain inner product — half
 * the work per row of a cosine — and the best few are reranked by cosine from f16.
 * A big copy (`PartitionTuning.minRows`) is kept grouped by the store's coarse lists
 * (`CoarseLists`) and scanned by its lists nearest the query, covering `probeShare` of
 * it: such scans are bound by memory bandwidth, so reading a third costs about a third.
 * That is approximate (the bench measures the recall); `probeShare: 1` is exact. Each
 * list's rows are a block of their own: the native scan reads a typed array from the
 * start of its buffer, whatever its offset, so a range is never passed as a subarray.
 */
import { CoarseLists } from "./CoarseLists.ts";
import type { CollectionName } from "./collections.ts";
import { copyScaled, scanDotRaw } from "./commonScale.ts";
import type { KnownList } from "./KnownList.ts";
import type { SaveView } from "./SaveView.ts";
import type { VectorStore } from "./VectorStore.ts";

/** A hit: an item (by local number) and its cosine. */
export interface MatrixHit {
  readonly local: number;
  readonly similarity: number;
}

/** Rows (common-scale i8) and the item each row is, `n` of them in use. */
interface Block {
  rows: Int8Array;
  locals: Int32Array;
  n: number;
}

interface Entry {
  readonly store: VectorStore;
  /** The known list it copies and that list's generation: another list, or a reloaded one, starts a new copy. */
  readonly list: KnownList;
  readonly generation: number;
  /** Rows appended since the last grouping (all rows, when the copy is not grouped). */
  tail: Block;
  /** One block per coarse list once the copy is big enough (null: not grouped). */
  lists: Array<Block> | null;
  /** Rows in `lists`. */
  grouped: number;
  /** Known items whose vector did not exist yet. */
  late: Array<number>;
  /** How many of the list's items (in the order they were added) are copied or in `late`. */
  synced: number;
  /** The time of the last prune: items gone by then are not in the copy (-inf: none). */
  prunedAt: number;
  /** Rows in the copy right after the last prune (the next waits for it to grow by 1/8). */
  prunedRows: number;
}

/** How big copies are partitioned (see `CoarseLists`). */
export interface PartitionTuning {
  /** Copies with at least this many rows are grouped by list and scanned by list. */
  readonly minRows: number;
  /** Coarse lists per collection. */
  readonly lists: number;
  /**
   * Share of a copy's rows scanned: lists nearest the query first, until this share is
   * covered (1: every list — exact, as for a small copy).
   */
  readonly probeShare: number;
}

/**
 * Chosen on the retrieval bench's large tier (known sets of tens of thousands): probing a
 * smaller share is faster at a small cost in recall, within the bench's recall target;
 * fewer lists recall less for the same work, and many more lists make blocks so small
 * that each native scan call's fixed cost dominates. The sweep is in bench/README.md.
 */
export const defaultPartitionTuning: PartitionTuning = {
  minRows: 32_768,
  lists: 128,
  probeShare: 0.2,
};

/** Rows reranked from f16: `k` × 4, at least this many. */
const RERANK_MIN = 48;

const emptyBlock = (): Block => ({ rows: new Int8Array(0), locals: new Int32Array(0), n: 0 });

const entryBytes = (e: Entry): number =>
  e.tail.rows.byteLength + (e.lists ?? []).reduce((a, b) => a + b.rows.byteLength, 0);

export class KnownMatrices {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly partitions = new WeakMap<VectorStore, CoarseLists | null>();

  /**
   * `budgetBytes`: total size of all matrices kept (default 2 GiB); `partition`: how big
   * copies are grouped and probed.
   */
  constructor(
    readonly budgetBytes: number = 2 * 1024 ** 3,
    readonly partition: PartitionTuning = defaultPartitionTuning,
  ) {}

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  /** Drops every matrix (or those of one save). */
  clear(saveId?: string): void {
    for (const [key, e] of this.entries) {
      if (saveId !== undefined && !key.startsWith(`${saveId}\u0000`)) continue;
      this.bytes -= entryBytes(e);
      this.entries.delete(key);
    }
  }

  private append(e: Entry, view: SaveView, c: CollectionName, local: number): void {
    const d = e.store.dimensions;
    const b = e.tail;
    if (b.n * d + d > b.rows.length) {
      // Start small and double: a floor of 1,024 rows made even a copy of a few dozen
      // items ~400 KB (at 384 dimensions), counted against the budget.
      const rows = new Int8Array(Math.max(b.rows.length * 2, (b.n + 1) * d, 64 * d));
      rows.set(b.rows);
      this.bytes += rows.byteLength - b.rows.byteLength;
      b.rows = rows;
      const locals = new Int32Array(rows.length / d);
      locals.set(b.locals);
      b.locals = locals;
    }
    if (!copyScaled(e.store, view.items[c].rowids[local]!, b.rows, b.n * d)) {
      e.late.push(local);
      return;
    }
    b.locals[b.n++] = local;
  }

  private sync(
    key: string,
    view: SaveView,
    store: VectorStore,
    c: CollectionName,
    list: KnownList,
    t: number,
  ): Entry {
    let e = this.entries.get(key);
    if (
      !e ||
      e.store !== store ||
      e.list !== list ||
      e.generation !== list.generation ||
      t < e.prunedAt
    ) {
      if (e) this.bytes -= entryBytes(e);
      e = {
        store,
        list,
        generation: list.generation,
        tail: emptyBlock(),
        lists: null,
        grouped: 0,
        late: [],
        synced: 0,
        prunedAt: Number.NEGATIVE_INFINITY,
        prunedRows: 0,
      };
    }
    this.entries.delete(key); // re-inserted last: most recently used
    this.entries.set(key, e);
    if (e.late.length > 0) {
      const late = e.late;
      e.late = [];
      for (const local of late) this.append(e, view, c, local);
    }
    if (list.size > e.synced) {
      // Only the items added since the last sync, each once: the full pass over known
      // sets of thousands was about a tenth of a resumed tick late in a 1,000-NPC year.
      const entry = e;
      list.forEachAddedSince(e.synced, (local) => this.append(entry, view, c, local));
      e.synced = list.size;
    }
    this.maybeGroup(e, view, c);
    for (const [k, old] of this.entries) {
      if (this.bytes <= this.budgetBytes || k === key) break;
      this.bytes -= entryBytes(old);
      this.entries.delete(k);
    }
    return e;
  }

  /** The store's coarse lists, trained on first need (null: too small to split). */
  private coarse(store: VectorStore): CoarseLists | null {
    let lists = this.partitions.get(store);
    if (lists === undefined) {
      lists = CoarseLists.train(store, this.partition.lists);
      this.partitions.set(store, lists);
    }
    return lists;
  }

  /**
   * Regroups a big copy's rows into one block per coarse list once it is big enough,
   * and again when the tail of rows appended since outgrows an eighth of it.
   */
  private maybeGroup(e: Entry, view: SaveView, c: CollectionName): void {
    const p = this.partition;
    const total = e.grouped + e.tail.n;
    if (p.probeShare >= 1 || total < p.minRows) return;
    if (e.lists && e.tail.n <= Math.max(1024, e.grouped >>> 3)) return;
    const coarse = this.coarse(e.store);
    if (!coarse) return;
    const d = e.store.dimensions;
    const table = view.items[c];
    const blocks = [...(e.lists ?? []), e.tail];
    const rowids: Array<number> = [];
    for (const b of blocks) for (let i = 0; i < b.n; i++) rowids.push(table.rowids[b.locals[i]!]!);
    const of = coarse.listsOf(rowids);
    const sizes = new Int32Array(coarse.count);
    for (const l of of) sizes[Math.max(0, l)]!++;
    const lists: Array<Block> = Array.from(sizes, (n) => ({
      rows: new Int8Array(n * d),
      locals: new Int32Array(n),
      n: 0,
    }));
    let at = 0;
    for (const b of blocks) {
      for (let i = 0; i < b.n; i++, at++) {
        const to = lists[Math.max(0, of[at]!)]!;
        to.rows.set(b.rows.subarray(i * d, (i + 1) * d), to.n * d);
        to.locals[to.n++] = b.locals[i]!;
      }
    }
    this.bytes -= entryBytes(e);
    e.lists = lists;
    e.grouped = total;
    e.tail = emptyBlock();
    this.bytes += entryBytes(e);
  }

  /**
   * Drops from the copy every item that no query at `t` or later can return: removed
   * items and items past their end of life by `t` (memories expired or gone, world
   * events lapsed). Waits until the
   * copy has grown by an eighth since the last prune, so a copy whose filtered rows are
   * facts learnt after `t` (a query in the past) is not re-pruned on every scan.
   */
  private prune(e: Entry, view: SaveView, c: CollectionName, t: number): void {
    const rows = e.grouped + e.tail.n;
    if (rows < 64 || rows - e.prunedRows <= e.prunedRows >>> 3) return;
    const table = view.items[c];
    const gone = (local: number) => !table.aliveAt(local, t);
    const d = e.store.dimensions;
    const before = entryBytes(e);
    /** Keeps a block's rows that can still be returned, in order; returns how many went. */
    const compact = (b: Block): number => {
      let to = 0;
      for (let i = 0; i < b.n; i++) {
        const local = b.locals[i]!;
        if (gone(local)) continue;
        if (to !== i) {
          b.rows.copyWithin(to * d, i * d, (i + 1) * d);
          b.locals[to] = local;
        }
        to++;
      }
      const removed = b.n - to;
      b.n = to;
      // Give back most of a block left mostly empty (keeping room to grow).
      if (b.rows.length > 4 * Math.max(64, to) * d) {
        const keep = 2 * Math.max(32, to);
        b.rows = b.rows.slice(0, keep * d);
        b.locals = b.locals.slice(0, keep);
      }
      return removed;
    };
    for (const b of e.lists ?? []) e.grouped -= compact(b);
    compact(e.tail);
    e.late = e.late.filter((local) => !gone(local));
    e.prunedAt = t;
    e.prunedRows = e.grouped + e.tail.n;
    this.bytes += entryBytes(e) - before;
  }

  /**
   * The items to rerank, best first: the nearest `count` by inner product among the
   * blocks of the lists nearest the query (covering `probeShare` of the grouped rows)
   * plus the tail — or among every row when `everything` or the copy is not grouped.
   * `complete` tells whether every row was considered.
   */
  private candidates(
    e: Entry,
    query: Float32Array,
    q: Int8Array,
    count: number,
    everything: boolean,
  ): { readonly locals: Array<number>; readonly complete: boolean } {
    const coarse = this.partitions.get(e.store);
    let blocks: Array<Block>;
    let complete = true;
    if (everything || !e.lists || !coarse) blocks = [...(e.lists ?? []), e.tail];
    else {
      blocks = [e.tail];
      const want = Math.ceil(this.partition.probeShare * e.grouped);
      let covered = 0;
      for (const l of coarse.rank(query)) {
        if (covered >= want) break;
        const b = e.lists[l]!;
        if (b.n > 0) blocks.push(b);
        covered += b.n;
      }
      complete = covered >= e.grouped;
    }
    // The best `count` over all blocks by (distance, item), merged by insertion into two
    // short typed arrays: no object per scanned hit.
    const bestLocal = new Int32Array(count);
    const bestDist = new Float32Array(count);
    let kept = 0;
    for (const b of blocks) {
      const r = scanDotRaw(b.rows, b.n, q, e.store.dimensions, count);
      if (r === null) continue;
      for (let i = 0; i < r.keys.length; i++) {
        const dist = r.distances[i]!;
        const local = b.locals[Number(r.keys[i])]!;
        if (kept === count) {
          const last = bestDist[kept - 1]!;
          if (dist > last || (dist === last && local > bestLocal[kept - 1]!)) continue;
        }
        let at = kept < count ? kept++ : kept - 1;
        while (
          at > 0 &&
          (bestDist[at - 1]! > dist || (bestDist[at - 1] === dist && bestLocal[at - 1]! > local))
        ) {
          bestDist[at] = bestDist[at - 1]!;
          bestLocal[at] = bestLocal[at - 1]!;
          at--;
        }
        bestDist[at] = dist;
        bestLocal[at] = local;
      }
    }
    return { locals: Array.from(bestLocal.subarray(0, kept)), complete };
  }

  /**
   * The `k` items nearest the query among those the NPC knows at `t`, scanning its
   * contiguous matrix (built or brought up to date first). A big copy is scanned by
   * its nearest lists only; if fewer than `k` known items turn up there, everything is.
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
    const e = this.sync(key, view, store, c, list, t);
    const q = store.quantize(query);
    const table = view.items[c];
    const knows = view.knower(npc, c, t);
    const first = Math.max(4 * k, RERANK_MIN);
    let everything = false;
    for (let count = first; ; count *= 4) {
      const hits: Array<MatrixHit> = [];
      const { locals, complete } = this.candidates(e, query, q, count, everything);
      for (const local of locals) {
        if (!knows(local)) continue;
        hits.push({ local, similarity: store.similarity(query, table.rowids[local]!) });
      }
      const exhausted = locals.length < count;
      // Enough known hits to rerank with a margin: the i8 order only approximates the
      // cosine, so when most candidates are filtered out (facts learnt after t, expired
      // memories) the k-th known one may sit just past the cut — widen instead.
      if (hits.length >= Math.max(k, first >>> 1) || (exhausted && complete)) {
        // Mostly filtered out: prune the copy of what can never come back, for next time.
        if (locals.length - hits.length > hits.length) this.prune(e, view, c, t);
        return hits.sort((a, b) => b.similarity - a.similarity || a.local - b.local).slice(0, k);
      }
      if (exhausted) {
        everything = true; // the probed lists ran out: scan every row
        count = first / 4;
      }
    }
  }
}
