/**
 * The log's game days: each day's first and last seq and its events counted by type —
 * the timeline's bars and the day scrubber's stops.
 */
import type { SqliteDatabase } from "@hearsay/store";

export interface Day {
  readonly day: number;
  firstSeq: number;
  lastSeq: number;
  readonly counts: Record<string, number>;
}

export class DayIndex {
  private readonly byDay = new Map<number, Day>();
  readonly types = new Set<string>();

  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    const rows = db
      .prepare(
        `SELECT day, type, count(*), min(seq), max(seq) FROM events
         WHERE save_id = ? AND seq >= ? AND seq <= ? GROUP BY day, type`,
      )
      .raw(true)
      .all(saveId, fromSeq, toSeq) as Array<[number, string, number, number, number]>;
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
