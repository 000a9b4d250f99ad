/**
 * The event-sourced store over one SQLite connection, as a synchronous API: saves and
 * branches, the append-only log with optimistic concurrency (`expectedSeq`), reads by
 * seq and by game day, and — through the projector — read models that are updated in the
 * same transaction as the append, rebuilt from the log on demand, snapshotted every N
 * events and restorable from a snapshot plus the tail of the log. A batch may also be
 * appended as log rows only (`appendLogOnly`; its events kept in memory for the fold) and
 * the read models caught up later (`caughtUp`) — a run does not, yet: it measured no net
 * gain. Every read of them here, and every writable open, catches up first. The append path is
 * `EventAppend`, refolds from the log or a snapshot `SaveRefold`, and the reads of a save's
 * log and read models `SaveReads` and `KnowledgeQueries`; this class holds the saves and
 * the transactions around them.
 *
 * There are no Effect services over it: the engine, the CLI and the server call it directly.
 */
import type {
  CampaignId,
  Event,
  GameTime,
  ItemKind,
  NpcId,
  SaveId,
  StoredEvent,
} from "@hearsay/core";
import { BackgroundAppends } from "./BackgroundAppends.ts";
import { BulkFold } from "./BulkFold.ts";
import type { EngineSnapshotJob } from "./backgroundProtocol.ts";
import { decodeBatch } from "./decodeBatch.ts";
import { EngineSnapshotStore } from "./EngineSnapshotStore.ts";
import { type AppendResult, EventAppend } from "./EventAppend.ts";
import { EventHistory, type SaveInfo } from "./EventHistory.ts";
import {
  copiesNone,
  type ImportOptions,
  type ImportResult,
  importEvents,
} from "./importHistory.ts";
import { KnowledgeQueries, type KnownItem } from "./KnowledgeQueries.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { digestTallyOf, withDigest, withDigestAsync } from "./ProjectionDigest.ts";
import { type ProjectionState, ProjectionStateIO } from "./ProjectionState.ts";
import { Projector } from "./Projector.ts";
import { SaveReads } from "./SaveReads.ts";
import { refoldIfAsked, SaveRefold, savesBehind } from "./SaveRefold.ts";
import { type Snapshot, type SnapshotInfo, SnapshotStore } from "./SnapshotStore.ts";
import {
  DatabaseBusy,
  InvalidBranchPoint,
  isSqliteBusy,
  SaveExists,
  SnapshotNotFound,
} from "./StoreError.ts";

export type { AppendResult } from "./EventAppend.ts";

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

/** The schema name an import attaches its source database under. */
const SOURCE_SCHEMA = "hearsay_import_source";

export class SqliteEventLog {
  private readonly history: EventHistory;
  private readonly projector: Projector;
  private readonly stateIO: ProjectionStateIO;
  private readonly snapshotStore: SnapshotStore;
  private readonly knowledge: KnowledgeQueries;
  private readonly reads: SaveReads;
  private readonly refolds: SaveRefold;
  private readonly appends: EventAppend;
  private readonly insertEvent: SqliteStatement;
  private readonly setHead: SqliteStatement;
  /** `PRAGMA data_version`: changes when another connection commits to the file. */
  private readonly dataVersion: SqliteStatement;
  /**
   * Per save, the `data_version` at which its read models were last found level with its
   * log: until another connection commits (or this one appends log rows only), they still are.
   */
  private readonly levelAt = new Map<string, number>();
  /** The worker appending for this connection, while a run has one (`appendInBackground`). */
  private background: BackgroundAppends | null = null;
  private lastBackground: BackgroundAppends | null = null;

