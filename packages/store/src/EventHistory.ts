/**
 * Saves and the history of their events. A save's history is its parent's history up to
 * the branch seq (resolved recursively, so branching copies nothing) followed by its own
 * events. History is read as a list of *segments* — (save, seq range) pairs, oldest
 * first — and every event read through a save is reported as that save's event.
 */
import {
  type CampaignId,
  type EventType,
  type SaveId,
  type StoredEvent,
  upcastEvent,
} from "@hearsay/core";
import { KEY_SPACES } from "./ItemKeys.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { UnknownSave } from "./StoreError.ts";

/** A save as the store knows it. */
export interface SaveInfo {
  readonly saveId: SaveId;
  readonly campaignId: CampaignId;
  readonly name: string;
  /** The save it branched from and the last parent seq it shares; null for a root save. */
  readonly parent: { readonly saveId: SaveId; readonly seq: number } | null;
  /** The seq of its last event (0 when empty); gapless from 1. */
  readonly head: number;
}

/** A contiguous run of one save's own events within another save's history. */
export interface Segment {
  readonly saveId: string;
  readonly fromSeq: number;
  readonly toSeq: number;
}

interface SaveRow {
  save_id: string;
  campaign_id: string;
  name: string;
  parent_save_id: string | null;
  parent_seq: number | null;
  head_seq: number;
}

/** An `events` row as the history reads it (raw, payload still JSON text). */
export type EventRow = [
  seq: number,
  id: string,
  t: number,
  type: string,
  version: number,
  payload: string,
];

const toSaveInfo = (r: SaveRow): SaveInfo => ({
  saveId: r.save_id as SaveId,
  campaignId: r.campaign_id as CampaignId,
  name: r.name,
  parent:
    r.parent_save_id === null
      ? null
      : { saveId: r.parent_save_id as SaveId, seq: r.parent_seq ?? 0 },
  head: r.head_seq,
});

/** How many events one read of a segment fetches at a time. */
const PAGE = 4096;

export class EventHistory {
  private readonly getSave: SqliteStatement;
  private readonly allSaves: SqliteStatement;
  private readonly page: SqliteStatement;
  private readonly byDay: SqliteStatement;
  private readonly hasId: SqliteStatement;
  private readonly pagesExcept = new Map<string, SqliteStatement>();
  /** Prepared at the first save made: a file of an older schema is only ever read. */
  private saveStatements:
    | { readonly insert: SqliteStatement; readonly lastKeySpace: SqliteStatement }
    | undefined;

  constructor(private readonly db: SqliteDatabase) {
    this.getSave = db.prepare("SELECT * FROM saves WHERE save_id = ?");
    this.allSaves = db.prepare("SELECT * FROM saves ORDER BY save_id");
    this.page = db
      .prepare(
        "SELECT seq, event_id, t, type, version, payload FROM events WHERE save_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ?",
      )
      .raw(true);
    this.byDay = db
      .prepare(
        "SELECT seq, event_id, t, type, version, payload FROM events WHERE save_id = ? AND day >= ? AND day <= ? AND seq >= ? AND seq <= ? ORDER BY seq",
      )
      .raw(true);
    this.hasId = db.prepare(
      "SELECT seq FROM events WHERE save_id = ? AND event_id = ? AND seq >= ? AND seq <= ?",
    );
  }

  /** Inserts a save's row with the next key space (ItemKeys.ts). */
  add(
    saveId: string,
    campaignId: string,
    name: string,
    parent: { readonly saveId: string; readonly seq: number } | undefined,
  ): void {
    this.saveStatements ??= {
      insert: this.db.prepare(
        `INSERT INTO saves (save_id, campaign_id, name, parent_save_id, parent_seq, head_seq, key_space)
         VALUES (?, ?, ?, ?, ?, ?, (SELECT coalesce(max(key_space), -1) + 1 FROM saves))`,
      ),
      lastKeySpace: this.db.prepare("SELECT max(key_space) FROM saves").pluck(),
    };
    const s = this.saveStatements;
    if (((s.lastKeySpace.get() as number | null) ?? -1) + 1 >= KEY_SPACES) {
      throw new Error(
        `${this.db.name}: holds ${KEY_SPACES} saves, the most one file can key; branch into a new file`,
      );
    }
    const at = parent?.seq ?? null;
    s.insert.run(saveId, campaignId, name, parent?.saveId ?? null, at, at ?? 0);
  }

  /** The save, or undefined. */
  find(saveId: string): SaveInfo | undefined {
    const row = this.getSave.get(saveId) as SaveRow | undefined;
    return row && toSaveInfo(row);
  }

