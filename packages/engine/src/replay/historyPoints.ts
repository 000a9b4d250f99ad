/**
 * Points in a save's history. Game time never goes back along the log, so "the end of
 * day D" is a binary search over seq. A *tick boundary* is a seq where one committed
 * batch ends — the genesis, a tick or skip (each ends with its ClockAdvanced), or a
 * RunResumed — the only places a run can stop and be resumed, so the only places a
 * branch may start.
 */
import { MINUTES_PER_DAY, type StoredEvent, type Upcast, upcastEvent } from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";
import { eventAt, PAGE_SIZE } from "./readHistory.ts";

/** The last seq whose event happened at or before `t` (0 when none did). */
export const lastSeqAtOrBefore = (log: SqliteEventLog, saveId: string, t: number): number => {
  let lo = 0; // invariant: events 1..lo are at or before t
  let hi = log.head(saveId); // invariant: events after hi are after t
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (eventAt(log, saveId, mid)!.t <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
};

/** The last seq on game day `day` or before (the export's `day` ≤ `day`). */
export const lastSeqOfDay = (log: SqliteEventLog, saveId: string, day: number): number =>
  lastSeqAtOrBefore(log, saveId, (day + 1) * MINUTES_PER_DAY - 1);

const endsBatch = (
  e: StoredEvent,
  next: StoredEvent | undefined,
  t0: number,
  head: number,
): boolean =>
  e.seq === head ||
  e.type === "ClockAdvanced" ||
  e.type === "RunResumed" ||
  (e.t === t0 && next !== undefined && (next.t > t0 || next.type === "RunResumed"));

/** A tick boundary near a seq: the nearest at or before it and the nearest after it. */
export interface Boundaries {
  /** The seq itself when it is a boundary. */
  readonly atOrBefore: number;
  /** Null when the seq is the head (nothing after it). */
  readonly after: number | null;
}

/** Whether `seq` ends a committed batch, and the boundaries around it. */
export const tickBoundaries = (
  log: SqliteEventLog,
  saveId: string,
  seq: number,
  upcast: Upcast = upcastEvent,
): Boundaries => {
  const head = log.head(saveId);
  if (head === 0) return { atOrBefore: 0, after: null };
  const t0 = eventAt(log, saveId, 1, upcast)!.t;
  const next = (from: number): number | null => {
    for (let lo = from + 1; lo <= head; lo += PAGE_SIZE) {
      const page = log.read(saveId, { fromSeq: lo, toSeq: Math.min(head, lo + PAGE_SIZE) });
      for (let i = 0; i < page.length; i++) {
        const e = page[i]!;
        if (e.seq >= lo + PAGE_SIZE) break;
        if (endsBatch(upcast(e) as StoredEvent, page[i + 1], t0, head)) return e.seq;
      }
    }
    return null;
  };
  if (seq <= 0) return { atOrBefore: 0, after: next(0) };
  const before = (): number => {
    for (let hi = Math.min(seq, head); hi >= 1; hi -= PAGE_SIZE) {
      const lo = Math.max(1, hi - PAGE_SIZE + 1);
      const page = log.read(saveId, { fromSeq: lo, toSeq: Math.min(head, hi + 1) });
      for (let i = hi - lo; i >= 0; i--) {
        if (endsBatch(upcast(page[i]!) as StoredEvent, page[i + 1], t0, head)) return page[i]!.seq;
      }
    }
    return 0;
  };
  const atOrBefore = before();
  return { atOrBefore, after: seq >= head ? null : next(Math.max(seq, atOrBefore)) };
};
