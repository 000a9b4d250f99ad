/**
 * The append path: a decoded batch checked against the save's head, deduplicated by
 * event id, inserted with gapless seqs and folded into the read models in the same
 * transaction — event by event through the projector, or, for a batch with many events
 * of SqlFold.ts's types, those with one statement per table — then the head moved and,
 * when the append crosses a multiple of `snapshotEvery`, a snapshot taken. A log-only
 * append inserts the same rows and moves the head but folds nothing: it marks where the
 * read models stop (`saves.projected_seq`) and keeps its events, and `catchUp` later
 * folds everything behind as one append of it would.
 */
import {
  currentVersions,
  type Event,
  type EventOf,
  makeEvent,
  type StoredEvent,
} from "@hearsay/core";
import type { decodeBatch } from "./decodeBatch.ts";
import type { EventHistory, SaveInfo, Segment } from "./EventHistory.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { digestTallyOf, readDigest, withDigest } from "./ProjectionDigest.ts";
import type { ProjectionStateIO } from "./ProjectionState.ts";
import type { Projector } from "./Projector.ts";
import type { SnapshotInfo, SnapshotStore } from "./SnapshotStore.ts";
import { SqlFold, sqlFoldedTypes } from "./SqlFold.ts";
import { InvalidEvent, StaleSeq } from "./StoreError.ts";
import { VouchedEvent } from "./takeBatch.ts";

/** What an append did. */
export interface AppendResult {
  /** The save's head after the append. */
  readonly head: number;
  /**
   * The events stored, with their seqs (events already in the history are left out). A
   * Checkpoint appended with its hash left to the store holds it here when the append ran
   * on the caller's thread; from the append worker it is as sent (empty): read it back.
   */
  readonly appended: ReadonlyArray<StoredEvent>;
  /** How many events were skipped because their id was already in the save's history. */
  readonly skipped: number;
  /** The snapshot this append took, if it crossed a snapshot boundary. */
  readonly snapshot: SnapshotInfo | null;
}

/** What an append writes with. */
export interface AppendParts {
  readonly db: SqliteDatabase;
  readonly history: EventHistory;
  readonly projector: Projector;
  readonly stateIO: ProjectionStateIO;
  readonly snapshots: SnapshotStore;
  /** `UPDATE saves SET head_seq = ? WHERE save_id = ?`. */
  readonly setHead: SqliteStatement;
  /** Take a snapshot whenever an append crosses a multiple of this (0: never). */
  readonly snapshotEvery: number;
  /** Fold a batch's SqlFold.ts events by SQL when it holds at least this many. */
  readonly sqlFoldFrom: number;
}

/**
 * The save's projection digest now, inside the append's transaction: the digest's deltas
 * of earlier appends in it (an outer transaction) are folded in first.
 */
const readDigestNow = (db: SqliteDatabase, saveId: string): string => {
  digestTallyOf(db)?.flush();
  return readDigest(db, saveId);
};

/** A log-only append: the read models stop at the old head unless already behind. */
const MARK_BEHIND = "UPDATE saves SET projected_seq = coalesce(projected_seq, ?) WHERE save_id = ?";
const CLEAR_PROJECTED = "UPDATE saves SET projected_seq = NULL WHERE save_id = ?";

const dayOfMinutes = (t: number): number => Math.floor(t / 1440);

const EVENT_COLUMNS = "(save_id, seq, campaign_id, event_id, t, day, type, version, payload)";
/** Log rows per multi-row insert: binding a row costs less than running a statement. */
const ROWS_PER_INSERT = 64;

/** The event types an append leaves to SqlFold.ts. */
const sqlFolded = new Set<string>(sqlFoldedTypes);

/** A Checkpoint whose hash the store is to fill as it writes it (`stateHash` empty). */
const toHash = (e: Event): e is EventOf<"Checkpoint"> =>
  e.type === "Checkpoint" && e.payload.stateHash === "";

/**
 * Whether a batch opens with a Checkpoint for the store to hash: the append worker writes
 * what it has joined before such a batch, so that the hash is read between two appends.
 */
export const opensWithCheckpointToHash = (events: ReadonlyArray<Event>): boolean =>
  events.length > 0 && toHash(events[0]!);

