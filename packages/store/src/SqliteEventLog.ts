/**
 * The event-sourced store over one SQLite connection, as a synchronous API: saves and
 * branches, the append-only log with optimistic concurrency (`expectedSeq`), reads by
 * seq and by game day, and — through the projector — read models that are updated in the
 * same transaction as the append, rebuilt from the log on demand, snapshotted every N
 * events and restorable from a snapshot plus the tail of the log.
 *
 * Effect services (`EventLog`, `Projections`, `Snapshots`) wrap this class; engines and
 * benches that want no Effect can use it directly.
 */
import {
  type CampaignId,
  currentVersions,
  type Event,
  type GameTime,
  type ItemKind,
  type NpcId,
  type SaveId,
  type StoredEvent,
} from "@hearsay/core";
import { BulkFold } from "./BulkFold.ts";
import { decodeBatch } from "./decodeBatch.ts";
import { EventHistory, type SaveInfo, type Segment, toStored } from "./EventHistory.ts";
import { type ImportOptions, type ImportResult, importEvents } from "./importHistory.ts";
import { KnowledgeQueries, type KnownItem } from "./KnowledgeQueries.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { readDigest, withDigest, withDigestAsync } from "./ProjectionDigest.ts";
import { type ProjectionState, ProjectionStateIO } from "./ProjectionState.ts";
import { Projector } from "./Projector.ts";
import { type Snapshot, type SnapshotInfo, SnapshotStore } from "./SnapshotStore.ts";
import { atCurrentVersion, inertTypes, SqlFold, sqlFoldedTypes } from "./SqlFold.ts";
import {
  DatabaseBusy,
  InvalidBranchPoint,
  SaveExists,
  SnapshotNotFound,
  StaleSeq,
} from "./StoreError.ts";

/** Options for {@link SqliteEventLog}. */
export interface EventLogOptions {
  /** Take a snapshot whenever an append crosses a multiple of this many events (0: never). */
  readonly snapshotEvery?: number;
  /**
   * Fold a batch's events of SqlFold.ts's types with one statement per table when it
   * holds at least this many of them (default 64), else one by one: a tick of a small
   * world is cheaper folded event by event than by the fold's score of statements. Both
   * ways give the same rows, rowids and digest.
   */
  readonly sqlFoldFrom?: number;
}

/** What `createSave` needs. */
export interface NewSave {
  readonly saveId: SaveId;
  readonly campaignId: CampaignId;
  readonly name: string;
  /** Branch from this save, sharing its history up to and including `seq`. */
  readonly parent?: { readonly saveId: SaveId; readonly seq: number };
}

/** What an append did. */
export interface AppendResult {
  /** The save's head after the append. */
  readonly head: number;
  /** The events stored, with their seqs (events already in the history are left out). */
  readonly appended: ReadonlyArray<StoredEvent>;
  /** How many events were skipped because their id was already in the save's history. */
  readonly skipped: number;
  /** The snapshot this append took, if it crossed a snapshot boundary. */
  readonly snapshot: SnapshotInfo | null;
}

const dayOfMinutes = (t: number): number => Math.floor(t / 1440);

/** The event types an append leaves to SqlFold.ts. */
const sqlFolded = new Set<string>(sqlFoldedTypes);

/** The schema name an import attaches its source database under. */
const SOURCE_SCHEMA = "hearsay_import_source";

export class SqliteEventLog {
  private readonly history: EventHistory;
  private readonly projector: Projector;
  private readonly stateIO: ProjectionStateIO;
  private readonly snapshotStore: SnapshotStore;
  private readonly knowledge: KnowledgeQueries;
  private readonly snapshotEvery: number;
  private readonly sqlFoldFrom: number;
  private readonly insertSave: SqliteStatement;
  private readonly insertEvent: SqliteStatement;
  private readonly appendEvent: SqliteStatement;
  private readonly setHead: SqliteStatement;
  private memoryText: SqliteStatement | undefined;
  /** The appends' SQL fold (made at the first append that needs it). */
  private appendFold: SqlFold | null = null;

