/**
 * The vector index: one `VectorStore` per collection (memories, world events, lore,
 * conversation summaries, debates), saved beside the database file and keyed by rowid.
 * It is a cache of SQLite. Opening loads the saved files and checks them against the
 * tables row by row (fingerprint of each row's text): missing or corrupt files are
 * rebuilt, stale ones repaired, so what is searched always matches SQLite. `rebuild`
 * (the CLI's `hearsay index rebuild`) ignores the files. Mode `disabled` keeps no
 * vectors at all (keyword and exact filters only).
 *
 * Files saved when they were known to hold what the tables held note the database's
 * level then (the store's `databaseLevel`: every save's head and projection digest, the
 * schema version) and how the collection's texts are embedded; an open that finds both
 * unchanged skips the row-by-row check, which on a year's 1.3 million memories is most
 * of what opening costs. The saves at open (after the check) and at a run's or a talk's
 * end (`save` with `level`) note it; a run's periodic saves, with appends in flight, do not.
 */
import { databaseLevel, type SqliteDatabase } from "@hearsay/store";
import { Effect } from "effect";
import { CollectionIndex, type GivenRows, type IndexProgress } from "./CollectionIndex.ts";
import {
  type CollectionName,
  collectionNames,
  collections,
  defaultGraphBlock,
  embeddingText,
  textFingerprint,
} from "./collections.ts";
import type { EmbedderError, EmbedderShape } from "./Embedder.ts";
import { EmbeddingCache, syncVectors } from "./EmbeddingCache.ts";
import type { Touched, TouchedRows } from "./SaveView.ts";
import {
  type IndexManifest,
  type IndexPaths,
  indexPaths,
  loadVectorFiles,
  readManifest,
  saveVectorFiles,
  writeManifest,
} from "./VectorFiles.ts";
import { VectorStore, type VectorStoreConfig } from "./VectorStore.ts";

/** `embedded` (default) keeps vectors; `disabled` searches by keywords and filters only. */
export type IndexMode = "embedded" | "disabled";

/** Options for opening the index. */
export interface VectorIndexOptions {
  readonly mode?: IndexMode;
  /** Where the files go: `<dbPath>.<collection>.*` (null or ":memory:": kept in memory only). */
  readonly dbPath?: string | null;
  readonly store?: Omit<VectorStoreConfig, "dimensions">;
  readonly collections?: ReadonlyArray<CollectionName>;
  /**
   * Collections that keep HNSW graphs (default: all). A run keeps them only for items
   * known by many: an NPC's own memories are scanned exactly whatever the graphs hold,
   * so their upkeep would be spent for nothing.
   */
  readonly graphCollections?: ReadonlyArray<CollectionName>;
  readonly onProgress?: (p: IndexProgress) => void;
  /**
   * Another database file whose saved vectors to start from: the same log's file later
   * on, for a scratch refolded to an earlier moment (`hearsay dossier --day`). Its rows
   * are checked against this database's row by row — those gone since removed, changed
   * ones embedded again — its graphs left unread and built afresh from the rows this
   * database holds, and nothing is saved beside either file.
   */
  readonly from?: string;
}

/** What opening or rebuilding did to one collection. */
export interface IndexReport {
  readonly collection: CollectionName;
  readonly outcome: "loaded" | "repaired" | "rebuilt" | "disabled";
  readonly reason: string;
  readonly count: number;
  readonly added: number;
  readonly removed: number;
  readonly graph: boolean;
  /** True when rows are embedded when a search first reads them (`CollectionIndex.onDemand`). */
  readonly onDemand: boolean;
}

/**
 * How a collection's rows become the texts it embeds: its table and the fingerprint of
 * the text made from a probe row, so a change to its columns or their joining is seen;
 * and whether its files hold every row or only those searched (`CollectionIndex.onDemand`),
 * so that files of one kind are never trusted as the other.
 */
const recipeOf = (c: CollectionName, onDemand: boolean): string => {
  const spec = collections[c];
  const probe = spec.textColumns.map((column) => JSON.stringify([column]));
  const recipe = `${spec.table}:${textFingerprint(embeddingText(c, probe)).toString(16)}`;
  return onDemand ? `${recipe}:on-demand` : recipe;
};

/** The level a collection's manifest notes: its recipe and the database's level. */
const levelOf = (index: CollectionIndex, database: string | null): string | undefined =>
  database === null
    ? undefined
    : JSON.stringify([recipeOf(index.spec.name, index.onDemand), database]);

/**
 * Writes a manifest again only to note its level: a file that cannot be written (read-only
 * media) costs the next open its row check, nothing else, so the open goes on.
 */
const noteLevel = (paths: IndexPaths, manifest: IndexManifest): void => {
  try {
    writeManifest(paths, manifest);
  } catch {}
};