export class EventAppend {
  private readonly appendEvent: SqliteStatement;
  /** The appends' SQL fold (made at the first append that needs it). */
  private appendFold: SqlFold | null = null;
  private projected: SqliteStatement | undefined;
  /**
   * Per save, the events its log-only appends wrote since `from` (through `to`), as they
   * were appended: what a catch-up folds without reading them back, when they are still
   * exactly what its read models lack (else it reads the log).
   */
  private readonly behind = new Map<
    string,
    { readonly from: number; to: number; readonly events: Array<StoredEvent> }
  >();
  private markBehind: SqliteStatement | undefined;
  private clearProjected: SqliteStatement | undefined;

  /** Multi-row inserts of the log rows, by row count (see `insertRows`). */
  private readonly appendRows = new Map<number, SqliteStatement>();

  constructor(private readonly parts: AppendParts) {
    this.appendEvent = parts.db.prepare(
      `INSERT INTO events ${EVENT_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (save_id, event_id) DO NOTHING`,
    );
  }

  /**
   * Appends a decoded batch in one (immediate) transaction with its projection updates.
   * An event whose id is already in the save's history (or earlier in the batch) is
   * skipped. Seqs stay gapless.
   *
   * @throws StaleSeq when `expectedSeq` is not the head (nothing written)
   * @throws UnknownSave
   */
  append(
    saveId: string,
    expectedSeq: number,
    decoded: ReturnType<typeof decodeBatch>,
    payloads?: ReadonlyArray<string>,
  ): AppendResult {
    return this.write(saveId, expectedSeq, decoded, true, payloads);
  }

  /**
   * Appends a decoded batch's log rows only, in one (immediate) transaction: the read
   * models are left behind, and the save's `projected_seq` marks the last seq they hold
   * until `catchUp` folds the rest. Same ids, seqs and dedup as `append`.
   *
   * @throws StaleSeq when `expectedSeq` is not the head (nothing written)
   * @throws UnknownSave
   */
  appendLogOnly(
    saveId: string,
    expectedSeq: number,
    decoded: ReturnType<typeof decodeBatch>,
  ): AppendResult {
    return this.write(saveId, expectedSeq, decoded, false);
  }

  /**
   * Folds the save's events after its `projected_seq` into the read models, as one
   * append of them would have (same rows, keys, FTS and digest; a snapshot when the fold
   * crosses a multiple of `snapshotEvery`), and marks the save fully projected. Returns
   * how many events it folded. Call inside a digest transaction.
   */
  catchUp(saveId: string): number {
    const { history, stateIO, snapshots } = this.parts;
    const save = history.get(saveId);
    const from = this.projectedSeq(save);
    if (from === null) return 0;
    const kept = this.behind.get(saveId);
    this.behind.delete(saveId);
    const events =
      kept !== undefined && kept.from === from && kept.to === save.head
        ? kept.events
        : history.read(save, from + 1, save.head);
    this.fold(save, from, save.head, events);
    this.clearProjected ??= this.parts.db.prepare(CLEAR_PROJECTED);
    this.clearProjected.run(saveId);
    const n = this.parts.snapshotEvery;
    if (n > 0 && Math.floor(save.head / n) > Math.floor(from / n)) {
      snapshots.write(saveId, save.campaignId, save.head, stateIO.read(saveId), null);
    }
    return events.length;
  }

  /** The last seq the save's read models hold, or null when they hold its whole log. */
  projectedSeq(save: SaveInfo): number | null {
    this.projected ??= this.parts.db.prepare("SELECT projected_seq FROM saves WHERE save_id = ?");
    const v = this.projected.pluck().get(save.saveId) as number | null | undefined;
    return v === null || v === undefined || v >= save.head ? null : v;
  }

