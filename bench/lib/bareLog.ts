/**
 * The bare-log baseline: a run's events appended as one JSON row each into a fresh
 * SQLite table with nothing but a primary key, one transaction per tick — what merely
 * logging the run costs, with no read model, index or decoding. The engine bench sets a
 * whole run's wall time against it (the target: a run within ~3× of its bare log).
 */
import type { StoredEvent } from "@hearsay/core";
import Database from "better-sqlite3";
import { cpuNow } from "./cpuParts.ts";

/** Wall and CPU seconds the bare appends took, and the rows written. */
export interface BareLog {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly rows: number;
}

/**
 * Appends `batches` (a run's ticks, in order) to a fresh table in `path` (default: a
 * database in memory, as the bench's run uses), one transaction per batch.
 */
export const bareLog = (
  batches: ReadonlyArray<ReadonlyArray<StoredEvent>>,
  path = ":memory:",
): BareLog => {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("CREATE TABLE bare_log (seq INTEGER PRIMARY KEY, event TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO bare_log (seq, event) VALUES (?, ?)");
    const tick = db.transaction((events: ReadonlyArray<StoredEvent>) => {
      for (const e of events) insert.run(e.seq, JSON.stringify(e));
    });
    const c0 = cpuNow();
    const t0 = performance.now();
    for (const b of batches) tick(b);
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = (cpuNow() - c0) / 1e6;
    const rows = Number(db.prepare("SELECT count(*) FROM bare_log").pluck().get());
    return { seconds, cpuSeconds, rows };
  } finally {
    db.close();
  }
};
