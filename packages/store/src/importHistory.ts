/**
 * Importing a save's history from another store as a bulk fold: the replay's fast path.
 * The event rows are copied into the target's log (by SQLite itself when the source is
 * a file, attached; payload text kept as is unless an upcaster rewrote the event), the
 * append-only read models are folded from that copy by SQLite (SqlFold.ts), and only the
 * other events are read into JS and folded by the projector; at each
 * Checkpoint the caller is handed the folded state's digest (kept up by a
 * `DigestTracker`, not by the per-row triggers) to compare before the Checkpoint itself
 * is imported, and may stop there.
 *
 * Events are not decoded through the Schema again: the source's append decoded each one.
 * What is checked is what can have changed since: after upcasting, an event must be at
 * its type's current version (an older one without an upcaster is refused, with the
 * decoder's own words), and an event the projector cannot fold is decoded to say why.
 */
import {
  currentVersions,
  type Event,
  type EventType,
  type SaveId,
  type StoredEvent,
  type Upcast,
} from "@hearsay/core";
import type { BulkFold } from "./BulkFold.ts";
import { decodeBatch } from "./decodeBatch.ts";
import { type EventHistory, type EventRow, type SaveInfo, toStored } from "./EventHistory.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import type { ProjectionState, ProjectionStateIO } from "./ProjectionState.ts";
import { atCurrentVersion, inertTypes, sqlFoldedTypes, typeIn } from "./SqlFold.ts";
import { InvalidEvent } from "./StoreError.ts";

/** A Checkpoint event of the imported history. */
export type CheckpointEvent = Extract<StoredEvent, { readonly type: "Checkpoint" }>;

/** What the import shows the caller at a Checkpoint: the state folded just before it. */
export interface CheckpointProbe {
  /** The last seq folded (the Checkpoint's seq − 1). */
  readonly throughSeq: number;
  /** The projection digest of the folded state (what `projectionHash` will say). */
  readonly digest: () => string;
  /** The folded state itself (costly: for checkpoints written with a full-state hash). */
  readonly state: () => ProjectionState;
}

/** Options of `SqliteEventLog.importHistory`. */
export interface ImportOptions {
  /** The save to import, with its whole history (its parents' shared events included). */
  readonly saveId: SaveId;
  /** Import through this seq (default: the head). */
  readonly untilSeq?: number;
  /**
   * Applied after core's `upcastEvent` to every event read into JS (a test's own upgrade
   * steps). Like every `Upcast`, it must return an event at its current version as it
   * is: SQLite's share of the fold is not read into JS unless it holds older ones.
   */
  readonly upcast?: Upcast;
  /**
   * Sees every event, in seq order, before it is folded (and before a Checkpoint check):
   * every one is then read into JS and folded there. With `onEventTypes`, only events of
   * those types, still in seq order, and the rest is folded as without `onEvent`.
   */
  readonly onEvent?: (e: StoredEvent) => void;
  /** The event types `onEvent` sees (default: every type). */
  readonly onEventTypes?: ReadonlyArray<EventType>;
  /**
   * Called at each Checkpoint before it is imported; returning false stops the import
   * there (the Checkpoint and everything after it are left out).
   */
  readonly onCheckpoint?: (e: CheckpointEvent, probe: CheckpointProbe) => boolean;
  /** Called after each page with the last seq imported and the last seq to import. */
  readonly onProgress?: (seq: number, last: number) => void;
  /**
   * The target is thrown away after the import, which is only for its state hashes (a
   * replay's checks): when the source is a file, no event row is copied (SQLite folds
   * its share straight from the attached source), and no index or FTS is rebuilt at the
   * end. The target's projection rows, digest and head are right; it holds no events.
   */
  readonly discard?: boolean;
  /**
   * The target keeps no event rows, only what they fold into: when the source is a file,
   * none is copied (SQLite folds its share straight from the attached source), and the
   * read models, their indexes and FTS are whole at the end, with the save's head. For a
   * store that is queried and thrown away (a dossier at a point in the past), not read
   * back or appended to.
   */
  readonly withoutEvents?: boolean;
}

/** What an import did. */
export interface ImportResult {
  /** The imported save's head: the last seq folded. */
  readonly head: number;
  /** True when `onCheckpoint` stopped it before `untilSeq`. */
  readonly stopped: boolean;
}

