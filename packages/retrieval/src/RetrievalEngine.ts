/**
 * Retrieval as plain synchronous calls, for the engine's hot loop (many dossiers per
 * tick): one `SaveView` per save kept current from the log, one keyword searcher, the
 * vector index, and prepared statements — nothing is loaded per call. Each call first
 * asks the log for the save's head seq (`EventSource.head`; without it, one indexed
 * read) and folds in any new events; new or
 * changed rows get vectors at once with a synchronous embedder, or wait in `pending`
 * for `VectorIndexes.update` with a model-backed one.
 */
import type { DeferredDossier, Dossier, StoredEvent } from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";
import {
  buildDossier,
  type DossierReads,
  type DossierRequest,
  deferredDossier,
} from "./buildDossier.ts";
import { type CollectionName, collectionNames } from "./collections.ts";
import { DossierSource } from "./DossierSource.ts";
import type { EmbedderShape } from "./Embedder.ts";
import {
  type Candidates,
  defaultSearchTuning,
  gatherCandidates,
  mentionedEntities,
  rankCandidates,
  type SearchContext,
  type SearchHit,
  type SearchTuning,
} from "./HybridSearch.ts";
import { KeywordSearch } from "./KeywordSearch.ts";
import { defaultPartitionTuning, KnownMatrices, type PartitionTuning } from "./KnownMatrices.ts";
import { LoreNearest, shareCommonRows } from "./knownNearest.ts";
import { requestTime } from "./requestTime.ts";
import { SaveView, type Touched, type TouchedRows } from "./SaveView.ts";
import { defaultScoringOptions, type ScoringOptions } from "./scoring.ts";
import { type SectionBudgets, standardBudgets } from "./tokenBudget.ts";
import type { VectorIndexes } from "./VectorIndex.ts";
import type { VectorStore } from "./VectorStore.ts";

/** Where new events come from: the store's event log (`SqliteEventLog` fits). */
/**
 * The rows of the NPC a dossier is for, read from elsewhere than the save's read models
 * (a run reads its actors'): they must give what `DossierSource` would.
 */
export type OwnRows = Pick<
  DossierSource,
  "character" | "profile" | "activity" | "edges" | "openTasks"
>;

export interface EventSource {
  read(saveId: string, range?: { readonly fromSeq?: number }): ReadonlyArray<StoredEvent>;
  /**
   * The save's head seq as the log knows it (`SqliteEventLog.head`); absent, the view
   * reads `saves.head_seq`. Asked before every dossier and after every catch-up: a log
   * that knows its head without a read makes a dossier read no table at all.
   */
  head?(saveId: string): number;
  /** Folds what the save's read models lag behind its log (`SqliteEventLog.caughtUp`). */
  caughtUp?(saveId: string): number;
}

/** Options for {@link RetrievalEngine}. */
export interface RetrievalEngineOptions {
  readonly log: EventSource;
  /** Embeds query text; its `embedSync` is used when present. */
  readonly embedder: EmbedderShape;
  /** The vector index (null or absent: keyword and exact filters only). */
  readonly index?: VectorIndexes | null;
  readonly scoring?: ScoringOptions;
  readonly tuning?: SearchTuning;
  /** Default dossier budgets (standard ~3,000 tokens). */
  readonly budgets?: SectionBudgets;
  /** Use FTS5 keyword candidates for query text (default true). */
  readonly keywords?: boolean;
  /** Memory for contiguous copies of large known sets (default 2 GiB). */
  readonly matrixBudgetBytes?: number;
  /**
   * Rank vectors exactly: never through the HNSW graphs or a partial probe of a grouped
   * copy (default false). The graphs' answers depend only on the rows held (see
   * `GraphSegments`); a partial probe depends on when an NPC's copy was grouped, so a run
   * that must replay identically keeps `partition.probeShare` at 1 instead.
   */
  readonly exactVectors?: boolean;
  /** How big known-set copies are grouped and probed (default `defaultPartitionTuning`). */
  readonly partition?: PartitionTuning;
  /**
   * Keep per-NPC contiguous copies of large known sets (default true). Without them a
   * known set too small a share for the graphs is gathered row by row for each query:
   * slower when warm, but no copy's memory and no first-query cost of making one.
   */
  readonly knownCopies?: boolean;
}

