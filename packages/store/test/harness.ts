/**
 * Shared set-up for the store's tests: a fresh in-memory store, saves, batched appends,
 * run counts (deeper under HEARSAY_DEEP) and an FTS consistency check.
 */
import type { Event } from "@hearsay/core";
import { ids } from "@hearsay/core";
import { ftsTables, openDatabase, type SqliteDatabase, SqliteEventLog } from "@hearsay/store";

/** fast-check run counts: quick by default, thorough with HEARSAY_DEEP=1. */
export const runs = (quick: number, deep = quick * 20): number =>
  process.env.HEARSAY_DEEP ? deep : quick;

/**
 * A store over a fresh in-memory database. Every batch's SqlFold.ts share is folded in
 * SQL (`sqlFoldFrom` 1) unless `sqlFoldFrom` says otherwise, so the tests' small batches
 * take the path a large world's ticks take.
 */
export const freshStore = (
  snapshotEvery = 0,
  sqlFoldFrom = 1,
): { db: SqliteDatabase; log: SqliteEventLog } => {
  const db = openDatabase(":memory:");
  return { db, log: new SqliteEventLog(db, { snapshotEvery, sqlFoldFrom }) };
};

/** Creates a root save. */
export const newSave = (log: SqliteEventLog, saveId: string, campaign = "campaign-1"): void => {
  log.createSave({ saveId: ids.save(saveId), campaignId: ids.campaign(campaign), name: saveId });
};

/** Appends batches in order, each at the current head. */
export const appendBatches = (
  log: SqliteEventLog,
  saveId: string,
  batches: ReadonlyArray<ReadonlyArray<Event>>,
): void => {
  for (const batch of batches) log.append(saveId, log.head(saveId), batch);
};

/** Throws if any FTS index disagrees with its content table. */
export const checkFts = (db: SqliteDatabase): void => {
  for (const fts of Object.keys(ftsTables)) {
    db.exec(`INSERT INTO ${fts}(${fts}, rank) VALUES ('integrity-check', 1)`);
  }
};

/** Counts the rows of every table (events included), to prove nothing was written. */
export const rowCounts = (db: SqliteDatabase): Record<string, number> => {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' ORDER BY name",
    )
    .pluck()
    .all() as Array<string>;
  return Object.fromEntries(
    tables.map((t) => [t, db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
  );
};

/** Appends the batches, each cut before every Checkpoint; returns the digest each Checkpoint saw. */
export const appendRecordingCheckpoints = (
  log: SqliteEventLog,
  saveId: string,
  batches: ReadonlyArray<ReadonlyArray<Event>>,
): Map<string, string> => {
  const seen = new Map<string, string>();
  for (const batch of batches) {
    let part: Array<Event> = [];
    const flush = () => {
      if (part.length > 0) log.append(saveId, log.head(saveId), part);
      part = [];
    };
    for (const e of batch) {
      if (e.type === "Checkpoint") {
        flush();
        seen.set(e.id, log.projectionHash(saveId));
      }
      part.push(e);
    }
    flush();
  }
  return seen;
};
