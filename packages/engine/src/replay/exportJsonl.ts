/**
 * The JSONL export: one event per line, in seq order, streamed a page at a time (never
 * the whole log in memory). Each line is a JSON object with the envelope first — `seq`,
 * `saveId`, `campaignId`, `day`, `t`, `type`, `version`, `id` — then `payload`, the
 * event's payload at its current schema version (older stored events are upcast first,
 * so one `version` always means one payload shape). docs/FORMATS.md is the
 * public description of this format.
 */
import { dayOf, type GameTime, type StoredEvent } from "@hearsay/core";
import { type HistoryRange, historyPages } from "./readHistory.ts";

/** One exported line's object. */
export interface ExportedEvent {
  readonly seq: number;
  readonly saveId: string;
  readonly campaignId: string;
  readonly day: number;
  readonly t: number;
  readonly type: string;
  readonly version: number;
  readonly id: string;
  readonly payload: unknown;
}

/** The exported object of one event. */
export const exportedEvent = (e: StoredEvent): ExportedEvent => ({
  seq: e.seq,
  saveId: e.saveId,
  campaignId: e.campaignId,
  day: dayOf(e.t as GameTime),
  t: e.t,
  type: e.type,
  version: e.version,
  id: e.id,
  payload: e.payload,
});

/** The range's JSONL text, one chunk per page (each chunk ends with a newline). */
export function* exportJsonl(range: HistoryRange): Generator<string> {
  for (const page of historyPages(range)) {
    let chunk = "";
    for (const e of page) chunk += `${JSON.stringify(exportedEvent(e))}\n`;
    yield chunk;
  }
}