/** A search for one NPC at one time. */
export interface SearchRequest {
  readonly saveId: string;
  readonly npcId: string;
  readonly t: number;
  readonly query?: string | null;
  /** A precomputed query vector (else the embedder's `embedSync`, if any, embeds `query`). */
  readonly queryVector?: Float32Array | null;
  readonly scene?: {
    readonly locationId?: string | null;
    readonly present?: ReadonlyArray<string>;
  } | null;
  readonly collections?: ReadonlyArray<CollectionName>;
  /** Results per collection (default 10). */
  readonly limit?: number;
}

/**
 * Query vectors a pure embedder's engine keeps, at most (then it starts over): a run's
 * queries are mostly its places, with their tasks, so a few hundred texts recur.
 */
const QUERY_VECTORS_KEPT = 2048;

export class RetrievalEngine {
  readonly source: DossierSource;
  readonly scoring: ScoringOptions;
  readonly tuning: SearchTuning;
  readonly budgets: SectionBudgets;
  private readonly views = new Map<string, SaveView>();
  private readonly keywords: KeywordSearch | null;
  /** Contiguous copies of large known sets' vectors (see `KnownMatrices`). */
  readonly matrices: KnownMatrices;
  private readonly pendingTouched: Touched = {};
  /** The lore nearest each query vector, for every NPC alike. */
  private readonly loreNearest = new LoreNearest();
  /** Query vectors by text, when the embedder is pure (`embedQuery`). */
  private readonly queryVectors = new Map<string, Float32Array>();
  /** The last `dossierReads` made, with the view and own rows it reads (a run asks the same). */
  private lastReads: {
    readonly view: SaveView;
    readonly own: OwnRows | undefined;
    readonly reads: DossierReads;
  } | null = null;

  constructor(
    readonly db: SqliteDatabase,
    readonly options: RetrievalEngineOptions,
  ) {
    this.source = new DossierSource(db);
    this.scoring = options.scoring ?? defaultScoringOptions;
    const tuning = options.tuning ?? defaultSearchTuning;
    // No graph search can be asked for fewer than one candidate, so every search is exact.
    this.tuning = options.exactVectors === true ? { ...tuning, graphMax: 0 } : tuning;
    this.budgets = options.budgets ?? standardBudgets;
    this.keywords =
      options.keywords === false
        ? null
        : new KeywordSearch(db, {
            // FTS5 is a read model: every save searched is caught up with its log first.
            ready: () => {
              for (const saveId of this.views.keys()) this.ready(saveId);
            },
          });
    const partition = options.partition ?? defaultPartitionTuning;
    this.matrices = new KnownMatrices(
      options.matrixBudgetBytes,
      options.exactVectors === true ? { ...partition, probeShare: 1 } : partition,
    );
  }

  /** The copies searches read (null when `knownCopies` is false). */
  get copies(): KnownMatrices | null {
    return this.options.knownCopies === false ? null : this.matrices;
  }

  /** Rows changed since the last vector update, when the embedder is not synchronous. */
  get pending(): Touched {
    return this.pendingTouched;
  }

  /** Clears `pending` (after `VectorIndexes.update(pending)` succeeded). */
  clearPending(): void {
    for (const c of collectionNames) delete this.pendingTouched[c];
  }

  /**
   * Catches the save's read models up with its log before a read of them (after
   * `SqliteEventLog.appendLogOnly`; one pragma when nothing is behind): keyword search and
   * the rows a dossier reads from the tables.
   */
  private ready(saveId: string): void {
    this.options.log.caughtUp?.(saveId);
  }

  /**
   * Brings the vectors of touched rows up to date: from `rows` (what the view's catch-up
   * made, `SaveView.catchUp`), reading no table, when given; else from the tables.
   */
  private queue(touched: Touched, saveId?: string, rows?: TouchedRows): void {
    const index = this.options.index;
    if (!index) return;
    const given = saveId !== undefined && rows !== undefined ? { saveId, rows } : undefined;
    if (given === undefined && saveId !== undefined) this.ready(saveId);
    if (index.updateSync(touched, given)) return;
    for (const c of collectionNames) {
      const rows = touched[c];
      if (!rows || rows.length === 0) continue;
      const queued = this.pendingTouched[c] ?? [];
      queued.push(...rows);
      this.pendingTouched[c] = queued;
    }
  }