  /** The save, or an `UnknownSave` error. */
  get(saveId: string): SaveInfo {
    const save = this.find(saveId);
    if (!save) throw new UnknownSave({ saveId });
    return save;
  }

  /** Every save, ordered by id. */
  list(): ReadonlyArray<SaveInfo> {
    return (this.allSaves.all() as Array<SaveRow>).map(toSaveInfo);
  }

  /** The segments of a save's history up to `cap` (default: its head), oldest first. */
  segments(saveId: string, cap = Number.POSITIVE_INFINITY): ReadonlyArray<Segment> {
    const save = this.get(saveId);
    const upTo = Math.min(save.head, cap);
    const own = save.parent?.seq ?? 0;
    const inherited = save.parent ? this.segments(save.parent.saveId, Math.min(own, upTo)) : [];
    return upTo > own ? [...inherited, { saveId, fromSeq: own + 1, toSeq: upTo }] : inherited;
  }

  /** True when an event with this id is in any of the segments. */
  containsEventId(segments: ReadonlyArray<Segment>, eventId: string): boolean {
    return segments.some(
      (s) => this.hasId.get(s.saveId, eventId, s.fromSeq, s.toSeq) !== undefined,
    );
  }

  /**
   * Calls `f` with pages of the save's history in seq order, restricted to
   * [fromSeq, toSeq]. Pages keep memory bounded and leave the connection free between
   * pages, so `f` may write.
   */
  forEachPage(
    save: SaveInfo,
    fromSeq: number,
    toSeq: number,
    f: (events: ReadonlyArray<StoredEvent>) => void,
  ): void {
    this.forEachRawPage(save, fromSeq, toSeq, (rows) => {
      f(rows.map((r) => toStored(r, save)));
      return true;
    });
  }

  /**
   * Like `forEachPage`, with the rows as stored (payload unparsed, version as written);
   * `f` returns false to stop. With `except` (an SQL condition over the row), the rows it
   * holds for are left out (the page may then hold fewer rows than the range).
   */
  forEachRawPage(
    save: SaveInfo,
    fromSeq: number,
    toSeq: number,
    f: (rows: ReadonlyArray<EventRow>) => boolean,
    except?: string,
  ): void {
    const page = except === undefined ? this.page : this.pageExcept(except);
    for (const seg of this.segments(save.saveId, toSeq)) {
      let next = Math.max(seg.fromSeq, fromSeq);
      while (next <= seg.toSeq) {
        const rows = page.all(seg.saveId, next, seg.toSeq, PAGE) as Array<EventRow>;
        if (rows.length === 0) break;
        if (f(rows) === false) return;
        next = rows[rows.length - 1]![0] + 1;
      }
    }
  }

  /** The page statement leaving out the rows for which the SQL condition `except` holds. */
  private pageExcept(except: string): SqliteStatement {
    let stmt = this.pagesExcept.get(except);
    if (stmt === undefined) {
      stmt = this.db
        .prepare(
          `SELECT seq, event_id, t, type, version, payload FROM events WHERE save_id = ? AND seq >= ? AND seq <= ? AND NOT ${except} ORDER BY seq LIMIT ?`,
        )
        .raw(true);
      this.pagesExcept.set(except, stmt);
    }
    return stmt;
  }

  /** The save's events with seq in [fromSeq, toSeq], in seq order. */
  read(save: SaveInfo, fromSeq: number, toSeq: number): ReadonlyArray<StoredEvent> {
    const out: Array<StoredEvent> = [];
    this.forEachPage(save, fromSeq, toSeq, (page) => {
      for (const e of page) out.push(e);
    });
    return out;
  }

  /** The save's events on game days [fromDay, toDay] (both included), in seq order. */
  readDays(save: SaveInfo, fromDay: number, toDay: number): ReadonlyArray<StoredEvent> {
    const out: Array<StoredEvent> = [];
    for (const seg of this.segments(save.saveId)) {
      const rows = this.byDay.all(
        seg.saveId,
        fromDay,
        toDay,
        seg.fromSeq,
        seg.toSeq,
      ) as Array<EventRow>;
      for (const r of rows) out.push(toStored(r, save));
    }
    return out;
  }
}

/** A stored row as an event, brought up to its type's current version (see core's upcast). */
export const toStored = (r: EventRow, save: SaveInfo): StoredEvent =>
  upcastEvent({
    type: r[3] as EventType,
    version: r[4],
    id: r[1],
    t: r[2],
    payload: JSON.parse(r[5]),
    seq: r[0],
    saveId: save.saveId,
    campaignId: save.campaignId,
  }) as StoredEvent;
