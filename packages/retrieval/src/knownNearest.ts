/**
 * Knowledge-filtered nearest neighbours: the top-k items of one collection, by cosine
 * to the query, among only the items an NPC knows at t. USearch has no filter
 * predicate, and post-filtering one global HNSW search loses most of the true top-k
 * when the NPC knows a small share of the world, so the path is chosen by scope:
 *
 *   a known set ≤ `exactMax` (any collection:   → exact scan over just those vectors
 *   lore, a young world's events, an NPC's own    (i8, natively; cost ∝ known set);
 *   memories); a share so small that the graph    no graph
 *   would need more than `graphMax` candidates,
 *   or candidates that would cost more than the
 *   scan (`graphCost`); or a contiguous copy of
 *   ≤ `matrixMax` rows
 *   a known set larger than `exactMax` that is    → every HNSW graph segment searched
 *   a large share of the collection (world        oversampled by 1/share, each candidate
 *   events, debates, memories late in a run)      checked against the NPC's knowledge,
 *                                                 widened ×4 while fewer than k survive
 *                                                 (an exact scan of that segment past
 *                                                 `maxCandidates`), plus an exact scan of
 *                                                 the rows no graph holds yet; all ranked
 *                                                 by the same cosine (`VectorStore.filtered`).
 *
 * A graph is approximate and, over a few hundred rows, no cheaper: a shared collection's
 * graphs are built from 16 rows on, and a segment no larger than the candidate list asked
 * of it returns all its rows, so below a thousand or so rows the graph search is added to
 * an exact scoring of nearly every row. Small known sets are therefore exact whatever the
 * collection, and exactly right.
 *
 * An exact scan of a known set larger than `matrixMin` reads the NPC's contiguous copy
 * (`KnownMatrices`) when one is given. Either way a result is only ever an item `knows`
 * accepts: visibility is a filter.
 */
import { type CollectionName, sharedCollections } from "./collections.ts";
import type { Scored } from "./ExactScan.ts";
import type { KnownMatrices } from "./KnownMatrices.ts";
import { factKindOf, type SaveView } from "./SaveView.ts";
import type { VectorStore } from "./VectorStore.ts";

/** Tunables of the vector path. */
export interface NearestTuning {
  /**
   * Known sets up to this size are always scanned exactly, in every collection (default
   * 1,024): over fewer rows an exact scan costs no more than the graphs' search.
   */
  readonly exactMax: number;
  /**
   * Known sets larger than this are scanned from the NPC's contiguous copy when the
   * caller keeps `KnownMatrices` (default 256): gathering rows costs more than scanning.
   */
  readonly matrixMin: number;
  /**
   * Known sets up to this size (and under a quarter of the collection) are scanned from
   * their contiguous copy even when the HNSW graph could serve them (default 131,072): a
   * native scan of 100k rows costs less than an oversampled graph search wide enough
   * for a 5 % share.
   */
  readonly matrixMax: number;
  /** Oversampling factor on top of 1/share (default 3). */
  readonly oversample: number;
  /**
   * The graph is tried only if its first candidate list would be at most this long
   * (default 512): a wider HNSW search costs more than scanning the known set exactly.
   */
  readonly graphMax: number;
  /** Widest HNSW candidate list before falling back to an exact scan (default 4,096). */
  readonly maxCandidates: number;
  /**
   * What one graph candidate costs against one row of an exact scan (default 32): the
   * graph is tried only when the candidates its segments would return, times this, are
   * at most the known set. Each segment is searched for the whole oversampled list, so a
   * collection of many segments can read more candidates than a mid-sized known set has
   * rows, each a walk of its neighbours (a dozen scattered rows read) — slower than the
   * exact scan, which reads one 64-byte sketch a row (`SignCodes`), and approximate.
   */
  readonly graphCost: number;
}

export const defaultNearestTuning: NearestTuning = {
  exactMax: 1024,
  matrixMin: 256,
  matrixMax: 131_072,
  oversample: 3,
  graphMax: 512,
  maxCandidates: 4096,
  graphCost: 32,
};

/** A hit of the vector path: an item (by local number) and its cosine. */
export interface NearHit {
  readonly local: number;
  readonly similarity: number;
}

/** How many items the NPC has facts for in the collection (an upper bound on what it knows). */
export const knownCount = (view: SaveView, npc: number, c: CollectionName): number => {
  const kind = factKindOf(c);
  if (kind) return view.knownList(npc, kind)?.size ?? 0;
  if (c === "lore") return view.items.lore.liveCount;
  return view.items.conversation_summaries.byNpc.get(npc)?.length ?? 0;
};

