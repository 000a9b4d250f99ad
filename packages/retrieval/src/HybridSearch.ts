/**
 * Knowledge-filtered hybrid search over one collection for one NPC at one time.
 * Candidates come from three places, every one already restricted to items the NPC
 * knows at t (the `SaveView` rule), then are scored and ranked:
 *
 *  - exact filters: the NPC's own items, items of related NPCs, of its faction, at its
 *    location, naming an entity from the scene or query, about its active tasks;
 *  - keywords: FTS5 bm25 over the query (capped), kept only if known;
 *  - vectors: the known items nearest the query (`knownNearest`).
 *
 * Small known sets (counted at t) are enumerated once and serve both the filters and an
 * exact vector scan; large ones are reached through posting lists (newest first, capped)
 * and HNSW.
 */
import type { DossierItemKind } from "@hearsay/core";
import { type CollectionName, collections } from "./collections.ts";
import { entitiesIn } from "./EntityMentions.ts";
import type { Quote } from "./ItemTable.ts";
import type { KeywordSearch } from "./KeywordSearch.ts";
import type { KnownMatrices } from "./KnownMatrices.ts";
import {
  defaultNearestTuning,
  knownCount,
  knownNearest,
  knownSetAt,
  type LoreNearest,
  type NearestTuning,
} from "./knownNearest.ts";
import type { SaveView } from "./SaveView.ts";
import { defaultScoringOptions, type ScoringOptions, scoreBase, scoreFrom } from "./scoring.ts";
import { TopHits } from "./TopHits.ts";
import type { VectorStore } from "./VectorStore.ts";

/** Everything a search needs about the asking NPC, computed once per request. */
export interface SearchContext {
  readonly view: SaveView;
  /** Interned NPC (-1 when the save has never heard of it: it then knows only lore). */
  readonly npc: number;
  readonly t: number;
  readonly faction: number;
  readonly location: number;
  readonly related: ReadonlySet<number>;
  readonly relatedNames: ReadonlySet<number>;
  readonly mentioned: ReadonlySet<number>;
  readonly activeTasks: ReadonlySet<number>;
  readonly queryVector: Float32Array | null;
  /** Query text for keyword candidates (null: none). */
  readonly keywordText: string | null;
  /**
   * Rank as of this earlier time: only items recorded by then, aged from it — what the
   * NPC knows is still what it knows at `t`. A ranking as of the start of a day stays the
   * same all day, whatever the NPC takes in meanwhile.
   */
  readonly asOf?: number;
  /**
   * Only items whose end of life set when they were recorded (a memory's expiry, a world
   * event's lapse) is not before this time: a ranking meant to stand for a span of days
   * holds what lasts through it, so nothing leaves it by expiring meanwhile.
   */
  readonly lastsUntil?: number;
}

/** Entity names (interned, lower case) that occur in `text` as 1–4 word phrases. */
export const mentionedEntities = (view: SaveView, text: string): Set<number> =>
  entitiesIn(view.entities, text);

/** One ranked result. */
export interface SearchHit {
  readonly collection: CollectionName;
  readonly kind: DossierItemKind;
  /** The id the event export uses (memoryId, worldEventId, chunkId, debateId, conversationId). */
  readonly id: string;
  readonly rowid: number;
  readonly local: number;
  /** When it happened or was recorded (game minutes; lore 0). */
  readonly t: number;
  /** The words a dossier quotes of it, as the view keeps them. */
  readonly quote: Quote;
  readonly score: number;
  readonly similarity: number;
}

/** Tunables of a search. */
export interface SearchTuning extends NearestTuning {
  /**
   * Known sets of up to this many facts are enumerated at t (default 8,192): when at
   * most `exactMax` of them are known then (the rest learnt later, or memories expired
   * or forgotten), the search is exact over those; otherwise it goes through posting
   * lists. Enumerating a fact is cheap: one search's posting-list walks cost more than
   * enumerating the default's worth of them.
   */
  readonly enumerateMax: number;
  /** Filter hits kept per posting list (default 24). */
  readonly filterHits: number;
  /** Posting entries scanned per list before giving up (default 512). */
  readonly scanCap: number;
  /** FTS rows fetched per collection (default 100). */
  readonly keywordLimit: number;
  /**
   * Compute a filter or keyword candidate's cosine only while it could still rank
   * (default true; false computes every one — the same results, the reference for tests).
   */
  readonly boundSimilarity?: boolean;
}

