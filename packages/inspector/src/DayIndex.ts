/**
 * The log's game days: each day's first and last seq and its events counted by type —
 * the timeline's bars and the day scrubber's stops.
 *
 * Read from the log's two small indexes, (save, day, seq) for each day's seqs and (save,
 * type, seq) for the counts within them, so that no event's row — the log's bulk, its
 * payload — is read, nor sorted by day and type. That holds while days follow seqs, as a
 * run writes them; a stretch of log where they do not is grouped from its rows.
 */
import type { SqliteDatabase, SqliteStatement } from "@hearsay/store";

export interface Day {
  readonly day: number;
  firstSeq: number;
  lastSeq: number;
  readonly counts: Record<string, number>;
}

interface Statements {
  readonly dayAt: SqliteStatement;
  readonly spans: SqliteStatement;
  readonly nextType: SqliteStatement;
  readonly count: SqliteStatement;
  readonly grouped: SqliteStatement;
}

const statements = new WeakMap<SqliteDatabase, Statements>();

const prepared = (db: SqliteDatabase): Statements => {
  let s = statements.get(db);
  if (!s) {
    s = {
      dayAt: db.prepare("SELECT day FROM events WHERE save_id = ? AND seq = ?").pluck(),
      spans: db
        .prepare(
          `SELECT day, min(seq), max(seq), count(*) FROM events
           WHERE save_id = ? AND day >= ? AND day <= ? AND seq >= ? AND seq <= ?
           GROUP BY day ORDER BY day`,
        )
        .raw(true),
      nextType: db
        .prepare("SELECT type FROM events WHERE save_id = ? AND type > ? ORDER BY type LIMIT 1")
        .pluck(),
      count: db
        .prepare(
          "SELECT count(*) FROM events WHERE save_id = ? AND type = ? AND seq >= ? AND seq <= ?",
        )
        .pluck(),
      grouped: db
        .prepare(
          `SELECT day, type, count(*), min(seq), max(seq) FROM events
           WHERE save_id = ? AND seq >= ? AND seq <= ? GROUP BY day, type`,
        )
        .raw(true),
    };
    statements.set(db, s);
  }
  return s;
};

/** `[day, type, count, firstSeq, lastSeq]` of the events in a stretch of one save's own rows. */
export type DayTypeRow = readonly [number, string, number, number, number];

/**
 * The stretch's counts through the indexes, or null when its days do not follow its seqs
 * (each day's seqs one run, the runs in day order, together every seq of the stretch).
 * A row's first and last seq are its day's, not its type's within the day.
 */
export const indexedDayCounts = (
  db: SqliteDatabase,
  saveId: string,
  fromSeq: number,
  toSeq: number,
): Array<DayTypeRow> | null => {
  const s = prepared(db);
  const first = s.dayAt.get(saveId, fromSeq) as number | undefined;
  const last = s.dayAt.get(saveId, toSeq) as number | undefined;
  if (first === undefined || last === undefined || last < first) return null;
  const spans = s.spans.all(saveId, first, last, fromSeq, toSeq) as Array<
    [number, number, number, number]
  >;
  let covered = 0;
  let prior = fromSeq - 1;
  for (const [, lo, hi, n] of spans) {
    // A day's seqs must be one run, after the day before's.
    if (lo <= prior || hi - lo + 1 !== n) return null;
    prior = hi;
    covered += n;
  }
  if (covered !== toSeq - fromSeq + 1) return null;
  const types: Array<string> = [];
  for (
    let t = s.nextType.get(saveId, "") as string | undefined;
    t !== undefined;
    t = s.nextType.get(saveId, t) as string | undefined
  )
    types.push(t);
  const rows: Array<DayTypeRow> = [];
  for (const [day, lo, hi] of spans) {
    for (const type of types) {
      const n = s.count.get(saveId, type, lo, hi) as number;
      if (n > 0) rows.push([day, type, n, lo, hi]);
    }
  }
  return rows;
};

/** The stretch's counts grouped from its rows: right however its days and seqs run. */
export const groupedDayCounts = (
  db: SqliteDatabase,
  saveId: string,
  fromSeq: number,
  toSeq: number,
): Array<DayTypeRow> => prepared(db).grouped.all(saveId, fromSeq, toSeq) as Array<DayTypeRow>;

export class DayIndex {
  private readonly byDay = new Map<number, Day>();
  readonly types = new Set<string>();

  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    if (toSeq < fromSeq) return;
    const rows =
      indexedDayCounts(db, saveId, fromSeq, toSeq) ?? groupedDayCounts(db, saveId, fromSeq, toSeq);
    for (const [day, type, n, first, last] of rows) {
      let d = this.byDay.get(day);
      if (!d) {
        d = { day, firstSeq: first, lastSeq: last, counts: {} };
        this.byDay.set(day, d);
      }
      d.firstSeq = Math.min(d.firstSeq, first);
      d.lastSeq = Math.max(d.lastSeq, last);
      d.counts[type] = (d.counts[type] ?? 0) + n;
      this.types.add(type);
    }
  }

  /** Every day with events, in order. */
  all(): ReadonlyArray<Day> {
    return [...this.byDay.values()].sort((a, b) => a.day - b.day);
  }

  get(day: number): Day | undefined {
    return this.byDay.get(day);
  }

  /** The nearest day with events at or before `day` (else the first day). */
  nearest(day: number): Day | undefined {
    const days = this.all();
    let best = days[0];
    for (const d of days) if (d.day <= day) best = d;
    return best;
  }
}