  private write(
    saveId: string,
    expectedSeq: number,
    batch: ReturnType<typeof decodeBatch>,
    project: boolean,
    /** Each event's payload as JSON, when the caller has it (else it is made here). */
    batchPayloads?: ReadonlyArray<string>,
  ): AppendResult {
    const { db, history, stateIO, snapshots, setHead } = this.parts;
    return withDigest(
      db,
      (): AppendResult => {
        const save = history.get(saveId);
        if (save.head !== expectedSeq) {
          throw new StaleSeq({ saveId, expectedSeq, headSeq: save.head });
        }
        let [decoded, payloads] = [batch, batchPayloads];
        const sealed = this.sealCheckpoint(save, decoded, payloads);
        // Folding after log-only appends (or hashing): the read models first catch up.
        if ((project || sealed !== null) && this.projectedSeq(save) !== null) this.catchUp(saveId);
        if (sealed !== null) [decoded, payloads] = sealed(readDigestNow(db, saveId));
        const ancestors = this.ancestorSegments(save);
        const seen = new Set<string>();
        // The batch's events not already in an ancestor's history, nor earlier in it.
        const fresh: Array<number> = [];
        for (let i = 0; i < decoded.length; i++) {
          const id = decoded[i]!.id;
          if (seen.has(id) || (ancestors.length > 0 && history.containsEventId(ancestors, id))) {
            continue;
          }
          seen.add(id);
          fresh.push(i);
        }
        const appended: Array<StoredEvent> = [];
        let seq = save.head;
        for (let at = 0; at < fresh.length; ) {
          const n = Math.min(ROWS_PER_INSERT, fresh.length - at);
          const rows = fresh.slice(at, at + n);
          at += n;
          if (n > 1 && this.insertRows(save, seq, decoded, rows, payloads)) {
            for (const i of rows) appended.push(storedOf(decoded[i]!, ++seq, save));
            continue;
          }
          for (const i of rows) {
            const e = decoded[i]!;
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
              payloads?.[i] ?? JSON.stringify(e.payload),
            );
            if (inserted.changes === 0) continue;
            seq += 1;
            appended.push(storedOf(e, seq, save));
          }
        }
        let snapshot: SnapshotInfo | null = null;
        if (seq !== save.head) {
          if (project) this.fold(save, save.head, seq, appended);
          else {
            this.markBehind ??= db.prepare(MARK_BEHIND);
            this.markBehind.run(save.head, saveId);
            this.keep(saveId, save.head, seq, appended);
          }
          setHead.run(seq, saveId);
          const n = this.parts.snapshotEvery;
          if (project && n > 0 && Math.floor(seq / n) > Math.floor(save.head / n)) {
            snapshot = snapshots.write(saveId, save.campaignId, seq, stateIO.read(saveId), null);
          }
        }
        return { head: seq, appended, skipped: decoded.length - appended.length, snapshot };
      },
      true,
    );
  }

  /**
   * For a batch opening with a Checkpoint to hash (its `throughSeq` the save's head, as a
   * Checkpoint's always is: its own seq minus one), what gives the batch with the hash
   * filled in; null for any other batch. A Checkpoint to hash anywhere else is refused:
   * the read models are hashed only between two appends.
   *
   * @throws InvalidEvent naming that Checkpoint (nothing written)
   */
  private sealCheckpoint(
    save: SaveInfo,
    decoded: ReadonlyArray<Event>,
    payloads: ReadonlyArray<string> | undefined,
  ): ((hash: string) => [ReadonlyArray<Event>, ReadonlyArray<string> | undefined]) | null {
    for (let i = 0; i < decoded.length; i++) {
      const e = decoded[i]!;
      if (!toHash(e)) continue;
      if (i > 0 || e.payload.throughSeq !== save.head) {
        throw new InvalidEvent({
          saveId: save.saveId,
          index: i,
          eventType: e.type,
          detail: `its stateHash is empty, which the store fills in only for a Checkpoint that opens its batch with throughSeq ${save.head} (the head); it has throughSeq ${e.payload.throughSeq}`,
        });
      }
    }
    if (!opensWithCheckpointToHash(decoded)) return null;
    return (hash) => {
      const first = decoded[0] as EventOf<"Checkpoint">;
      const sealed = makeEvent("Checkpoint", {
        id: first.id,
        t: first.t,
        payload: { ...first.payload, stateHash: hash },
      });
      const events = [sealed, ...decoded.slice(1)];
      if (payloads === undefined) return [events, undefined];
      return [events, [JSON.stringify(sealed.payload), ...payloads.slice(1)]];
    };
  }

  /**
   * Inserts the log rows of `decoded[rows]` with seqs from `head` + 1 in one statement,
   * and says whether it did. The statement has no conflict clause: a row that would
   * conflict (an id among the save's own events) fails it whole, SQLite takes back its
   * rows, and the caller inserts them one by one as before, skipping what is stored.
   */
  private insertRows(
    save: SaveInfo,
    head: number,
    decoded: ReadonlyArray<Event>,
    rows: ReadonlyArray<number>,
    payloads: ReadonlyArray<string> | undefined,
  ): boolean {
    let stmt = this.appendRows.get(rows.length);
    if (stmt === undefined) {
      const values = Array.from(
        { length: rows.length },
        () => "(@save, ?, @camp, ?, ?, ?, ?, ?, ?)",
      );
      stmt = this.parts.db.prepare(
        `INSERT INTO events ${EVENT_COLUMNS} VALUES ${values.join(", ")}`,
      );
      this.appendRows.set(rows.length, stmt);
    }
    const args: Array<unknown> = [{ save: save.saveId, camp: save.campaignId }];
    let seq = head;
    for (const i of rows) {
      const e = decoded[i]!;
      const payload = payloads?.[i] ?? JSON.stringify(e.payload);
      args.push(++seq, e.id, e.t, dayOfMinutes(e.t), e.type, e.version, payload);
    }
    try {
      stmt.run(...args);
      return true;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (
        typeof code === "string" &&
        code.startsWith("SQLITE_CONSTRAINT") &&
        this.parts.db.inTransaction
      ) {
        return false;
      }
      throw e;
    }
  }

  /** Keeps a log-only append's events for the catch-up (see `behind`). */
  private keep(
    saveId: string,
    head: number,
    seq: number,
    appended: ReadonlyArray<StoredEvent>,
  ): void {
    const kept = this.behind.get(saveId);
    if (kept !== undefined && kept.to === head) {
      for (const e of appended) kept.events.push(e);
      kept.to = seq;
    } else this.behind.set(saveId, { from: head, to: seq, events: [...appended] });
  }

  /**
   * Folds the save's events `after`+1..`toSeq` (`events`, in seq order) into the read
   * models: event by event through the projector, or, when they hold at least
   * `sqlFoldFrom` events of SqlFold.ts's types (all at their current version), those with
   * one statement per table. Both give the same rows and digest.
   */
  private fold(
    save: SaveInfo,
    after: number,
    toSeq: number,
    events: ReadonlyArray<StoredEvent>,
  ): void {
    const { projector } = this.parts;
    // SqlFold.ts takes events at their type's current version only. Decoding upcasts
    // every event to it, so that holds; were it not to, the batch is folded event by
    // event instead.
    let foldable = 0;
    let current = true;
    for (const e of events) {
      if (!sqlFolded.has(e.type)) continue;
      foldable += 1;
      if (e.version !== currentVersions.get(e.type)) current = false;
    }
    const bySql = current && foldable >= this.parts.sqlFoldFrom;
    try {
      for (const e of events) {
        if (!bySql || !sqlFolded.has(e.type))
          projector.apply(e, save.saveId, save.campaignId, "live");
      }
      if (bySql && toSeq > after) this.foldBySql(save, after + 1, toSeq);
      else projector.flushFts();
    } finally {
      // FTS writes the fold held back go in with their batch, or not at all.
      projector.dropFts();
    }
  }

  /** The history segments that are not the save's own events. */
  private ancestorSegments(save: SaveInfo): ReadonlyArray<Segment> {
    return this.parts.history.segments(save.saveId).filter((s) => s.saveId !== save.saveId);
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
    const { db, projector } = this.parts;
    this.appendFold ??= SqlFold.open(db, "main", "hearsay_append");
    this.appendFold.ensureScratch();
    const marks = projector.sqlFoldMarks(save.saveId);
    this.appendFold.fold(save.saveId, save.campaignId, [{ saveId: save.saveId, fromSeq, toSeq }]);
    projector.flushFts();
    projector.indexSqlFolded(save.saveId, marks);
  }
}

/**
 * The stored form of a decoded event, built field by field: V8 clones a spread of a
 * decoded event on its slow path, many times over the cost and the size of this literal,
 * and an append makes one per event (a large world's tick, thousands). The literal's type
 * names every key of `StoredEvent`, so a field events gain cannot be left out.
 */
export const storedOf = (e: Event, seq: number, save: SaveInfo): StoredEvent => {
  if (e instanceof VouchedEvent) return e.stored(seq, save.saveId, save.campaignId);
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
