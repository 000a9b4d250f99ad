/**
 * A bulk fold: how the store refolds read models from the log in one transaction at
 * the speed of the inserts themselves, with the same rows and the same digest as the
 * event-by-event fold of appends. What it skips, and does once instead:
 * - the digest triggers are paused (a JS call per row written) and each folded save's
 *   digest is set at the end from its rows, or kept up by a `DigestTracker` when the
 *   caller needs it along the way (replay's Checkpoint checks);
 * - FTS is not maintained per row: the save's rows are indexed at the end (or every FTS
 *   index rebuilt, when all saves were folded);
 * - the append-only read models (knowledge, memories, talk, model calls…) are filled by
 *   SQLite itself, one statement per table and range between settle points (SqlFold.ts),
 *   so most events never reach JS; the projector folds the rest;
 * - knowledge facts the projector folds (an event at an old version) are buffered and
 *   written once per key (KnowledgeBuffer.ts);
 * - when the fold owns every row of the database (`wholesale`), tables are emptied in
 *   one statement each and secondary indexes dropped, then rebuilt once, sorted.
 * Unique keys of the projection tables stay throughout: the fold's upserts need them.
 */
import type { StoredEvent } from "@hearsay/core";
import { DigestTracker } from "./DigestTracker.ts";
import type { Segment } from "./EventHistory.ts";
import type { KnowledgeFact } from "./KnowledgeBuffer.ts";
import type { SqliteDatabase } from "./openDatabase.ts";
import {
  digestHex,
  pauseDigestTriggers,
  recomputeDigest,
  rowLanes,
  writeDigest,
} from "./ProjectionDigest.ts";
import type { Projector } from "./Projector.ts";
import { SQL_FOLD_INDEX, SqlFold, sqlFoldable } from "./SqlFold.ts";
import { projectionDigestColumns, projectionTables } from "./schema.sql.ts";

/** Indexes a bulk fold keeps: SqlFold.ts reads the log by type through this one. */
const keptIndexes = new Set([SQL_FOLD_INDEX]);

/**
 * Drops the non-unique indexes of `tables` (or all secondary indexes, unique ones too,
 * with `unique`) and returns the function that recreates them.
 */