/** Every item of the collection the NPC knows at t, as rowids (parallel to locals). */
export const knownRowids = (
  view: SaveView,
  npc: number,
  c: CollectionName,
  t: number,
): { readonly rowids: Array<number>; readonly locals: Array<number> } => {
  const table = view.items[c];
  const rowids: Array<number> = [];
  const locals: Array<number> = [];
  const take = (local: number) => {
    if (view.knows(npc, c, local, t)) {
      rowids.push(table.rowids[local]!);
      locals.push(local);
    }
  };
  const kind = factKindOf(c);
  if (kind) {
    // Walking the NPC's own facts: the fact time is at hand, so no lookup per item
    // (the same rule as `SaveView.knows`).
    view.knownList(npc, kind)?.forEach((local, since) => {
      if (since > t || !table.aliveAt(local, t)) return;
      rowids.push(table.rowids[local]!);
      locals.push(local);
    });
  } else if (c === "lore") for (let i = 0; i < table.length; i++) take(i);
  else for (const local of table.byNpc.get(npc) ?? []) take(local);
  return { rowids, locals };
};

/** Where {@link knownRowidsInto} writes: grown as needed, reused by every scan. */
let scratchRowids = new Float64Array(1024);
let scratchLocals = new Int32Array(1024);

/**
 * The rowids of every item the NPC knows at t, as {@link knownRowids} gives them, written
 * into a buffer reused between calls (a view of it, valid until the next call): an exact
 * scan then allocates nothing per known item, so large known sets do not fill the young
 * generation and bring on collections mid-dossier.
 */
const knownRowidsInto = (
  view: SaveView,
  npc: number,
  c: CollectionName,
  t: number,
): Float64Array => {
  const kind = factKindOf(c);
  if (!kind) return Float64Array.from(knownRowids(view, npc, c, t).rowids);
  const list = view.knownList(npc, kind);
  if (!list) return scratchRowids.subarray(0, 0);
  if (scratchRowids.length < list.size) {
    const size = Math.max(list.size, scratchRowids.length * 2);
    scratchRowids = new Float64Array(size);
    scratchLocals = new Int32Array(size);
  }
  const out = scratchRowids;
  const locals = scratchLocals;
  const table = view.items[c];
  const itemRowids = table.rowids;
  // A plain loop over the list's arrays, then one over what it wrote: a callback per
  // fact was a sixth of a large known set's scan. The same rule as `knownRowids` (and
  // `SaveView.knows`): a lapsed world event is known no more than an expired memory.
  const facts = list.knownBy(t, locals);
  let n = 0;
  for (let i = 0; i < facts; i++) {
    const local = locals[i]!;
    if (table.aliveAt(local, t)) out[n++] = itemRowids[local]!;
  }
  return out.subarray(0, n);
};

/** Where {@link knownSetAt} writes: grown as needed, reused by every search. */
let setRowids = new Float64Array(1024);
let setLocals = new Int32Array(1024);

/**
 * {@link knownRowids} into buffers reused between calls (views of them, valid until the
 * next call): enumerating a known set of thousands allocates nothing per item.
 */
export const knownSetAt = (
  view: SaveView,
  npc: number,
  c: CollectionName,
  t: number,
): { readonly rowids: ArrayLike<number>; readonly locals: ArrayLike<number> } => {
  const kind = factKindOf(c);
  const list = kind ? view.knownList(npc, kind) : undefined;
  if (!kind) return knownRowids(view, npc, c, t);
  if (!list) return { rowids: setRowids.subarray(0, 0), locals: setLocals.subarray(0, 0) };
  if (setRowids.length < list.size) {
    const size = Math.max(list.size, setRowids.length * 2);
    setRowids = new Float64Array(size);
    setLocals = new Int32Array(size);
  }
  const rowids = setRowids;
  const locals = setLocals;
  const table = view.items[c];
  const facts = list.knownBy(t, locals);
  let n = 0;
  // The same rule as `knownRowids` (and `SaveView.knows`).
  for (let i = 0; i < facts; i++) {
    const local = locals[i]!;
    if (!table.aliveAt(local, t)) continue;
    rowids[n] = table.rowids[local]!;
    locals[n++] = local;
  }
  return { rowids: rowids.subarray(0, n), locals: locals.subarray(0, n) };
};

/**
 * Brings the store's shared rows (`VectorStore.shareItems`) up to the items of `c` the
 * view counts as known by many; cheap when none became so since the last call.
 */
export const shareCommonRows = (view: SaveView, store: VectorStore, c: CollectionName): void => {
  const kind = factKindOf(c);
  if (!kind) return;
  const table = view.items[c];
  store.shareItems(view.commonItems(kind), (local) => table.rowids[local]!);
};