export class VectorIndexes {
  private constructor(
    readonly mode: IndexMode,
    readonly embedder: EmbedderShape,
    private readonly db: SqliteDatabase,
    private readonly dbPath: string | null,
    private readonly indexes: ReadonlyMap<CollectionName, CollectionIndex>,
  ) {}

  /** The embedder's model name (it keys the files and the cache). */
  get model(): string {
    return this.embedder.model;
  }

  /** The collection's vectors, or null when the index is disabled. */
  store(c: CollectionName): VectorStore | null {
    return this.indexes.get(c)?.store ?? null;
  }

  /** Opens (loading, repairing or rebuilding) every collection's vectors. */
  static open(
    db: SqliteDatabase,
    embedder: EmbedderShape,
    options: VectorIndexOptions = {},
  ): Effect.Effect<
    { readonly index: VectorIndexes; readonly reports: ReadonlyArray<IndexReport> },
    EmbedderError
  > {
    return VectorIndexes.build(db, embedder, options, false);
  }

  /** Rebuilds every collection's vectors from SQLite, ignoring saved files, and saves them. */
  static rebuild(
    db: SqliteDatabase,
    embedder: EmbedderShape,
    options: VectorIndexOptions = {},
  ): Effect.Effect<
    { readonly index: VectorIndexes; readonly reports: ReadonlyArray<IndexReport> },
    EmbedderError
  > {
    return VectorIndexes.build(db, embedder, options, true);
  }

  private static build(
    db: SqliteDatabase,
    embedder: EmbedderShape,
    options: VectorIndexOptions,
    fresh: boolean,
  ) {
    return Effect.gen(function* () {
      const mode = options.mode ?? "embedded";
      const rawPath = options.dbPath ?? db.name;
      const dbPath = rawPath === null || rawPath === "" || rawPath === ":memory:" ? null : rawPath;
      const wanted = options.collections ?? collectionNames;
      const from = fresh ? undefined : options.from;
      const reports: Array<IndexReport> = [];
      const indexes = new Map<CollectionName, CollectionIndex>();
      const cache = embedder.embedSync
        ? null
        : new EmbeddingCache(db, embedder.model, embedder.dimensions);
      // Read before any row is: a level noted after the check must be the one it checked.
      const level = dbPath === null || mode === "disabled" ? null : databaseLevel(db);
      for (const c of wanted) {
        const config: VectorStoreConfig = {
          hnswMinSize: defaultGraphBlock(c),
          ...options.store,
          ...(options.graphCollections && !options.graphCollections.includes(c)
            ? { graph: false }
            : {}),
          dimensions: embedder.dimensions,
        };
        if (mode === "disabled") {
          reports.push({
            collection: c,
            outcome: "disabled",
            reason: "index mode is disabled",
            count: 0,
            added: 0,
            removed: 0,
            graph: false,
            onDemand: false,
          });
          continue;
        }
        const paths = dbPath && from === undefined ? indexPaths(dbPath, c) : null;
        const expect = { collection: c, model: embedder.model };
        const loaded =
          from !== undefined
            ? loadVectorFiles(indexPaths(from, c), expect, config, { graphs: false })
            : paths && !fresh
              ? loadVectorFiles(paths, expect, config)
              : null;
        const store = loaded?.ok ? loaded.store : new VectorStore(config);
        const index = new CollectionIndex(db, collections[c], store, embedder, cache);
        const noted = levelOf(index, level);
        const trusted =
          from === undefined &&
          loaded?.ok === true &&
          noted !== undefined &&
          loaded.manifest.level === noted;
        const change = trusted ? index.trust() : yield* index.reconcile(options.onProgress);
        indexes.set(c, index);
        // A graph file that failed its check was rebuilt from the vectors: save it again.
        const graphRebuilt =
          from === undefined &&
          config.graph !== false &&
          loaded?.ok === true &&
          loaded.manifest.graph &&
          !loaded.graphLoaded;
        const stale = change.added + change.removed > 0;
        const outcome = loaded?.ok ? (stale || graphRebuilt ? "repaired" : "loaded") : "rebuilt";
        const reason = fresh
          ? "rebuild requested"
          : from !== undefined
            ? loaded?.ok
              ? `from ${from}: ${stale ? `${change.added} rows new or changed, ${change.removed} gone` : "the same rows"}`
              : `from ${from}: ${loaded?.problem}: ${loaded?.detail}`
            : !paths
              ? "in-memory database"
              : loaded && !loaded.ok
                ? `${loaded.problem}: ${loaded.detail}`
                : stale
                  ? `stale: ${change.added} rows new or changed, ${change.removed} gone`
                  : graphRebuilt
                    ? "graph file damaged: rebuilt from the vectors"
                    : "up to date";
        // The level is noted only when the database did not move while its rows were read.
        const still = noted !== undefined && databaseLevel(db) === level ? noted : undefined;
        if (paths && outcome !== "loaded")
          saveVectorFiles(store, paths, { collection: c, model: embedder.model, level: still });
        else if (
          paths &&
          loaded?.ok &&
          still !== undefined &&
          loaded.manifest.level !== still &&
          !db.readonly
        )
          noteLevel(paths, { ...loaded.manifest, level: still });
        reports.push({
          collection: c,
          outcome,
          reason,
          count: store.size,
          added: change.added,
          removed: change.removed,
          graph: store.hasGraph,
          onDemand: index.onDemand,
        });
      }
      // Started from another file's vectors: nothing is ever saved beside this one.
      const savesTo = from === undefined ? dbPath : null;
      return { index: new VectorIndexes(mode, embedder, db, savesTo, indexes), reports };
    });
  }