export const defaultSearchTuning: SearchTuning = {
  ...defaultNearestTuning,
  enumerateMax: 8192,
  filterHits: 24,
  scanCap: 512,
  keywordLimit: 100,
};

/** A candidate's cosine (NaN: not computed yet) and keyword relevance. */
export interface Cand {
  similarity: number;
  keyword: number;
}

/**
 * The largest cosine an f16 row can have with a unit query: 1, plus f16 rounding of the
 * row's components (a loose margin; it only decides which cosines are computed).
 */
const SIMILARITY_MAX = 1.001;

const exportId = (c: CollectionName, id: string): string =>
  c === "conversation_summaries" ? id.slice(0, id.indexOf("\u0000")) : id;

/** Does item `local` match any exact filter of the context? */
const matchesFilter = (ctx: SearchContext, c: CollectionName, local: number): boolean => {
  const tab = ctx.view.items[c];
  const owner = tab.owner[local]!;
  if (owner === ctx.npc && owner >= 0) return true;
  if (ctx.location >= 0 && tab.location[local] === ctx.location) return true;
  if (ctx.faction >= 0 && tab.faction[local] === ctx.faction) return true;
  if (tab.aboutTask[local]! >= 0 && ctx.activeTasks.has(tab.aboutTask[local]!)) return true;
  if (ctx.related.has(owner)) return true;
  // Indexed loops: this runs for every item an NPC knows, and an array iterator there
  // allocated a result object per element.
  const parts = tab.participants[local]!;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === ctx.npc || ctx.related.has(p)) return true;
  }
  const ents = tab.entities[local]!;
  for (let i = 0; i < ents.length; i++) {
    const e = ents[i]!;
    if (ctx.mentioned.has(e) || ctx.relatedNames.has(e)) return true;
  }
  return false;
};

/** Walks a posting list from its newest end, keeping known items. */
const walk = (
  knows: (local: number) => boolean,
  list: ReadonlyArray<number> | undefined,
  into: Map<number, Cand>,
  tuning: SearchTuning,
): void => {
  if (!list) return;
  let kept = 0;
  for (let i = list.length - 1, scanned = 0; i >= 0 && scanned < tuning.scanCap; i--, scanned++) {
    const local = list[i]!;
    if (!knows(local)) continue;
    if (!into.has(local)) into.set(local, { similarity: Number.NaN, keyword: 0 });
    if (++kept >= tuning.filterHits) return;
  }
};

/** Whether any of `ids` is in `set` (an indexed loop: this runs for every candidate). */
const anyIn = (ids: ReadonlyArray<number>, set: ReadonlySet<number>): boolean => {
  for (let i = 0; i < ids.length; i++) if (set.has(ids[i]!)) return true;
  return false;
};

/** One known candidate's score before its similarity and keyword relevance (`scoreBase`). */
const baseScore = (ctx: SearchContext, c: CollectionName, local: number, o: ScoringOptions) => {
  const tab = ctx.view.items[c];
  const owner = tab.owner[local]!;
  const parts = tab.participants[local]!;
  const ents = tab.entities[local]!;
  const ownerFaction = owner >= 0 ? (ctx.view.npcFaction.get(owner) ?? -1) : -1;
  const age = c === "lore" ? o.recentMinutes + 1 : (ctx.asOf ?? ctx.t) - tab.t[local]!;
  return scoreBase(
    {
      sameNpc: (owner >= 0 && owner === ctx.npc) || parts.includes(ctx.npc),
      relatedNpc:
        ctx.related.has(owner) || anyIn(parts, ctx.related) || anyIn(ents, ctx.relatedNames),
      sameFaction:
        ctx.faction >= 0 &&
        (tab.faction[local] === ctx.faction || (owner !== ctx.npc && ownerFaction === ctx.faction)),
      sameLocation: ctx.location >= 0 && tab.location[local] === ctx.location,
      entityMention: anyIn(ents, ctx.mentioned),
      activeTask: tab.aboutTask[local]! >= 0 && ctx.activeTasks.has(tab.aboutTask[local]!),
      importance: tab.importance[local]!,
      ageMinutes: age,
      expired: false,
    },
    o,
  );
};