  /**
   * The save's view, loaded on first use and caught up with the log. `appended` are
   * events its writer has just appended, as the append returned them: when they follow
   * on from the view they are folded in as they are, rather than read back from the log
   * (whatever else the log holds after them still is).
   */
  view(saveId: string, appended: ReadonlyArray<StoredEvent> = []): SaveView {
    let view = this.views.get(saveId);
    if (!view) {
      // The view loads from the read models: they must hold the whole log first.
      this.options.log.caughtUp?.(saveId);
      view = SaveView.load(this.db, saveId);
      this.views.set(saveId, view);
      this.queue({});
      // Rows of items known by many are gathered together now, not by the first search.
      for (const c of collectionNames) {
        const store = this.options.index?.store(c);
        if (store) shareCommonRows(view, store, c);
      }
      return view;
    }
    if (appended.length > 0 && appended[0]!.seq === view.seq + 1) {
      const rows: TouchedRows = {};
      this.queue(view.catchUp(appended, rows), saveId, rows);
    }
    const log = this.options.log;
    if ((log.head ? log.head(saveId) : view.headSeq()) > view.seq) {
      const rows: TouchedRows = {};
      const events = this.options.log.read(saveId, { fromSeq: view.seq + 1 });
      this.queue(view.catchUp(events, rows), saveId, rows);
    }
    return view;
  }

  /** Forgets a save's view (after its projections were rebuilt, rowids change). */
  invalidate(saveId?: string): void {
    if (saveId === undefined) this.views.clear();
    else this.views.delete(saveId);
    this.lastReads = null;
    this.matrices.clear(saveId);
  }

  /** `read()` after the save's read models are caught up (`ready`). */
  private readyThen<A>(saveId: string, read: () => A): A {
    this.ready(saveId);
    return read();
  }

  /**
   * Embeds query text synchronously when the embedder can. A pure embedder's vectors are
   * kept by text (a turn's searches rank by its place, and so do its neighbours'): the
   * vector returned may be one returned before, and is not to be written to.
   */
  embedQuery(text: string): Float32Array | null {
    const embedder = this.options.embedder;
    const sync = embedder.embedSync;
    if (!sync || text.trim().length === 0) return null;
    if (embedder.pure !== true) return sync(text);
    const kept = this.queryVectors;
    let v = kept.get(text);
    if (v === undefined) {
      if (kept.size >= QUERY_VECTORS_KEPT) kept.clear();
      v = sync(text);
      kept.set(text, v);
    }
    return v;
  }

  /** Builds the per-request search context. */
  context(
    view: SaveView,
    r: {
      readonly npcId: string;
      readonly t: number;
      readonly queryText: string;
      readonly ftsText: string | null;
      readonly queryVector: Float32Array | null;
      readonly location: string | null;
      readonly activeTaskIds: ReadonlyArray<string>;
    },
  ): SearchContext {
    const npc = view.npcs.find(r.npcId);
    const related = new Set(npc >= 0 ? (view.relations.get(npc) ?? []) : []);
    const relatedNames = new Set<number>();
    for (const rel of related) {
      const name = view.npcName.get(rel);
      const e = name === undefined ? -1 : view.entities.find(name.toLowerCase());
      if (e >= 0) relatedNames.add(e);
    }
    const activeTasks = new Set<number>();
    for (const id of r.activeTaskIds) {
      const task = view.tasks.find(id);
      if (task >= 0) activeTasks.add(task);
    }
    const here = npc >= 0 ? (view.npcLocation.get(npc) ?? -1) : -1;
    const location = r.location ?? (here >= 0 ? view.places.value(here) : null);
    return {
      view,
      npc,
      t: r.t,
      faction: npc >= 0 ? (view.npcFaction.get(npc) ?? -1) : -1,
      location: location === null ? -1 : view.places.find(location),
      related,
      relatedNames,
      mentioned: mentionedEntities(view, r.queryText),
      activeTasks,
      queryVector: r.queryVector,
      keywordText: r.ftsText,
    };
  }

  /** Searches the given collections (default: all) and merges the results by score. */
  search(req: SearchRequest): Array<SearchHit> {
    const view = this.view(req.saveId);
    const t = requestTime(req);
    const query = req.query ?? "";
    const present = req.scene?.present ?? [];
    const names = present.map((id) => view.npcName.get(view.npcs.find(id)) ?? id);
    const ctx = this.context(view, {
      npcId: req.npcId,
      t,
      queryText: [query, ...names].join(" "),
      ftsText: query.length > 0 ? query : null,
      queryVector: req.queryVector ?? this.embedQuery(query),
      location: req.scene?.locationId ?? null,
      activeTaskIds: this.readyThen(req.saveId, () =>
        this.source.openTasks(req.saveId, req.npcId, t).map((task) => task.task_id),
      ),
    });
    const limit = req.limit ?? 10;
    const out: Array<SearchHit> = [];
    for (const c of req.collections ?? collectionNames) out.push(...this.searchIn(ctx, c, limit));
    return out.sort(
      (a, b) => b.score - a.score || a.collection.localeCompare(b.collection) || b.local - a.local,
    );
  }