  constructor(
    readonly db: SqliteDatabase,
    private readonly opts: EventLogOptions = {},
  ) {
    this.history = new EventHistory(db);
    this.projector = new Projector(db);
    this.stateIO = new ProjectionStateIO(db);
    this.snapshotStore = new SnapshotStore(db);
    this.knowledge = new KnowledgeQueries(db);
    this.reads = new SaveReads(db, this.history, this.stateIO);
    this.refolds = new SaveRefold(
      db,
      this.history,
      this.projector,
      this.stateIO,
      this.snapshotStore,
    );
    this.insertEvent = db.prepare(
      "INSERT INTO events (save_id, seq, campaign_id, event_id, t, day, type, version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.setHead = db.prepare("UPDATE saves SET head_seq = ? WHERE save_id = ?");
    this.dataVersion = db.prepare("PRAGMA data_version").pluck();
    this.appends = new EventAppend({
      db,
      history: this.history,
      projector: this.projector,
      stateIO: this.stateIO,
      snapshots: this.snapshotStore,
      setHead: this.setHead,
      snapshotEvery: Math.max(0, Math.trunc(opts.snapshotEvery ?? 0)),
      sqlFoldFrom: Math.max(1, opts.sqlFoldFrom ?? 64),
    });
    // On a writable open: a migration's refold, then every save a run left behind caught up.
    refoldIfAsked(db, this.refolds);
    for (const saveId of savesBehind(db)) this.caughtUp(saveId);
  }

  // --- saves -------------------------------------------------------------------------

  /**
   * Creates a save. A branch (`parent`) shares the parent's history up to `parent.seq`
   * without copying it; its read models are built from the nearest snapshot plus the
   * shared events, in the same transaction.
   */
  createSave(spec: NewSave): SaveInfo {
    this.settle();
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
        this.history.add(spec.saveId, spec.campaignId, spec.name, parent);
        const save = this.history.get(spec.saveId);
        if (save.head > 0) this.refolds.reproject(save);
        return save;
      },
      true,
    );
  }

  /** Every save, ordered by id. */
  saves(): ReadonlyArray<SaveInfo> {
    this.settle();
    return this.history.list();
  }

  /** One save. @throws UnknownSave */
  save(saveId: string): SaveInfo {
    this.settle();
    return this.history.get(saveId);
  }

  /** The seq of the save's last event, appended (0 when empty). @throws UnknownSave */
  head(saveId: string): number {
    const sent = this.background?.sentHead(saveId); // batches on their way: the head they lead to
    if (sent !== undefined) return sent;
    this.settle();
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
    // On a worker, the worker decodes (and holds each event to be as it decodes).
    if (this.background !== null) return this.background.append(saveId, expectedSeq, events);
    return this.appendDecoded(saveId, expectedSeq, decodeBatch(saveId, events));
  }

  /** `append` of a batch already decoded (with its payloads' JSON, when known: the log rows). */
  appendDecoded(
    saveId: string,
    expectedSeq: number,
    decoded: ReadonlyArray<Event>,
    payloads?: ReadonlyArray<string>,
  ): AppendResult {
    try {
      return this.appends.append(saveId, expectedSeq, decoded, payloads);
    } catch (e) {
      throw this.busyAsSaid(e);
    }
  }

  /**
   * From now on `append` hands its batches to a worker thread with a connection of its
   * own, which commits them in order, each as `append` would (`BackgroundAppends`); every
   * other read or write here first waits until the batches sent are committed. False, and
   * nothing changes, for an in-memory or read-only database or inside a transaction. `delayMs` holds each batch
   * back (tests: a lagging worker). Batches in flight are not in the file yet: nothing
   * else may append to it meanwhile (the writer lock keeps other processes out).
   */
  appendInBackground(options: { readonly delayMs?: number } = {}): boolean {
    if (this.background !== null) return true;
    // Inside a transaction (`atomically`: a talk's skip) the batches must join it.
    if (this.db.memory || this.db.readonly || this.db.inTransaction) return false;
    const delay = options.delayMs ?? 0;
    this.background = new BackgroundAppends(this.db.name, this.opts, this.history, delay);
    return true;
  }

  /** Waits until the batches sent are committed; `append` writes here again. @throws its failure */
  appendInForeground(): void {
    const bg = this.background;
    [this.lastBackground, this.background] = [bg ?? this.lastBackground, null];
    bg?.close();
  }

  /** The latest append worker: ms the sender waited for it, its kernel thread id (0: none), its commits. */
  get appendWorker(): {
    readonly waitedMs: number;
    readonly threadId: number;
    readonly commits: number;
  } {
    const w = this.background ?? this.lastBackground;
    return { waitedMs: w?.waitedMs ?? 0, threadId: w?.threadId ?? 0, commits: w?.commits ?? 0 };
  }

  /**
   * Stores an engine snapshot (`EngineSnapshotStore.write`) after every batch sent: on
   * the append worker, in order with them, while a run has one; else here, now.
   */
  writeEngineSnapshot(job: Omit<EngineSnapshotJob, "kind">): void {
    if (this.background !== null)
      this.background.writeEngineSnapshot({ ...job, kind: "engine-snapshot" });
    else
      new EngineSnapshotStore(this.db).write(job.saveId, job.seq, job.format, job.text, job.keep);
  }

  /** Waits until every batch sent to the append worker is committed (none: returns at once). */
  settle(): void {
    this.background?.settle();
  }

  /** Settles before a write here: the heads `append` sends from are read again after it. */
  private quiet(): void {
    this.settle();
    this.background?.forgetHeads();
  }

  /**
   * Appends a batch's log rows only, in one (immediate) transaction, leaving the read models
   * behind until {@link caughtUp} (no run appends this way). As durable as an `append` (a
   * writable open, or any read of the read models, folds it); ids, seqs, dedup and errors too.
   *
   * @throws StaleSeq when `expectedSeq` is not the head (nothing written)
   * @throws InvalidEvent naming the first event that does not decode (nothing written)
   * @throws UnknownSave
   */
  appendLogOnly(saveId: string, expectedSeq: number, events: ReadonlyArray<unknown>): AppendResult {
    this.quiet();
    const decoded = decodeBatch(saveId, events);
    this.levelAt.delete(saveId);
    try {
      return this.appends.appendLogOnly(saveId, expectedSeq, decoded);
    } catch (e) {
      throw this.busyAsSaid(e);
    }
  }

  /**
   * Folds whatever of the save's log its read models do not hold yet (after
   * `appendLogOnly`), in one transaction, as appending it would have: same rows, keys,
   * FTS entries and digest. Returns how many events it folded (0 when none were behind,
   * and then it writes nothing). Every read of the read models through this class calls
   * it first.
   */
  caughtUp(saveId: string): number {
    this.settle();
    if (this.db.readonly) return 0;
    // Known level, and no other connection has committed since: one pragma, no query.
    const version = this.dataVersion.get() as number;
    if (this.levelAt.get(saveId) === version) return 0;
    const save = this.history.get(saveId);
    let folded = 0;
    if (this.appends.projectedSeq(save) !== null) {
      try {
        folded = withDigest(this.db, () => this.appends.catchUp(saveId), true);
      } catch (e) {
        throw this.busyAsSaid(e);
      }
    }
    if (!this.db.inTransaction) this.levelAt.set(saveId, version);
    return folded;
  }

  /** Whether the save's read models lag its log. */
  behind(saveId: string): boolean {
    this.settle();
    return this.appends.projectedSeq(this.history.get(saveId)) !== null;
  }

  /** The save is fully projected (after a refold to its head). */
  private projectedAll(saveId?: string): void {
    if (saveId === undefined) this.db.exec("UPDATE saves SET projected_seq = NULL");
    else this.db.prepare("UPDATE saves SET projected_seq = NULL WHERE save_id = ?").run(saveId);
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
    this.quiet();
    try {
      return await withDigestAsync(this.db, work);
    } catch (e) {
      throw this.busyAsSaid(e);
    }
  }

  /** `e`, or `DatabaseBusy` when it is another connection's write lock held past the timeout. */
  private busyAsSaid(e: unknown): unknown {
    return isSqliteBusy(e) ? new DatabaseBusy({ path: this.db.name }) : e;
  }

  /** The save's history with seq in [fromSeq, toSeq] (default: all), in seq order. */
  read(
    saveId: string,
    range: { readonly fromSeq?: number; readonly toSeq?: number } = {},
  ): ReadonlyArray<StoredEvent> {
    this.settle();
    return this.reads.read(saveId, range);
  }

  /** The save's history on game days [fromDay, toDay] (both included), in seq order. */
  readDays(saveId: string, fromDay: number, toDay: number): ReadonlyArray<StoredEvent> {
    this.settle();
    return this.reads.readDays(saveId, fromDay, toDay);
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
    this.quiet();
    return withDigest(
      this.db,
      () => {
        if (saveId !== undefined) {
          const n = this.refolds.refold(this.history.get(saveId), 1, undefined);
          this.projectedAll(saveId);
          return n;
        }
        const n = this.refolds.refoldAll();
        this.projectedAll();
        return n;
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
    this.quiet();
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
        this.history.add(from.saveId, from.campaignId, from.name, undefined);
        // Discarded or kept without events, a target whose source is attached gets no
        // event rows (see `discard`, `withoutEvents`).
        const copyNone = copiesNone(attached, opts);
        const plan = {
          wholesale: alone,
          ...(alone && !copyNone ? { alsoIndexesOf: ["events"] } : {}),
          ...(copyNone && attached !== null ? { log: attached } : {}),
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
    this.caughtUp(saveId);
    return this.reads.projectionState(saveId);
  }

  /** `stateHash` of {@link projectionState}: what Checkpoint events carry. */
  projectionHash(saveId: string): string {
    this.caughtUp(saveId);
    // Inside a transaction the digest's deltas wait for its end: fold them in now (a
    // rollback still drops them, with the rows).
    if (this.db.inTransaction) digestTallyOf(this.db)?.flush();
    return this.reads.projectionHash(saveId);
  }

  // --- snapshots ---------------------------------------------------------------------

  /** Snapshots the save's read models at its head (with optional actor state as JSON). */
  takeSnapshot(saveId: string, actors: unknown = null): SnapshotInfo {
    this.caughtUp(saveId);
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
    this.settle();
    const save = this.history.get(saveId);
    return this.refolds.latestSnapshot(save, atOrBefore ?? save.head);
  }

  /** The snapshots stored for this save itself, oldest first. */
  snapshots(saveId: string): ReadonlyArray<SnapshotInfo> {
    this.settle();
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
    this.quiet();
    return withDigest(
      this.db,
      () => {
        const save = this.history.get(saveId);
        const snap = this.refolds.latestSnapshot(save, atOrBefore ?? save.head);
        if (!snap) throw new SnapshotNotFound({ saveId, seq: atOrBefore ?? null });
        const folded = this.refolds.refold(save, snap.seq + 1, snap.state);
        this.projectedAll(saveId);
        return { fromSeq: snap.seq, folded };
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
    this.caughtUp(saveId);
    return this.knowledge.knowsAt(saveId, npcId, itemKind, itemId, t);
  }

  /**
   * The text and names of the save's memories among `memoryIds` (those its read model
   * holds: recorded in an earlier append), by id. A memory's row never changes once
   * written (its first MemoryRecorded wins; an expiry only marks it), so while the append
   * worker writes, the rows already committed are read without waiting for it: only an id
   * not among them waits (and is read again).
   */
  memoryTexts(
    saveId: string,
    memoryIds: ReadonlyArray<string>,
  ): ReadonlyMap<string, { readonly text: string; readonly entities: ReadonlyArray<string> }> {
    if (this.background !== null && !this.db.inTransaction) {
      const committed = this.reads.memoryTexts(saveId, memoryIds);
      if (committed.size === new Set(memoryIds).size) return committed;
    }
    this.caughtUp(saveId);
    return this.reads.memoryTexts(saveId, memoryIds);
  }

  /** Every item the NPC knows at `t` (optionally of one kind), ordered by kind then id. */
  knownItems(saveId: string, npcId: NpcId, t: GameTime, kind?: ItemKind): ReadonlyArray<KnownItem> {
    this.caughtUp(saveId);
    return this.knowledge.knownItems(saveId, npcId, t, kind);
  }
}