  constructor(
    readonly db: SqliteDatabase,
    opts: EventLogOptions = {},
  ) {
    this.history = new EventHistory(db);
    this.projector = new Projector(db);
    this.stateIO = new ProjectionStateIO(db);
    this.snapshotStore = new SnapshotStore(db);
    this.knowledge = new KnowledgeQueries(db);
    this.snapshotEvery = Math.max(0, Math.trunc(opts.snapshotEvery ?? 0));
    this.sqlFoldFrom = Math.max(1, opts.sqlFoldFrom ?? 64);
    this.insertSave = db.prepare(
      "INSERT INTO saves (save_id, campaign_id, name, parent_save_id, parent_seq, head_seq) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.insertEvent = db.prepare(
      "INSERT INTO events (save_id, seq, campaign_id, event_id, t, day, type, version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.appendEvent = db.prepare(
      "INSERT INTO events (save_id, seq, campaign_id, event_id, t, day, type, version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, event_id) DO NOTHING",
    );
    this.setHead = db.prepare("UPDATE saves SET head_seq = ? WHERE save_id = ?");
  }

  // --- saves -------------------------------------------------------------------------

  /**
   * Creates a save. A branch (`parent`) shares the parent's history up to `parent.seq`
   * without copying it; its read models are built from the nearest snapshot plus the
   * shared events, in the same transaction.
   */
  createSave(spec: NewSave): SaveInfo {
    return withDigest(
      this.db,
      () => {
        if (this.history.find(spec.saveId)) throw new SaveExists({ saveId: spec.saveId });
        const parent = spec.parent;
        if (parent) {
          const p = this.history.get(parent.saveId);
          if (!Number.isInteger(parent.seq) || parent.seq < 0 || parent.seq > p.head) {
            throw new InvalidBranchPoint({
              saveId: spec.saveId,
              parentSaveId: parent.saveId,
              seq: parent.seq,
              parentHead: p.head,
            });
          }
        }
        this.insertSave.run(
          spec.saveId,
          spec.campaignId,
          spec.name,
          parent?.saveId ?? null,
          parent?.seq ?? null,
          parent?.seq ?? 0,
        );
        const save = this.history.get(spec.saveId);
        if (save.head > 0) this.reproject(save);
        return save;
      },
      true,
    );
  }

  /** Every save, ordered by id. */
  saves(): ReadonlyArray<SaveInfo> {
    return this.history.list();
  }

  /** One save. @throws UnknownSave */
  save(saveId: string): SaveInfo {
    return this.history.get(saveId);
  }

  /** The seq of the save's last event (0 when empty). @throws UnknownSave */
  head(saveId: string): number {
    return this.history.get(saveId).head;
  }

  // --- the log -----------------------------------------------------------------------

  /**
   * Appends a batch in one (immediate, so write-locked from the start) transaction with
   * its projection updates: the `expectedSeq` check holds even against another process
   * writing the same file. Every event is
   * decoded first; an event whose id is already in the save's history (or earlier in the
   * batch) is skipped. Seqs stay gapless.
   *
   * @throws StaleSeq when `expectedSeq` is not the head (nothing written)
   * @throws InvalidEvent naming the first event that does not decode (nothing written)
   * @throws UnknownSave
   */
  append(saveId: string, expectedSeq: number, events: ReadonlyArray<unknown>): AppendResult {
    const decoded = decodeBatch(saveId, events);
    return this.unlessBusy(() => this.appendDecoded(saveId, expectedSeq, decoded));
  }

  /** `work`, with another connection's write lock held past the busy timeout said so. */
  private unlessBusy<A>(work: () => A): A {
    try {
      return work();
    } catch (e) {
      if (isBusy(e)) throw new DatabaseBusy({ path: this.db.name });
      throw e;
    }
  }