/** The pieces of the two stores an import works with. */
export interface ImportContext {
  readonly source: EventHistory;
  readonly sourceSave: SaveInfo;
  readonly bulk: BulkFold;
  /** The target's connection. */
  readonly db: SqliteDatabase;
  /** Inserts one event row into the target (when the source is not attached). */
  readonly insertEvent: SqliteStatement;
  /**
   * The schema name the source database is attached under on the target's connection,
   * or null: attached, event rows are copied in one `INSERT … SELECT` per segment
   * (none at all for an import to discard, whose SQL fold reads the source's).
   */
  readonly attached: string | null;
  readonly stateIO: ProjectionStateIO;
  readonly last: number;
}

/** Whether an import copies no event row: its target keeps none, and its source is attached. */
export const copiesNone = (attached: string | null, opts: ImportOptions): boolean =>
  attached !== null && (opts.discard === true || opts.withoutEvents === true);

/** Each type's current version, by type name (as a stored row names it). */
const versionsOf = (types: ReadonlyArray<EventType>): ReadonlyMap<string, number | undefined> =>
  new Map(types.map((t) => [t as string, currentVersions.get(t)]));

const strip = (e: StoredEvent): Event =>
  ({ type: e.type, version: e.version, id: e.id, t: e.t, payload: e.payload }) as Event;

/** The decoder's account of why `e` (the history's event at `e.seq`) cannot be folded. */
const refusal = (saveId: string, e: StoredEvent, cause: unknown): unknown => {
  try {
    decodeBatch(saveId, [strip(e)]);
  } catch (bad) {
    if (bad instanceof InvalidEvent) {
      return new InvalidEvent({
        saveId,
        index: e.seq - 1,
        eventType: bad.eventType,
        detail: bad.detail,
      });
    }
  }
  return cause;
};

/**
 * Copies and folds the source save's history through `ctx.last` into the target save
 * (same id and campaign, begun on `ctx.bulk` by the caller). Call inside the target's
 * write transaction. A refused event throws `InvalidEvent` whose `index` is its seq − 1.
 */
