/**
 * What an uninterrupted run wrote, as the crash suite compares against it: its events
 * (without envelope), where its genesis batch ends, where its Checkpoints sit (the
 * moments worth killing at) and its final log and projection hashes.
 */
import { ids } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { entriesHash, type LogEntry, logEntries } from "../support/logDigest.ts";

/** The save every `hearsay run` in this suite writes. */
export const SAVE = ids.save("main");

export interface CrashReference {
  readonly entries: ReadonlyArray<LogEntry>;
  readonly head: number;
  /** Events in the genesis batch (everything stamped at the start time). */
  readonly genesisLength: number;
  /** Seqs of the reference's Checkpoint events, ascending. */
  readonly checkpointSeqs: ReadonlyArray<number>;
  readonly logHash: string;
  readonly projectionHash: string;
}

/** Reads the reference from a database an uninterrupted run wrote. */
export const readReference = (dbPath: string): CrashReference => {
  const db = openDatabase(dbPath);
  try {
    const log = new SqliteEventLog(db);
    const entries = logEntries(log, SAVE);
    const t0 = entries[0]?.t;
    const firstLater = entries.findIndex((e) => e.t !== t0);
    return {
      entries,
      head: entries.length,
      genesisLength: firstLater === -1 ? entries.length : firstLater,
      checkpointSeqs: entries.filter((e) => e.type === "Checkpoint").map((e) => e.seq),
      logHash: entriesHash(entries),
      projectionHash: log.projectionHash(SAVE),
    };
  } finally {
    db.close();
  }
};