  private appendDecoded(
    saveId: string,
    expectedSeq: number,
    decoded: ReturnType<typeof decodeBatch>,
  ): AppendResult {
    return withDigest(
      this.db,
      (): AppendResult => {
        const save = this.history.get(saveId);
        if (save.head !== expectedSeq) {
          throw new StaleSeq({ saveId, expectedSeq, headSeq: save.head });
        }
        const ancestors = this.ancestorSegments(save);
        const seen = new Set<string>();
        const appended: Array<StoredEvent> = [];
        let seq = save.head;
        // SqlFold.ts takes events at their type's current version only. Decoding upcasts
        // every event to it, so that holds; were it not to, the batch is folded event by
        // event instead.
        let foldable = 0;
        let current = true;
        for (const e of decoded) {
          if (!sqlFolded.has(e.type)) continue;
          foldable += 1;
          if (e.version !== currentVersions.get(e.type)) current = false;
        }
        const bySql = current && foldable >= this.sqlFoldFrom;
        try {
          for (const e of decoded) {
            if (
              seen.has(e.id) ||
              (ancestors.length > 0 && this.history.containsEventId(ancestors, e.id))
            ) {
              continue;
            }
            seen.add(e.id);
            // An id already among the save's own events inserts nothing (one statement, not two).
            const inserted = this.appendEvent.run(
              saveId,
              seq + 1,
              save.campaignId,
              e.id,
              e.t,
              dayOfMinutes(e.t),
              e.type,
              e.version,
              JSON.stringify(e.payload),
            );
            if (inserted.changes === 0) continue;
            seq += 1;
            const stored = storedOf(e, seq, save);
            if (!bySql || !sqlFolded.has(e.type))
              this.projector.apply(stored, saveId, save.campaignId, "live");
            appended.push(stored);
          }
          if (bySql && seq > save.head) this.foldBySql(save, save.head + 1, seq);
          else this.projector.flushFts();
        } finally {
          // FTS writes the fold held back go in with their batch, or not at all.
          this.projector.dropFts();
        }
        let snapshot: SnapshotInfo | null = null;
        if (seq !== save.head) {
          this.setHead.run(seq, saveId);
          const n = this.snapshotEvery;
          if (n > 0 && Math.floor(seq / n) > Math.floor(save.head / n)) {
            snapshot = this.snapshotStore.write(
              saveId,
              save.campaignId,
              seq,
              this.stateIO.read(saveId),
              null,
            );
          }
        }
        return { head: seq, appended, skipped: decoded.length - appended.length, snapshot };
      },
      true,
    );
  }

  /**
   * Folds the appended events SqlFold.ts folds (seqs `fromSeq`..`toSeq` of the save's own
   * log) with one statement per table, after the projector folded the rest of the batch
   * event by event — the split and the order a rebuild folds in, so the rows and the
   * digest (the triggers see every row written) are those of an event-by-event fold.
   * The FTS entries come last, as `flushFts` explains: the projector's, then the rows
   * the fold wrote, in rowid order.
   */
  private foldBySql(save: SaveInfo, fromSeq: number, toSeq: number): void {
    this.appendFold ??= SqlFold.open(this.db, "main", "hearsay_append");
    this.appendFold.ensureScratch();
    const marks = this.projector.sqlFoldMarks();
    this.appendFold.fold(save.saveId, save.campaignId, [{ saveId: save.saveId, fromSeq, toSeq }]);
    this.projector.flushFts();
    this.projector.indexSqlFolded(marks);
  }

  /**
   * Runs `work` as one transaction: every append it makes (to any save) is committed
   * together when it resolves, and none of them when it throws. The file stays
   * write-locked until then, so no other writer's batch can land between its appends
   * (theirs wait, and fail after the busy timeout, as a stale writer's would). Any other
   * write on this connection meanwhile joins the transaction, so the caller must be the
   * connection's only writer while `work` runs (a TalkWorld runs its changes one by one).
   */
  async atomically<A>(work: () => Promise<A>): Promise<A> {
    try {
      return await withDigestAsync(this.db, work);
    } catch (e) {
      if (isBusy(e)) throw new DatabaseBusy({ path: this.db.name });
      throw e;
    }
  }

  /** The save's history with seq in [fromSeq, toSeq] (default: all), in seq order. */
  read(
    saveId: string,
    range: { readonly fromSeq?: number; readonly toSeq?: number } = {},
  ): ReadonlyArray<StoredEvent> {
    const save = this.history.get(saveId);
    return this.history.read(save, range.fromSeq ?? 1, range.toSeq ?? save.head);
  }

  /** The save's history on game days [fromDay, toDay] (both included), in seq order. */
  readDays(saveId: string, fromDay: number, toDay: number): ReadonlyArray<StoredEvent> {
    return this.history.readDays(this.history.get(saveId), fromDay, toDay);
  }

  // --- projections -------------------------------------------------------------------

  /**
   * Deletes and refolds the read models of one save (or of every save) from the log, as
   * a bulk fold (BulkFold.ts): same rows and digest as the appends made, at insert speed.
   * Returns the number of events folded. When every save is refolded (or the save is the
   * only one), tables are emptied wholesale and secondary and FTS indexes are built once
   * after the fold; otherwise the save's rows and FTS entries are removed one by one.
   */
  rebuildProjections(saveId?: string): number {
    return withDigest(
      this.db,
      () => {
        if (saveId !== undefined) return this.refold(this.history.get(saveId), 1, undefined);
        return BulkFold.run(this.db, this.projector, { wholesale: true }, (bulk) => {
          let folded = 0;
          for (const save of this.history.list()) folded += this.fold(bulk, save, 1, undefined);
          return folded;
        });
      },
      true,
    );
  }