export const dropIndexes = (
  db: SqliteDatabase,
  tables: ReadonlyArray<string>,
  unique = false,
): (() => void) => {
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
       ${unique ? "" : "AND sql NOT LIKE 'CREATE UNIQUE%'"} AND tbl_name IN (${tables.map(() => "?").join(", ")})`,
    )
    .all(...tables) as Array<{ name: string; sql: string }>;
  const dropped = indexes.filter((ix) => !keptIndexes.has(ix.name));
  for (const ix of dropped) db.exec(`DROP INDEX "${ix.name}"`);
  return () => {
    for (const ix of dropped) db.exec(ix.sql);
  };
};

/** Options of a {@link BulkFold}. */
export interface BulkFoldOptions {
  /**
   * The fold rebuilds every row of every projection table (all saves, or the only save):
   * empty them wholesale and rebuild indexes once. Otherwise each save is cleared alone.
   */
  readonly wholesale: boolean;
  /** Also drop (and rebuild at the end) these tables' secondary indexes, unique ones too. */
  readonly alsoIndexesOf?: ReadonlyArray<string>;
  /**
   * The schema whose event log SQLite folds its share from (default `main`, the fold's
   * own; an import that copies no event rows names its attached source).
   */
  readonly log?: string;
  /**
   * The database is thrown away after the fold (a replay that only checks state hashes):
   * the indexes dropped are not rebuilt and FTS is not indexed. Afterwards only its
   * projection rows and digests are to be trusted; it must not be queried or appended to.
   */
  readonly discard?: boolean;
}

/** How a knowledge fact fills each digest column of the `knowledge` table. */
const factColumns: Readonly<Record<string, (f: KnowledgeFact) => unknown>> = {
  npc_id: (f) => f.npcId,
  item_kind: (f) => f.itemKind,
  item_id: (f) => f.itemId,
  t: (f) => f.t,
  via: (f) => f.via,
  from_npc_id: (f) => f.fromNpcId,
  confidence: (f) => f.confidence,
};
const knowledgeColumns = projectionDigestColumns.get("knowledge") ?? [];
/** Knowledge rows can be hashed from the buffer (the schema has not outgrown the mapping). */
const knowledgeFromFacts = knowledgeColumns.every((c) => c in factColumns);
/** The digest's tables other than knowledge. */
const otherColumns = new Map([...projectionDigestColumns].filter(([t]) => t !== "knowledge"));

export class BulkFold {
  private readonly resumeTriggers: () => void;
  private readonly restoreIndexes: Array<() => void> = [];
  private readonly digests = new Map<string, string>();
  private current: { saveId: string; campaignId: string; empty: boolean } | null = null;
  private tracker: DigestTracker | null = null;
  private readonly sqlFold: SqlFold;
  /** The current save's history still to fold by SQL (see `foldBySql`), oldest first. */
  private sqlPending: Array<Segment> = [];
  /** The last seq the current save's SQL fold may reach (an import that stopped early). */
  private sqlCap = Number.POSITIVE_INFINITY;
  /** Some of the current save's rows were written by SQL (not through the projector). */
  private sqlUsed = false;

  /**
   * Runs `work` as a bulk fold and ends it. Call inside a write transaction. (The page
   * cache `openDatabase` gives every connection, 256 MiB, is large enough that the fold's
   * writes are not spilled to the journal before commit.)
   */
  static run<A>(
    db: SqliteDatabase,
    projector: Projector,
    opts: BulkFoldOptions,
    work: (bulk: BulkFold) => A,
  ): A {
    const bulk = new BulkFold(db, projector, opts);
    const out = work(bulk);
    bulk.end();
    return out;
  }

  /** Begins a bulk fold. Call inside a write transaction; `end` (or a rollback) undoes it. */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly projector: Projector,
    private readonly opts: BulkFoldOptions,
  ) {
    this.sqlFold = SqlFold.open(db, opts.log);
    this.resumeTriggers = pauseDigestTriggers(db);
    if (opts.wholesale) {
      projector.clearAll();
      this.restoreIndexes.push(dropIndexes(db, projectionTables));
    }
    if (opts.alsoIndexesOf && opts.alsoIndexesOf.length > 0) {
      this.restoreIndexes.push(dropIndexes(db, opts.alsoIndexesOf, true));
    }
  }

  /**
   * Starts folding `saveId` (ending the save before it): clears its rows (unless the
   * fold is wholesale) and, with `track`, keeps its digest up for {@link digest}.
   */
  beginSave(saveId: string, campaignId: string, track = false): void {
    this.endSave();
    if (!this.opts.wholesale) this.projector.clear(saveId, true);
    this.projector.resetBulk();
    this.current = { saveId, campaignId, empty: true };
    this.sqlPending = [];
    this.sqlCap = Number.POSITIVE_INFINITY;
    this.sqlUsed = false;
    if (track) this.tracker = new DigestTracker(this.db, saveId, projectionDigestColumns);
  }

  /**
   * Hands the events of the types in SqlFold.ts's `sqlFoldedTypes` in `segments` (the
   * current save's history in this database, oldest first) to SQLite, when all of them
   * are at their current version: they are then folded at each settle point, and the
   * caller must not `apply` them. Returns whether it did. `foldable` says whether they
   * are all at their current version (default: as this database's log says; an import
   * asks its source).
   */
  foldBySql(segments: ReadonlyArray<Segment>, foldable = sqlFoldable(this.db, segments)): boolean {
    if (!foldable) return false;
    this.sqlPending = segments.filter((s) => s.fromSeq <= s.toSeq).map((s) => ({ ...s }));
    this.sqlUsed = true;
    return true;
  }

  /**
   * Takes back from SQLite the share of the current save it has not folded yet (an
   * event there, at an older version, needs the projector; SqlFold.ts folds a range
   * whole or not at all): returns the first seq it had not folded, from which the caller
   * applies every event itself. The rows SQLite did write stay; the projector's merges
   * treat them as rows already there.
   */
  takeBackSql(): number {
    const from = this.sqlPending[0]?.fromSeq ?? Number.POSITIVE_INFINITY;
    this.sqlPending = [];
    this.seeded();
    return from;
  }

  /** Says the current save's fold ends at `seq`: SQL folds nothing after it. */
  endsAt(seq: number): void {
    this.sqlCap = seq;
  }

  /** Says the current save's rows were seeded (from a snapshot) before its events. */
  seeded(): void {
    if (this.current) this.current.empty = false;
  }

  /** Folds one event into the current save. */
  apply(e: StoredEvent): void {
    const c = this.current!;
    this.projector.apply(e, c.saveId, c.campaignId, "bulk");
  }

  /**
   * Writes what the fold still owes the current save through `throughSeq` (default: all
   * it was given): SQL's share of the events, then what the projector buffers.
   */
  settle(throughSeq = Number.POSITIVE_INFINITY): void {
    const c = this.current;
    if (!c) return;
    const upTo = Math.min(throughSeq, this.sqlCap);
    const due: Array<Segment> = [];
    while (this.sqlPending.length > 0 && this.sqlPending[0]!.fromSeq <= upTo) {
      const seg = this.sqlPending[0]!;
      if (seg.toSeq <= upTo) {
        due.push(this.sqlPending.shift()!);
      } else {
        due.push({ ...seg, toSeq: upTo });
        this.sqlPending[0] = { ...seg, fromSeq: upTo + 1 };
      }
    }
    if (due.length > 0) this.sqlFold.fold(c.saveId, c.campaignId, due);
    this.projector.flushBulk(c.saveId, c.campaignId, c.empty);
  }

  /**
   * The current save's digest with every event through `throughSeq` folded (it must be
   * tracked: see `beginSave`).
   */
  digest(throughSeq?: number): string {
    if (this.tracker === null) throw new Error("BulkFold.digest: the save is not tracked");
    this.settle(throughSeq);
    return this.tracker.digest();
  }

  /** Settles the current save and works out its digest. */
  private endSave(): void {
    const c = this.current;
    if (c === null) return;
    this.settle();
    let digest: string;
    if (this.tracker !== null) {
      digest = this.tracker.digest();
      this.tracker.close();
      this.tracker = null;
    } else if (c.empty && knowledgeFromFacts && !this.sqlUsed) {
      // Every knowledge row of the save came from the buffer: hash the facts, not the rows.
      let [a, b] = lanesOf(recomputeDigest(this.db, c.saveId, otherColumns));
      for (const f of this.projector.bufferedKnowledge()) {
        const [x, y] = rowLanes(
          "knowledge",
          knowledgeColumns.map((col) => factColumns[col]!(f)),
        );
        a = (a + x) % LANE;
        b = (b + y) % LANE;
      }
      digest = digestHex(a, b);
    } else digest = recomputeDigest(this.db, c.saveId, projectionDigestColumns);
    this.digests.set(c.saveId, digest);
    this.current = null;
  }

  /**
   * Ends the fold: settles the last save, rebuilds indexes and FTS (unless the database
   * is to be discarded), resumes the digest triggers, and sets the digest of every save
   * folded (of every save, when wholesale).
   */
  end(): void {
    this.endSave();
    this.sqlFold.close();
    if (this.opts.discard !== true) {
      for (const restore of this.restoreIndexes) restore();
      if (this.opts.wholesale) this.projector.rebuildFts();
      else for (const saveId of this.digests.keys()) this.projector.indexFts(saveId);
    }
    this.resumeTriggers();
    if (this.opts.wholesale) {
      for (const saveId of this.db
        .prepare("SELECT save_id FROM saves")
        .pluck()
        .all() as Array<string>) {
        if (!this.digests.has(saveId)) this.digests.set(saveId, "0".repeat(24));
      }
    }
    for (const [saveId, digest] of this.digests) writeDigest(this.db, saveId, digest);
  }
}

const LANE = 2 ** 48;

/** A digest's two lanes back from its 24 hex digits. */
const lanesOf = (digest: string): [number, number] => [
  Number.parseInt(digest.slice(0, 12), 16),
  Number.parseInt(digest.slice(12), 16),
];