  /**
   * Brings vectors up to date for the touched rowids and every new row; with `given` (the
   * rows a save's view made or changed, for every touched rowid: `SaveView.catchUp`),
   * from those rows, reading no table.
   */
  update(
    touched: Touched = {},
    given?: { readonly saveId: string; readonly rows: TouchedRows },
  ): Effect.Effect<number, EmbedderError> {
    const self = this;
    return Effect.gen(function* () {
      let changed = 0;
      for (const [index, rowids, rows] of self.due(touched, given)) {
        const r = yield* index.update(rowids, rows);
        changed += r.added + r.removed;
      }
      return changed;
    });
  }

  /**
   * The collections {@link update} brings up to date, lazily and in order (a collection's
   * new rows are looked for when its turn comes): each with its touched rowids and, with
   * `given`, their rows.
   */
  private *due(
    touched: Touched,
    given: { readonly saveId: string; readonly rows: TouchedRows } | undefined,
  ): Generator<readonly [CollectionIndex, ReadonlyArray<number>, GivenRows | undefined]> {
    for (const [c, index] of this.indexes) {
      const rowids = touched[c] ?? [];
      if (given !== undefined) {
        if (rowids.length === 0) continue;
        yield [index, rowids, { saveId: given.saveId, rows: given.rows[c] ?? new Map() }];
        continue;
      }
      if (rowids.length === 0 && !index.hasNewRows()) continue;
      yield [index, rowids, undefined];
    }
  }

  /**
   * Drops every vector and embeds every row again: after the embedder changed model (a
   * live model's fallback to hashing), so no collection mixes vectors of two models.
   */
  reembed(): Effect.Effect<number, EmbedderError> {
    const self = this;
    return Effect.gen(function* () {
      let added = 0;
      for (const index of self.indexes.values()) {
        index.store.remove(index.store.entries().rowids);
        added += (yield* index.reconcile()).added;
      }
      return added;
    });
  }

  /** `update` for a synchronous embedder (the hashing one); false when it would need I/O. */
  updateSync(
    touched: Touched = {},
    given?: { readonly saveId: string; readonly rows: TouchedRows },
  ): boolean {
    const embed = this.embedder.embedSync ? syncVectors(this.embedder) : null;
    if (embed === null) return false;
    // What `update` does, with no effect to run: the embedder needs none.
    for (const [index, rowids, rows] of this.due(touched, given)) {
      index.updateSync(rowids, rows, embed);
    }
    return true;
  }

  /**
   * Saves every collection beside the database (no-op in memory). With `level` the caller
   * vouches that the vectors hold what the tables hold now (every append landed and
   * folded in; an on-demand collection: no vector of a row gone or changed): the files
   * note the database's level, so the next open trusts them unread. A collection in
   * `asSaved` — its files hold its rows as they are now, by the caller's marks
   * (`IndexKeeper.asSaved`) — has only its manifest written again.
   */
  save(
    options: { readonly level?: boolean; readonly asSaved?: ReadonlySet<CollectionName> } = {},
  ): ReadonlyArray<IndexManifest> {
    if (!this.dbPath) return [];
    const level = options.level === true ? databaseLevel(this.db) : null;
    const out: Array<IndexManifest> = [];
    for (const [c, index] of this.indexes) {
      const paths = indexPaths(this.dbPath, c);
      const noted = levelOf(index, level);
      const saved =
        noted !== undefined && options.asSaved?.has(c) ? readManifest(paths.manifest) : null;
      if (saved !== null && saved.model === this.model) {
        const manifest = { ...saved, level: noted! };
        if (saved.level !== noted) writeManifest(paths, manifest);
        out.push(manifest);
        continue;
      }
      out.push(
        saveVectorFiles(index.store, paths, { collection: c, model: this.model, level: noted }),
      );
    }
    return out;
  }
}