const fromScored = (
  view: SaveView,
  c: CollectionName,
  scored: ReadonlyArray<Scored>,
): Array<NearHit> => {
  const table = view.items[c];
  const out: Array<NearHit> = [];
  for (const s of scored) {
    const local = table.localOfRowid.get(s.rowid);
    if (local !== undefined) out.push({ local, similarity: s.similarity });
  }
  return out;
};

/**
 * The `k` known items nearest the query (fewer when the NPC knows fewer). Pass `known`
 * (from {@link knownRowids}) when the caller already enumerated the known set.
 */
export const knownNearest = (
  view: SaveView,
  store: VectorStore,
  npc: number,
  c: CollectionName,
  t: number,
  query: Float32Array,
  k: number,
  tuning: NearestTuning = defaultNearestTuning,
  known?: { readonly rowids: ArrayLike<number> },
  matrices?: KnownMatrices | null,
): Array<NearHit> => {
  const n = known ? known.rowids.length : knownCount(view, npc, c);
  if (n === 0 || k <= 0) return [];
  const kind = factKindOf(c);
  const list = kind ? view.knownList(npc, kind) : undefined;
  const shared = sharedCollections.has(c);
  const exact = () => {
    // A large known set is scanned from its contiguous copy, not gathered row by row —
    // but not a small set of items known by many: every NPC would copy the same rows.
    if (matrices && list && n > tuning.matrixMin && !(shared && n <= tuning.exactMax)) {
      return matrices.nearest(view, store, npc, c, list, t, query, k);
    }
    const rowids = known ? known.rowids : knownRowidsInto(view, npc, c, t);
    if (n > tuning.exactMax) shareCommonRows(view, store, c);
    return fromScored(view, c, store.exact(query, rowids, k));
  };
  const share = Math.min(1, n / Math.max(1, store.size));
  const kPrime = Math.max(4 * k, Math.ceil((k * tuning.oversample) / share));
  // A copy beats the graph for a mid-sized share; from a quarter of the world up, the
  // graph needs so few candidates (about 12 per result wanted) that it is cheaper.
  const copied = matrices && list && n > tuning.matrixMin && n <= tuning.matrixMax && share < 0.25;
  if (n <= tuning.exactMax || !store.hasGraph || kPrime > tuning.graphMax || copied) {
    return exact();
  }
  if (store.graphProbeRows(k, kPrime, view.saveId) * tuning.graphCost > n) return exact();
  const table = view.items[c];
  const localOfRowid = table.localOfRowid;
  // The NPC's fact list looked up once, not per candidate (`SaveView.knower`).
  const knows = view.knower(npc, c, t);
  const accept = (rowid: number) => {
    const local = localOfRowid.get(rowid);
    return local !== undefined && knows(local);
  };
  return fromScored(
    view,
    c,
    store.filtered(query, k, kPrime, tuning.maxCandidates, accept, view.saveId),
  );
};

/**
 * {@link knownNearest} for the lore, kept per query vector. The lore is public — every
 * NPC knows every live chunk at every time — so the lore nearest a query is the same for
 * every NPC that asks, and a run's turns rank their lore by their place: most ask what a
 * neighbour asked. Answers are kept only for a lore small enough to be scanned exactly
 * (its answer then depends on the rows alone), and only while the view, the store, the
 * lore's items and the store's rows are those they were computed from. Keyed by the
 * vector itself: a pure embedder gives one text the same vector (`embedQuery`).
 */
export class LoreNearest {
  private view: SaveView | null = null;
  private store: VectorStore | null = null;
  private items = -1;
  private live = -1;
  private version = -1;
  private byQuery = new WeakMap<Float32Array, Map<number, Array<NearHit>>>();

  /** The `k` lore items nearest `query`: kept, or `knownNearest`'s answer (then kept). */
  nearest(
    view: SaveView,
    store: VectorStore,
    npc: number,
    t: number,
    query: Float32Array,
    k: number,
    tuning: NearestTuning,
    known: { readonly rowids: ArrayLike<number> },
  ): Array<NearHit> {
    const table = view.items.lore;
    const ask = () => knownNearest(view, store, npc, "lore", t, query, k, tuning, known);
    if (known.rowids.length > tuning.exactMax) return ask();
    if (
      view !== this.view ||
      store !== this.store ||
      table.length !== this.items ||
      table.liveCount !== this.live ||
      store.version !== this.version
    ) {
      this.view = view;
      this.store = store;
      this.items = table.length;
      this.live = table.liveCount;
      this.version = store.version;
      this.byQuery = new WeakMap();
    }
    let byK = this.byQuery.get(query);
    if (byK === undefined) {
      byK = new Map();
      this.byQuery.set(query, byK);
    }
    let hits = byK.get(k);
    if (hits === undefined) {
      hits = ask();
      byK.set(k, hits);
    }
    return hits;
  }
}
