/**
 * A save's event log as comparable data: every event without its save-specific envelope
 * (save and campaign ids), in seq order, and its canonical hash. Two runs wrote the same
 * log exactly when these are equal.
 */
import { type SaveId, type StoredEvent, stateHash } from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";

/** One event as the digest compares it. */
export interface LogEntry {
  readonly seq: number;
  readonly type: string;
  readonly version: number;
  readonly id: string;
  readonly t: number;
  readonly payload: unknown;
}

/** The save's events without their envelope, in seq order. */
export const logEntries = (log: SqliteEventLog, saveId: SaveId): ReadonlyArray<LogEntry> =>
  log.read(saveId).map((e: StoredEvent) => ({
    seq: e.seq,
    type: e.type,
    version: e.version,
    id: e.id,
    t: e.t,
    payload: e.payload,
  }));

/** The canonical hash of a list of entries. */
export const entriesHash = (entries: ReadonlyArray<LogEntry>): string => stateHash(entries);