  /**
   * Copies a save's history from `source` (another store) into this one, as a new root
   * save with the same id, campaign and name, folding its read models in bulk as it
   * goes — replay's refold. `onCheckpoint` sees the folded state's digest at each
   * Checkpoint and may stop the import there. Events are not decoded again (the source
   * decoded them on append); one not at its type's current version after upcasting, or
   * that cannot be folded, is refused with `InvalidEvent` whose `index` is its seq − 1,
   * and nothing is written.
   *
   * @throws SaveExists when this store already has the save
   * @throws UnknownSave when the source has not
   * @throws InvalidEvent
   */
  importHistory(source: SqliteEventLog, opts: ImportOptions): ImportResult {
    const from = source.history.get(opts.saveId);
    const last = Math.max(0, Math.min(opts.untilSeq ?? from.head, from.head));
    // A source on disk is attached, so its event rows are copied by SQLite itself.
    const attached =
      !source.db.memory && source.db.name !== "" && source !== this && !this.db.inTransaction;
    if (attached) this.db.prepare(`ATTACH DATABASE ? AS ${SOURCE_SCHEMA}`).run(source.db.name);
    try {
      return this.importInto(source, from, last, opts, attached ? SOURCE_SCHEMA : null);
    } finally {
      if (attached) this.db.exec(`DETACH DATABASE ${SOURCE_SCHEMA}`);
    }
  }

  /** `importHistory`'s transaction. */
  private importInto(
    source: SqliteEventLog,
    from: SaveInfo,
    last: number,
    opts: ImportOptions,
    attached: string | null,
  ): ImportResult {
    return withDigest(
      this.db,
      () => {
        if (this.history.find(from.saveId)) throw new SaveExists({ saveId: from.saveId });
        const alone = this.history.list().length === 0;
        this.insertSave.run(from.saveId, from.campaignId, from.name, null, null, 0);
        // Discarded, a target whose source is attached gets no event rows (see `discard`).
        const copyNone = attached !== null && opts.discard === true;
        const plan = {
          wholesale: alone,
          ...(alone && !copyNone ? { alsoIndexesOf: ["events"] } : {}),
          ...(copyNone ? { log: attached } : {}),
          ...(opts.discard === true ? { discard: true } : {}),
        };
        return BulkFold.run(this.db, this.projector, plan, (bulk) => {
          bulk.beginSave(from.saveId, from.campaignId, opts.onCheckpoint !== undefined);
          const result = importEvents(
            {
              source: source.history,
              sourceSave: from,
              bulk,
              insertEvent: this.insertEvent,
              attached,
              db: this.db,
              stateIO: this.stateIO,
              last,
            },
            opts,
          );
          this.setHead.run(result.head, from.saveId);
          return result;
        });
      },
      true,
    );
  }

  /** The canonical state of every projection row of the save. @throws UnknownSave */
  projectionState(saveId: string): ProjectionState {
    this.history.get(saveId);
    return this.stateIO.read(saveId);
  }

  /** `stateHash` of {@link projectionState}: what Checkpoint events carry. */
  projectionHash(saveId: string): string {
    this.history.get(saveId);
    return readDigest(this.db, saveId);
  }

  // --- snapshots ---------------------------------------------------------------------

  /** Snapshots the save's read models at its head (with optional actor state as JSON). */
  takeSnapshot(saveId: string, actors: unknown = null): SnapshotInfo {
    return withDigest(
      this.db,
      () => {
        const save = this.history.get(saveId);
        return this.snapshotStore.write(
          saveId,
          save.campaignId,
          save.head,
          this.stateIO.read(saveId),
          actors,
        );
      },
      true,
    );
  }

  /**
   * The newest snapshot usable for the save at or before `atOrBefore` (default: its
   * head) — its own or an ancestor's from the shared history — or undefined.
   */
  loadSnapshot(saveId: string, atOrBefore?: number): Snapshot | undefined {
    const save = this.history.get(saveId);
    return this.snapshotStore.latest(this.snapshotSegments(save), atOrBefore ?? save.head);
  }

  /** The snapshots stored for this save itself, oldest first. */
  snapshots(saveId: string): ReadonlyArray<SnapshotInfo> {
    this.history.get(saveId);
    return this.snapshotStore.of(saveId);
  }