  /**
   * The NPC's dossier at t (null when the save has no such NPC); `own`, when given, is
   * where the NPC's own rows are read instead of the save's read models (a run's actors).
   */
  dossier(req: DossierRequest, own?: OwnRows): Dossier | null {
    return buildDossier(this.dossierReads(req.saveId, own), req);
  }

  /**
   * The NPC's dossier at t with each section built on first read (see `deferredDossier`):
   * for a caller that may read only some sections, before anything is appended to the save.
   */
  deferredDossier(req: DossierRequest, own?: OwnRows): DeferredDossier | null {
    return deferredDossier(this.dossierReads(req.saveId, own), req);
  }

  /**
   * What a dossier of the save reads: its rows (the NPC's own from `own` when given), its
   * view caught up now, this engine's search.
   */
  dossierReads(saveId: string, own?: OwnRows): DossierReads {
    const view = this.view(saveId);
    // Without `own` every row comes from the tables: they are caught up now.
    if (own === undefined) this.ready(saveId);
    // The reads hold no state of their own: those of the last view and rows serve again.
    const last = this.lastReads;
    if (last !== null && last.view === view && last.own === own) return last.reads;
    const reads = this.makeReads(saveId, view, own);
    this.lastReads = { view, own, reads };
    return reads;
  }

  private makeReads(saveId: string, view: SaveView, own: OwnRows | undefined): DossierReads {
    const source = this.source;
    return {
      rows:
        own === undefined
          ? source
          : {
              character: (s, n) => own.character(s, n),
              profile: (s, n) => own.profile(s, n),
              activity: (s, n) => own.activity(s, n),
              edges: (s, n, t) => own.edges(s, n, t),
              openTasks: (s, n, t) => own.openTasks(s, n, t),
              // The view keeps the threads and who knows of each: no read, no catch-up.
              threads: view.threads,
              // The view keeps the rows of each NPC's last turns (`TurnRows`): an older
              // turn's is read, once the tables are caught up.
              turn: (rowid) => this.readyThen(saveId, () => source.turn(rowid)),
            },
      nameOf: (id) => view.npcName.get(view.npcs.find(id)) ?? id,
      turnsOf: (id) => view.turns.get(view.npcs.find(id)),
      search: (ask) => {
        const ctx = this.context(view, {
          ...ask,
          queryVector: ask.queryVector ?? this.embedQuery(ask.embedText),
        });
        // A section's window narrows the ranking only: the candidates of a collection are
        // gathered once for the dossier's searches of it, windowed or not.
        const gathered = new Map<string, Candidates>();
        return (c, limit, window) => {
          const key = `${c}:${limit}`;
          let cands = gathered.get(key);
          if (cands === undefined) {
            cands = this.gather(ctx, c, limit);
            gathered.set(key, cands);
          }
          const at = window === undefined ? ctx : { ...ctx, ...window };
          return rankCandidates(at, c, this.storeOf(c), cands, limit, this.scoring, this.tuning);
        };
      },
      budgets: this.budgets,
    };
  }

  /**
   * This engine bound to one save: the shape the simulation's `DossierSource` wants
   * (`dossier({ npcId, t, query, scene })`).
   */
  forSave(saveId: string): {
    readonly dossier: (req: Omit<DossierRequest, "saveId">) => Dossier | null;
    readonly search: (req: Omit<SearchRequest, "saveId">) => Array<SearchHit>;
  } {
    return {
      dossier: (req) => this.dossier({ ...req, saveId }),
      search: (req) => this.search({ ...req, saveId }),
    };
  }

  /** Searches one collection with a prepared context. */
  searchIn(ctx: SearchContext, c: CollectionName, limit: number): Array<SearchHit> {
    return rankCandidates(
      ctx,
      c,
      this.storeOf(c),
      this.gather(ctx, c, limit),
      limit,
      this.scoring,
      this.tuning,
    );
  }

  /** What a search of one collection with a prepared context ranks (`searchCollection`). */
  private gather(ctx: SearchContext, c: CollectionName, limit: number): Candidates {
    return gatherCandidates(
      ctx,
      c,
      this.storeOf(c),
      this.keywords,
      limit,
      this.tuning,
      this.copies,
      this.loreNearest,
    );
  }

  private storeOf(c: CollectionName): VectorStore | null {
    return this.options.index?.store(c) ?? null;
  }
}