/** A candidate offered to a ranking's top, with its score. */
interface Offered {
  readonly local: number;
  readonly cand: Cand;
  readonly score: number;
}

/** A candidate's cosine for scoring (0 when not computed: no vectors). */
const similarityOf = (cand: Cand): number => (Number.isNaN(cand.similarity) ? 0 : cand.similarity);

/**
 * A search's candidates in one collection, by local, before they are ranked: what the
 * NPC knows at t that a filter, the keywords or the vectors bring up. Ranking fills in a
 * candidate's cosine when it needs it (the same value whoever asks).
 */
export type Candidates = Map<number, Cand>;

/**
 * The best `limit` items of one collection that the NPC knows at t, ranked by score.
 * `store` null means no vectors (index disabled); `keywords` null means no FTS.
 */
export const searchCollection = (
  ctx: SearchContext,
  c: CollectionName,
  store: VectorStore | null,
  keywords: KeywordSearch | null,
  limit: number,
  scoring: ScoringOptions = defaultScoringOptions,
  tuning: SearchTuning = defaultSearchTuning,
  matrices: KnownMatrices | null = null,
  lore: LoreNearest | null = null,
): Array<SearchHit> =>
  rankCandidates(
    ctx,
    c,
    store,
    gatherCandidates(ctx, c, store, keywords, limit, tuning, matrices, lore),
    limit,
    scoring,
    tuning,
  );

/**
 * Hands an on-demand store every row of `c` in a known set, with the texts the view
 * keeps of them (an item's quote holds its embedded columns), so that the store holds them
 * all before the search reads any.
 */
const fillKnown = (
  view: SaveView,
  store: VectorStore,
  c: CollectionName,
  { rowids, locals }: { readonly rowids: ArrayLike<number>; readonly locals: ArrayLike<number> },
): void => {
  if (rowids.length === 0) return;
  const tab = view.items[c];
  const columns = collections[c].textColumns;
  store.onDemand!(rowids, view.saveId, (i) => {
    const quote = tab.quoteOf(locals[i]!) as Readonly<Record<string, unknown>>;
    return columns.map((column) => quote[column]);
  });
};

/**
 * The candidates {@link searchCollection} ranks. They depend on the context's NPC, time,
 * filters and query, not on its window (`asOf`, `lastsUntil`): searches that differ only
 * in their window may rank the same candidates.
 */
export const gatherCandidates = (
  ctx: SearchContext,
  c: CollectionName,
  store: VectorStore | null,
  keywords: KeywordSearch | null,
  limit: number,
  tuning: SearchTuning = defaultSearchTuning,
  matrices: KnownMatrices | null = null,
  lore: LoreNearest | null = null,
): Candidates => {
  const { view, npc, t } = ctx;
  const tab = view.items[c];
  const cands: Candidates = new Map();
  const count = knownCount(view, npc, c);
  if (count === 0) return cands; // nothing known: no filter, keyword or vector work at all
  // The search is exact when what the NPC knows *at t* is few, however many facts it
  // has: late in a long run an NPC has many more memory facts than memories still alive.
  const listed = count <= tuning.enumerateMax ? knownSetAt(view, npc, c, t) : null;
  // An on-demand collection's store embeds first every row this search may read (the
  // known set listed above, or listed for it alone when too large to list for the search).
  if (store?.onDemand && ctx.queryVector)
    fillKnown(view, store, c, listed ?? knownSetAt(view, npc, c, t));
  const known = listed && listed.locals.length <= tuning.exactMax ? listed : null;
  const knows = view.knower(npc, c, t);

  // exact filters
  if (known) {
    const hits: Array<number> = [];
    for (let i = 0; i < known.locals.length; i++) {
      const local = known.locals[i]!;
      if (matchesFilter(ctx, c, local)) hits.push(local);
    }
    hits.sort((a, b) => b - a);
    for (const local of hits.slice(0, tuning.filterHits * 4))
      cands.set(local, { similarity: Number.NaN, keyword: 0 });
  } else {
    if (npc >= 0) walk(knows, tab.byNpc.get(npc), cands, tuning);
    if (ctx.location >= 0) walk(knows, tab.byLocation.get(ctx.location), cands, tuning);
    if (ctx.faction >= 0) walk(knows, tab.byFaction.get(ctx.faction), cands, tuning);
    for (const e of ctx.mentioned) walk(knows, tab.byEntity.get(e), cands, tuning);
    for (const task of ctx.activeTasks) walk(knows, tab.byTask.get(task), cands, tuning);
    for (const r of ctx.related) walk(knows, tab.byNpc.get(r), cands, tuning);
  }

  // keywords
  if (keywords && ctx.keywordText) {
    for (const hit of keywords.search(c, ctx.keywordText, tuning.keywordLimit)) {
      const local = tab.localOfRowid.get(hit.rowid);
      if (local === undefined || !knows(local)) continue;
      const cand = cands.get(local);
      if (cand) cand.keyword = Math.max(cand.keyword, hit.relevance);
      else cands.set(local, { similarity: Number.NaN, keyword: hit.relevance });
    }
  }

  // vectors
  const q = ctx.queryVector;
  if (store && q) {
    const nearest =
      lore !== null && c === "lore" && listed !== null
        ? lore.nearest(view, store, npc, t, q, limit, tuning, listed)
        : knownNearest(
            view,
            store,
            npc,
            c,
            t,
            q,
            limit,
            tuning,
            // Enumerated once: a set too large for the exact filters is still the vector path's.
            listed ?? undefined,
            matrices,
          );
    for (const hit of nearest) {
      const cand = cands.get(hit.local);
      if (cand) cand.similarity = hit.similarity;
      else cands.set(hit.local, { similarity: hit.similarity, keyword: 0 });
    }
  }

  return cands;
};