  /**
   * Replaces the save's read models with the newest snapshot at or before `atOrBefore`
   * plus a fold of every event after it. Returns the snapshot seq and events folded.
   * @throws SnapshotNotFound
   */
  restoreFromSnapshot(
    saveId: string,
    atOrBefore?: number,
  ): { readonly fromSeq: number; readonly folded: number } {
    return withDigest(
      this.db,
      () => {
        const save = this.history.get(saveId);
        const snap = this.snapshotStore.latest(
          this.snapshotSegments(save),
          atOrBefore ?? save.head,
        );
        if (!snap) throw new SnapshotNotFound({ saveId, seq: atOrBefore ?? null });
        return { fromSeq: snap.seq, folded: this.refold(save, snap.seq + 1, snap.state) };
      },
      true,
    );
  }

  // --- knowledge ---------------------------------------------------------------------

  /** Does the NPC know the item at `t`? Same rule as core's `knows`. */
  knowsAt(
    saveId: string,
    npcId: NpcId,
    itemKind: ItemKind | "lore",
    itemId: string,
    t: GameTime,
  ): boolean {
    return this.knowledge.knowsAt(saveId, npcId, itemKind, itemId, t);
  }

  /**
   * The text and names of the save's memories among `memoryIds` (those its read model
   * holds: recorded in an earlier append), by id.
   */
  memoryTexts(
    saveId: string,
    memoryIds: ReadonlyArray<string>,
  ): ReadonlyMap<string, { readonly text: string; readonly entities: ReadonlyArray<string> }> {
    const out = new Map<string, { text: string; entities: ReadonlyArray<string> }>();
    if (memoryIds.length === 0) return out;
    this.memoryText ??= this.db.prepare(
      "SELECT text, entities FROM memories WHERE save_id = ? AND memory_id = ?",
    );
    for (const id of memoryIds) {
      const row = this.memoryText.get(saveId, id) as
        | { readonly text: string; readonly entities: string }
        | undefined;
      if (row !== undefined)
        out.set(id, { text: row.text, entities: JSON.parse(row.entities) as Array<string> });
    }
    return out;
  }

  /** Every item the NPC knows at `t` (optionally of one kind), ordered by kind then id. */
  knownItems(saveId: string, npcId: NpcId, t: GameTime, kind?: ItemKind): ReadonlyArray<KnownItem> {
    return this.knowledge.knownItems(saveId, npcId, t, kind);
  }

  // --- internals ---------------------------------------------------------------------

  /** The history segments that are not the save's own events. */
  private ancestorSegments(save: SaveInfo): ReadonlyArray<Segment> {
    return this.history.segments(save.saveId).filter((s) => s.saveId !== save.saveId);
  }

  /** Segments to search for snapshots: the history plus the save itself. */
  private snapshotSegments(save: SaveInfo): ReadonlyArray<Segment> {
    return [
      ...this.history.segments(save.saveId),
      { saveId: save.saveId, fromSeq: 0, toSeq: save.head },
    ];
  }

  /** Rebuilds the save's read models from the newest usable snapshot plus the tail. */
  private reproject(save: SaveInfo): number {
    const snap = this.snapshotStore.latest(this.snapshotSegments(save), save.head);
    return snap ? this.refold(save, snap.seq + 1, snap.state) : this.refold(save, 1, undefined);
  }

  /**
   * Replaces the save's read models with `state` (none: empty) plus a fold of its history
   * from `fromSeq`, in bulk. Call inside a transaction. When the save is the only one,
   * tables are emptied wholesale and indexes rebuilt once after; otherwise only its rows
   * (and FTS entries) are removed, and its rows are indexed after the fold.
   */
  private refold(save: SaveInfo, fromSeq: number, state: ProjectionState | undefined): number {
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
 * The stored form of a decoded event, built field by field: V8 clones a spread of a
 * decoded event on its slow path, many times over the cost and the size of this literal,
 * and an append makes one per event (a large world's tick, thousands). The literal's type
 * names every key of `StoredEvent`, so a field events gain cannot be left out.
 */
const storedOf = (e: Event, seq: number, save: SaveInfo): StoredEvent => {
  const stored: { readonly [K in keyof StoredEvent]: unknown } = {
    type: e.type,
    version: e.version,
    id: e.id,
    t: e.t,
    payload: e.payload,
    seq,
    saveId: save.saveId,
    campaignId: save.campaignId,
  };
  return stored as StoredEvent;
};

/** SQLite's "the database is locked" (another connection holds the write lock). */
const isBusy = (e: unknown): boolean =>
  typeof e === "object" &&
  e !== null &&
  typeof (e as { code?: unknown }).code === "string" &&
  (e as { code: string }).code.startsWith("SQLITE_BUSY");
