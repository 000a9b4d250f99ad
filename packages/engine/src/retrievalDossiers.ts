/**
 * The dossier source a run uses: the retrieval service over the run's own database —
 * knowledge-filtered hybrid search behind an in-memory view kept level with the log, an
 * embedder, and the vector index saved beside the database file (rebuilt from SQLite
 * whenever it is missing, corrupt or stale). Items known by many are searched through
 * USearch HNSW graphs whose layout depends only on the rows held (`GraphSegments`), so a
 * run, its resume and its replay rank alike; smaller known sets are scanned exactly.
 * Index mode `disabled` keeps no vectors: keywords and filters only.
 *
 * The embedder is the hashing one unless the run is given another (`DossierEmbedding`):
 * a live model, which may fall back to hashing mid-run; the switch re-embeds every
 * collection at once (vectors of two models never mix) and is handed to the engine as
 * a warning to record, so replay switches at the same request.
 *
 * The first catch-up that finds NPCs in the save also builds one throwaway dossier (the
 * first NPC's, at time 0, when it knows only the public lore): the dossier path's
 * one-time costs — compiling its code and regular expressions, measuring the lore's
 * texts for the token budget — are then paid while the run starts, not by the first
 * model call. A dossier only reads, and every cache behind it is a pure memo, so this
 * changes no dossier (and no log).
 */

