/**
 * Reading a save's history for replay, export and inspection: in pages (memory stays
 * bounded however long the log), every event brought up to its current schema version
 * on the way out (core's `upcastEvent`, or a test's own chain), and single events by seq
 * for the binary searches that turn a game day into a seq.
 */
import { type StoredEvent, type Upcast, upcastEvent } from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";

/** Events per page. */
export const PAGE_SIZE = 4096;

/** Where to read: a save, an inclusive seq range (default: all), and the upcaster. */
export interface HistoryRange {
  readonly log: SqliteEventLog;
  readonly saveId: string;
  readonly fromSeq?: number;
  readonly toSeq?: number;
  /** Upgrades old event versions (default: core's `upcastEvent`). */
  readonly upcast?: Upcast;
  /** Events per page (default {@link PAGE_SIZE}). */
  readonly pageSize?: number;
}

/** The range's events, page by page, in seq order, upcast. */
export function* historyPages(range: HistoryRange): Generator<ReadonlyArray<StoredEvent>> {
  const { log, saveId } = range;
  const upcast = range.upcast ?? upcastEvent;
  const last = Math.min(range.toSeq ?? Number.POSITIVE_INFINITY, log.head(saveId));
  const size = Math.max(1, Math.trunc(range.pageSize ?? PAGE_SIZE));
  for (let from = Math.max(1, range.fromSeq ?? 1); from <= last; from += size) {
    const page = log.read(saveId, { fromSeq: from, toSeq: Math.min(last, from + size - 1) });
    yield page.map((e) => upcast(e) as StoredEvent);
  }
}

/** The range's events one by one (paged underneath). */
export function* historyEvents(range: HistoryRange): Generator<StoredEvent> {
  for (const page of historyPages(range)) yield* page;
}

/** One event by seq (upcast), or undefined outside [1, head]. */
export const eventAt = (
  log: SqliteEventLog,
  saveId: string,
  seq: number,
  upcast: Upcast = upcastEvent,
): StoredEvent | undefined => {
  const [e] = log.read(saveId, { fromSeq: seq, toSeq: seq });
  return e === undefined ? undefined : (upcast(e) as StoredEvent);
};

/**
 * Reads expected events in seq order, a page at a time, as replay verification asks
 * for them: `at(seq)` must be called with non-decreasing seqs.
 */
export class HistoryCursor {
  private page: ReadonlyArray<StoredEvent> = [];
  private first = 1;

  constructor(
    private readonly log: SqliteEventLog,
    private readonly saveId: string,
    private readonly last: number,
    private readonly upcast: Upcast = upcastEvent,
  ) {}

  /** The event at `seq`, or undefined past the last seq. */
  at(seq: number): StoredEvent | undefined {
    if (seq > this.last || seq < 1) return undefined;
    if (seq < this.first || seq >= this.first + this.page.length) {
      this.first = seq;
      this.page = this.log
        .read(this.saveId, { fromSeq: seq, toSeq: Math.min(this.last, seq + PAGE_SIZE - 1) })
        .map((e) => this.upcast(e) as StoredEvent);
    }
    return this.page[seq - this.first];
  }
}