export const importEvents = (ctx: ImportContext, opts: ImportOptions): ImportResult => {
  const { sourceSave: save, bulk, insertEvent, last } = ctx;
  const { saveId, campaignId } = save;
  const upcast = opts.upcast;
  const probeAt = (throughSeq: number): CheckpointProbe => ({
    throughSeq,
    digest: () => bulk.digest(throughSeq),
    state: () => {
      bulk.settle(throughSeq);
      return ctx.stateIO.read(saveId);
    },
  });
  // Attached, the rows are copied natively first, so SQLite can fold its share of them
  // from the target's own log (SqlFold.ts), or not at all when the target is discarded
  // (SQLite folds from the source's log); otherwise each is copied as it is read.
  const copyNone = copiesNone(ctx.attached, opts);
  if (ctx.attached !== null && !copyNone) copyAttached(ctx, last);
  // SQLite's share is left to it, and inert events to nobody, unless a caller sees every
  // event. Its share is handed over before anyone knows it is all at the current version:
  // the page scan below passes every event at an older version to JS, and the first of
  // SQLite's types met there takes the share back from that range on (`takeBack`), so
  // the log is not read once more up front to look for them. An upcaster only rewrites
  // events at older versions (core's `Upcast`), so it leaves SQLite's share as it is.
  const sourceSegments = ctx.source.segments(saveId, last);
  /** The types the caller sees (null: none; every type when it sees them all). */
  const seen: ReadonlySet<string> | null =
    opts.onEvent === undefined
      ? null
      : new Set<string>(opts.onEventTypes ?? currentVersions.keys());
  /** Whether the caller sees every event: each is then read into JS and folded there. */
  const seesAll = opts.onEvent !== undefined && opts.onEventTypes === undefined;
  let bySql =
    !seesAll &&
    bulk.foldBySql(copyNone ? sourceSegments : [{ saveId, fromSeq: 1, toSeq: last }], true);
  /**
   * The event types not folded in JS when at their current version; of them, the ones
   * the caller sees are read all the same, shown to it and passed over.
   */
  let leftOut: ReadonlyArray<EventType> = seesAll
    ? []
    : bySql
      ? [...sqlFoldedTypes, ...inertTypes]
      : inertTypes;
  let leftOutVersion = versionsOf(leftOut);
  const unread = (): ReadonlyArray<EventType> =>
    seen === null ? leftOut : leftOut.filter((type) => !seen.has(type));
  const sqlTypes = new Set<string>(sqlFoldedTypes);
  let head = 0;
  let stopped = false;
  /** Events whose stored form an upcaster changed (copied natively as they were). */
  const rewritten: Array<StoredEvent> = [];
  /** Folds one event read from the source; false: the caller's Checkpoint check stops here. */
  const fold = (r: EventRow, shown = false): boolean => {
    const read = toStored(r, save);
    const e = (upcast ? upcast(read) : read) as StoredEvent;
    if (currentVersions.get(e.type) !== e.version) {
      throw refusal(saveId, e, new Error(`${e.type} at version ${e.version}`));
    }
    if (!shown && seen?.has(e.type) === true) opts.onEvent?.(e);
    if (e.type === "Checkpoint" && opts.onCheckpoint && !opts.onCheckpoint(e, probeAt(e.seq - 1))) {
      head = e.seq - 1;
      stopped = true;
      return false;
    }
    if (e !== read || e.version !== r[4]) rewritten.push(e);
    try {
      bulk.apply(e);
    } catch (cause) {
      throw refusal(saveId, e, cause);
    }
    head = e.seq;
    return true;
  };
  /**
   * Takes SQLite's share back at `seq`: its events SQLite has not folded before `seq` are
   * applied here, in order (they write only its tables, so their order among the others
   * does not matter), and from `seq` on every event is read. The caller saw those of its
   * types already, when the scan passed them.
   */
  const takeBack = (seq: number): void => {
    bySql = false;
    leftOut = inertTypes;
    leftOutVersion = versionsOf(leftOut);
    const from = bulk.takeBackSql();
    if (from >= seq) return;
    ctx.source.forEachRawPage(
      save,
      from,
      seq - 1,
      (rows) => {
        for (const r of rows) fold(r, true);
        return true;
      },
      `NOT ${typeIn(sqlFoldedTypes)}`,
    );
  };
  // Attached, the rows left out are not even read (the scan starts again, reading more,
  // if SQLite's share is taken back); otherwise each is copied as it is read.
  let from = 1;
  while (from <= last && !stopped) {
    let restartAt = 0;
    ctx.source.forEachRawPage(
      save,
      from,
      last,
      (rows: ReadonlyArray<EventRow>) => {
        for (const r of rows) {
          if (r[0] > last) break;
          if (ctx.attached === null) {
            insertEvent.run(
              saveId,
              r[0],
              campaignId,
              r[1],
              r[2],
              Math.floor(r[2] / 1440),
              r[3],
              r[4],
              r[5],
            );
          }
          if (leftOutVersion.get(r[3]) === r[4]) {
            if (seen?.has(r[3]) === true) opts.onEvent?.(toStored(r, save));
            head = r[0];
            continue;
          }
          if (bySql && sqlTypes.has(r[3])) {
            takeBack(r[0]);
            if (ctx.attached !== null) {
              restartAt = r[0];
              return false;
            }
          }
          if (!fold(r)) return false;
        }
        opts.onProgress?.(head, last);
        return true;
      },
      ctx.attached !== null && unread().length > 0 ? atCurrentVersion(unread()) : undefined,
    );
    from = restartAt > 0 ? restartAt : last + 1;
  }
  if (!stopped) head = last;
  bulk.endsAt(head);
  if (copyNone) return { head, stopped };
  if (head < last) {
    ctx.db.prepare("DELETE FROM main.events WHERE save_id = ? AND seq > ?").run(saveId, head);
  }
  rewrite(ctx, rewritten);
  return { head, stopped };
};

/** Copies the source's rows through `last` natively (the upcast ones are rewritten after). */
const copyAttached = (ctx: ImportContext, last: number): void => {
  const { db, sourceSave: save } = ctx;
  const copy = db.prepare(
    `INSERT INTO main.events (save_id, seq, campaign_id, event_id, t, day, type, version, payload)
     SELECT @save, seq, @campaign, event_id, t, day, type, version, payload
     FROM ${ctx.attached}.events WHERE save_id = @from AND seq >= @lo AND seq <= @hi ORDER BY seq`,
  );
  for (const seg of ctx.source.segments(save.saveId, last)) {
    copy.run({
      save: save.saveId,
      campaign: save.campaignId,
      from: seg.saveId,
      lo: seg.fromSeq,
      hi: seg.toSeq,
    });
  }
};

/** Writes the events an upcaster changed over their copied rows. */
const rewrite = (ctx: ImportContext, rewritten: ReadonlyArray<StoredEvent>): void => {
  if (rewritten.length === 0) return;
  const stmt = ctx.db.prepare(
    "UPDATE main.events SET version = ?, payload = ? WHERE save_id = ? AND seq = ?",
  );
  for (const e of rewritten) {
    stmt.run(e.version, JSON.stringify(e.payload), ctx.sourceSave.saveId, e.seq);
  }
};