import { currentDossierRules, type DossierRules, type SaveId } from "@hearsay/core";
import {
  type DossierRequest,
  defaultPartitionTuning,
  EMBEDDER_FALLBACK,
  type EmbedderShape,
  type EmbedderSwitch,
  type IndexMode,
  type IndexProgress,
  makeHashingEmbedder,
  type OwnRows,
  RetrievalEngine,
  sharedCollections,
  switchMessage,
  VectorIndexes,
} from "@hearsay/retrieval";
import type { SqliteDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { DEFAULT_INDEX_MIN_SHARE } from "./EngineConfig.ts";
import { IndexKeeper } from "./IndexKeeper.ts";
import { recordedDossierRules } from "./recordedDossierRules.ts";
import type { DossierAsk, DossierFactory, DossierSource, DossierWarning } from "./TickContext.ts";

/** A run's embedder other than the default hashing one. */
export interface DossierEmbedding {
  /** What the run records as its embedder (`SimulationStarted.embedder`). */
  readonly label: string;
  /**
   * Builds the embedder over the run's database: `position` is the save's head seq,
   * `onSwitch` must be called when it falls back to hashing.
   */
  readonly make: (
    db: SqliteDatabase,
    position: () => number,
    onSwitch: (s: EmbedderSwitch) => void,
  ) => EmbedderShape;
}

/** How a run's retrieval is set up. */
export interface RetrievalDossierOptions {
  /** The embedder, when not the hashing one. */
  readonly embedding?: DossierEmbedding | null;
  /** `embedded` (default): vectors and HNSW graphs; `disabled`: keywords and filters only. */
  readonly indexMode?: IndexMode;
  /**
   * How dossiers choose their items (core's `DossierRules`). Default: the rules the save
   * recorded when the log already holds its start, else core's `currentDossierRules`. A
   * replay into a fresh log passes the recorded ones.
   */
  readonly dossierRules?: DossierRules;
  /**
   * A wall clock in milliseconds (the CLI's `performance.now`), to time the index job's
   * writes for the run's summary; absent, they are not timed.
   */
  readonly clock?: () => number;
  /** Progress of opening the index (a rebuild when its files are missing or foreign). */
  readonly onIndexProgress?: (p: IndexProgress) => void;
}

/**
 * The run's search options: graphs on; no per-NPC copies of known sets (a copy costs
 * its memory for every NPC and a first-query spike to make; a known set too small a
 * share for the graphs is gathered instead), and were copies on, scanned whole. A run
 * must write the same log whether its index grew with it, was loaded when it resumed,
 * or was rebuilt.
 */
export const runSearchOptions = {
  exactVectors: false,
  knownCopies: false,
  partition: { ...defaultPartitionTuning, probeShare: 1 },
} as const;

/**
 * The collections a run keeps HNSW graphs for: items known by many. An NPC's own
 * memories and summaries are few (a memory cap) and always scanned exactly.
 */
export const runGraphCollections = [...sharedCollections];

/** What a source with these options says of itself (recorded at the start, checked on a resume). */
const setupOf = (
  options: RetrievalDossierOptions,
): Pick<DossierSource, "embedder" | "indexMode"> => ({
  ...(options.embedding == null ? {} : { embedder: options.embedding.label }),
  ...(options.indexMode === "disabled" ? { indexMode: "disabled" as const } : {}),
});

/**
 * {@link retrievalDossiers} with options (the CLI's embedder and index mode), saying its
 * embedder and index mode before it opens, so that a resume that would change them is
 * refused before the run takes any step.
 */
export const retrievalDossiersWith = (options: RetrievalDossierOptions): DossierFactory =>
  Object.assign(
    (log: SqliteEventLog, saveId: SaveId): DossierSource => retrievalDossiers(log, saveId, options),
    { setup: setupOf(options) },
  );

export const retrievalDossiers = (
  log: SqliteEventLog,
  saveId: SaveId,
  options: RetrievalDossierOptions = {},
): DossierSource => {
  const embedding = options.embedding ?? null;
  const warnings: Array<DossierWarning> = [];
  let switchTo: ((s: EmbedderSwitch) => void) | null = null;
  const position = (): number => {
    try {
      return log.head(saveId);
    } catch {
      return 0;
    }
  };
  const embedder =
    embedding === null
      ? makeHashingEmbedder()
      : embedding.make(log.db, position, (s) => switchTo?.(s));
  const dbPath = log.db.name === "" || log.db.name === ":memory:" ? null : log.db.name;
  const keeper = new IndexKeeper(dbPath, options.clock ?? null);
  const open = () => {
    const opened = retrievalEngine(
      log,
      embedder,
      options.indexMode ?? "embedded",
      options.onIndexProgress,
    );
    // Opening saved whatever it had to rebuild or repair: the files now hold what it holds.
    keeper.wrote(opened.index);
    return opened;
  };
  let engine = open();
  switchTo = (s) => {
    Effect.runSync(engine.index.reembed());
    engine.engine.matrices.clear();
    warnings.push({ code: EMBEDDER_FALLBACK, message: switchMessage(s) });
  };
  const rules = options.dossierRules ?? recordedDossierRules(log, saveId) ?? currentDossierRules;
  const requestOf = ({ npcId, t, query, scene, npcTurn }: DossierAsk): DossierRequest => ({
    saveId,
    npcId,
    t,
    query,
    scene: scene === null ? null : { locationId: scene.locationId, present: scene.present },
    rules,
    ...(npcTurn === true ? { npcTurn } : {}),
  });
  let own: OwnRows | undefined;
  let warm = false;
  const warmUp = (): void => {
    if (warm) return;
    const npcs = engine.engine.view(saveId).npcs;
    if (npcs.size === 0) return;
    warm = true;
    let first = npcs.value(0);
    for (let i = 1; i < npcs.size; i++) if (npcs.value(i) < first) first = npcs.value(i);
    engine.engine.dossier({ saveId, npcId: first, t: 0, query: null, scene: null });
  };
  return {
    ...setupOf(options),
    ...(rules === "moment" ? {} : { dossierRules: rules }),
    takeWarnings: () => warnings.splice(0),
    // An NPC's own rows come from the run's actors once it gives them (`own`).
    own: (rows) => {
      own = rows;
    },
    dossier: (ask) => engine.engine.dossier(requestOf(ask), own),
    // A turn's sections are built as its brain reads them: the scripted brain reads one to four.
    deferred: (ask) => engine.engine.deferredDossier(requestOf(ask), own),
    flush: () => {
      // Level with the log only when the view holds every event the log holds, and no
      // more (a failed append leaves the view ahead of the log): then the next open may
      // trust the files without reading the tables (`VectorIndexes.save`).
      const view = engine.engine.view(saveId);
      engine.index.save({
        level: view.seq === view.headSeq(),
        asSaved: keeper.asSaved(engine.index),
      });
      keeper.wrote(engine.index);
    },
    keepIndex: (job) => {
      engine.engine.view(saveId);
      keeper.keep(engine.index, job.minRows, job.minShare ?? DEFAULT_INDEX_MIN_SHARE);
    },
    indexUpkeep: () => keeper.upkeep(),
    refresh: (appended) => {
      engine.engine.view(saveId, appended);
      warmUp();
    },
    // The view and the in-memory vectors may hold rows that were rolled back: start over.
    reset: () => {
      engine = open();
    },
  };
};

const retrievalEngine = (
  log: SqliteEventLog,
  embedder: EmbedderShape,
  mode: IndexMode,
  onProgress?: (p: IndexProgress) => void,
) => {
  const { index } = Effect.runSync(
    VectorIndexes.open(log.db, embedder, {
      mode,
      graphCollections: runGraphCollections,
      ...(onProgress === undefined ? {} : { onProgress }),
    }),
  );
  return {
    index,
    engine: new RetrievalEngine(log.db, { log, embedder, index, ...runSearchOptions }),
  };
};