/**
 * The best `limit` of the candidates in the context's window, by score. A filter or
 * keyword candidate's cosine costs an f16 row read (a random memory access), so it is
 * computed only while the candidate could still make the top `limit`: its score without
 * similarity plus the most similarity can add bounds it. Candidates are taken by that
 * bound, best first, and the rest are dropped once even their bound falls below the
 * `limit`-th exact score — the same top as scoring all, whichever cosines are known.
 */
export const rankCandidates = (
  ctx: SearchContext,
  c: CollectionName,
  store: VectorStore | null,
  cands: Candidates,
  limit: number,
  scoring: ScoringOptions = defaultScoringOptions,
  tuning: SearchTuning = defaultSearchTuning,
): Array<SearchHit> => {
  const tab = ctx.view.items[c];
  const q = ctx.queryVector;
  // A candidate is offered by its score; only those kept become hits.
  const hit = (local: number, cand: Cand, base: number): Offered => ({
    local,
    cand,
    score: scoreFrom(base, similarityOf(cand), cand.keyword, scoring),
  });
  const top = new TopHits<Offered>(limit);
  const open: Array<{ local: number; cand: Cand; base: number; bound: number }> = [];
  const lift = Math.max(0, scoring.weights.semantic) * SIMILARITY_MAX + 1e-9;
  for (const [local, cand] of cands) {
    if (ctx.asOf !== undefined && tab.t[local]! > ctx.asOf) continue;
    if (ctx.lastsUntil !== undefined) {
      const end = tab.expiresAt[local]!;
      if (end >= 0 && end < ctx.lastsUntil) continue;
    }
    const base = baseScore(ctx, c, local, scoring);
    if (store && q && Number.isNaN(cand.similarity)) {
      const bound = scoreFrom(base, 0, cand.keyword, scoring) + lift;
      open.push({ local, cand, base, bound });
    } else top.offer(hit(local, cand, base));
  }
  open.sort((a, b) => b.bound - a.bound || b.local - a.local);
  const bounded = tuning.boundSimilarity !== false;
  for (const o of open) {
    if (bounded && !top.couldTake(o.bound)) break;
    o.cand.similarity = store!.similarity(q!, tab.rowids[o.local]!);
    top.offer(hit(o.local, o.cand, o.base));
  }
  return top.hits().map(({ local, cand, score }) => ({
    collection: c,
    kind: collections[c].kind,
    id: exportId(c, tab.ids[local]!),
    rowid: tab.rowids[local]!,
    local,
    t: tab.t[local]!,
    quote: tab.quoteOf(local),
    score,
    similarity: similarityOf(cand),
  }));
};
