/**
 * A save's read models refolded from its log: from nothing, or from a snapshot plus the
 * events after it — what a branch, a rebuild and a restore do. Folds run in bulk
 * (BulkFold.ts): the same rows and digest the appends made, at insert speed. Every
 * method expects to run inside the caller's transaction.
 */
import { BulkFold } from "./BulkFold.ts";
import { type EventHistory, type SaveInfo, type Segment, toStored } from "./EventHistory.ts";
import type { SqliteDatabase } from "./openDatabase.ts";
import { withDigest } from "./ProjectionDigest.ts";
import type { ProjectionState, ProjectionStateIO } from "./ProjectionState.ts";
import type { Projector } from "./Projector.ts";
import type { Snapshot, SnapshotStore } from "./SnapshotStore.ts";
import { atCurrentVersion, inertTypes, sqlFoldedTypes } from "./SqlFold.ts";

export class SaveRefold {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly history: EventHistory,
    private readonly projector: Projector,
    private readonly stateIO: ProjectionStateIO,
    private readonly snapshots: SnapshotStore,
  ) {}

  /**
   * The newest snapshot usable for the save at or before `atOrBefore` — its own or an
   * ancestor's from the shared history — or undefined.
   */
  latestSnapshot(save: SaveInfo, atOrBefore: number): Snapshot | undefined {
    const segments: ReadonlyArray<Segment> = [
      ...this.history.segments(save.saveId),
      { saveId: save.saveId, fromSeq: 0, toSeq: save.head },
    ];
    return this.snapshots.latest(segments, atOrBefore);
  }

  /** Rebuilds the save's read models from the newest usable snapshot plus the tail. */
  reproject(save: SaveInfo): number {
    const snap = this.latestSnapshot(save, save.head);
    return snap ? this.refold(save, snap.seq + 1, snap.state) : this.refold(save, 1, undefined);
  }

  /**
   * Every save's read models, refolded from the log: tables are emptied wholesale and
   * secondary and FTS indexes built once after the fold. Returns the events folded.
   */
  refoldAll(): number {
    return BulkFold.run(this.db, this.projector, { wholesale: true }, (bulk) => {
      let folded = 0;
      for (const save of this.history.list()) folded += this.fold(bulk, save, 1, undefined);
      return folded;
    });
  }

  /**
   * Replaces the save's read models with `state` (none: empty) plus a fold of its history
   * from `fromSeq`, in bulk. When the save is the only one, tables are emptied wholesale
   * and indexes rebuilt once after; otherwise only its rows (and FTS entries) are
   * removed, and its rows are indexed after the fold.
   */
  refold(save: SaveInfo, fromSeq: number, state: ProjectionState | undefined): number {
    const plan = { wholesale: this.history.list().length === 1 };
    return BulkFold.run(this.db, this.projector, plan, (bulk) =>
      this.fold(bulk, save, fromSeq, state),
    );
  }

  /**
   * Folds, on `bulk`, the save's history from `fromSeq` to its head on top of `state`
   * (none: empty). Returns the number of events folded.
   */
  private fold(
    bulk: BulkFold,
    save: SaveInfo,
    fromSeq: number,
    state: ProjectionState | undefined,
  ): number {
    bulk.beginSave(save.saveId, save.campaignId);
    if (state) {
      this.stateIO.write(save.saveId, save.campaignId, state);
      bulk.seeded();
    }
    const segments = this.history
      .segments(save.saveId)
      .map((s) => ({ ...s, fromSeq: Math.max(s.fromSeq, fromSeq) }))
      .filter((s) => s.fromSeq <= s.toSeq);
    // SQLite folds its share itself; the projector is handed the rest (inert ones aside).
    const except = atCurrentVersion(
      bulk.foldBySql(segments) ? [...sqlFoldedTypes, ...inertTypes] : inertTypes,
    );
    this.history.forEachRawPage(
      save,
      fromSeq,
      save.head,
      (rows) => {
        for (const r of rows) bulk.apply(toStored(r, save));
        return true;
      },
      except,
    );
    return Math.max(0, save.head - fromSeq + 1);
  }
}

/**
 * Refolds every save's read models when a migration asked for it (`read_model_refolds`:
 * their rows' shape or keys changed), then forgets the request — once, in one
 * transaction, on the first writable open. A read-only connection reads them as they are.
 */
export const refoldIfAsked = (db: SqliteDatabase, refolds: SaveRefold): void => {
  if (db.readonly) return;
  const asked = db
    .prepare(
      "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'read_model_refolds'",
    )
    .pluck()
    .get() as number;
  if (asked === 0) return;
  if ((db.prepare("SELECT count(*) FROM read_model_refolds").pluck().get() as number) === 0) return;
  withDigest(
    db,
    () => {
      refolds.refoldAll();
      db.exec("DELETE FROM read_model_refolds");
    },
    true,
  );
};

/**
 * The saves whose read models lag their log (a run stopped between catch-ups, or was
 * killed): a writable open catches them up, so what a resume, a rebuild or any other
 * writer then reads is the whole log's. None on a read-only connection.
 */
export const savesBehind = (db: SqliteDatabase): ReadonlyArray<string> =>
  db.readonly
    ? []
    : (db
        .prepare("SELECT save_id FROM saves WHERE projected_seq IS NOT NULL ORDER BY save_id")
        .pluck()
        .all() as Array<string>);
