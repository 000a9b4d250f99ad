/**
 * Engine snapshots: the engine's own state at a seq of a save, as the engine encoded it
 * (text, stored deflated), with the format it was written in. A cache — the log stays
 * the truth — so the engine ignores a snapshot of another format, and a save keeps only
 * its newest few. Separate from the read-model snapshots (SnapshotStore.ts), which hold
 * the whole projection state and stay off unless asked for.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** A stored engine snapshot's header. */
export interface EngineSnapshotInfo {
  readonly saveId: string;
  readonly seq: number;
  readonly format: string;
  /** Bytes stored (deflated). */
  readonly bytes: number;
}

/** How many engine snapshots a database holds and their size, per save. */
export interface EngineSnapshotFigures {
  readonly saveId: string;
  readonly count: number;
  readonly bytes: number;
  readonly newestSeq: number | null;
}

export class EngineSnapshotStore {
  private readonly put: SqliteStatement;
  private readonly newest: SqliteStatement;
  private readonly list: SqliteStatement;
  private readonly drop: SqliteStatement;

  constructor(private readonly db: SqliteDatabase) {
    this.put = db.prepare(
      `INSERT INTO engine_snapshots (save_id, seq, format, state) VALUES (?, ?, ?, ?)
       ON CONFLICT (save_id, seq) DO UPDATE SET format = excluded.format, state = excluded.state`,
    );
    this.newest = db.prepare(
      "SELECT seq, state FROM engine_snapshots WHERE save_id = ? AND format = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
    );
    this.list = db.prepare(
      "SELECT save_id, seq, format, length(state) AS bytes FROM engine_snapshots WHERE save_id = ? ORDER BY seq",
    );
    this.drop = db.prepare("DELETE FROM engine_snapshots WHERE save_id = ? AND seq = ?");
  }

  /** Stores the state text at `seq`, keeping only the save's newest `keep` snapshots. */
  write(
    saveId: string,
    seq: number,
    format: string,
    text: string,
    keep: number,
  ): EngineSnapshotInfo {
    const blob = deflateRawSync(Buffer.from(text, "utf8"), { level: 1 });
    this.db.transaction(() => {
      this.put.run(saveId, seq, format, blob);
      const all = this.of(saveId);
      for (const old of all.slice(0, Math.max(0, all.length - Math.max(1, keep))))
        this.drop.run(saveId, old.seq);
    })();
    return { saveId, seq, format, bytes: blob.length };
  }

  /** The newest snapshot of `format` at or before `atOrBefore`, as its text. */
  latest(
    saveId: string,
    format: string,
    atOrBefore: number,
  ): { readonly seq: number; readonly text: string } | undefined {
    const row = this.newest.get(saveId, format, atOrBefore) as
      | { seq: number; state: Buffer }
      | undefined;
    if (row === undefined) return undefined;
    return { seq: row.seq, text: inflateRawSync(row.state).toString("utf8") };
  }

  /** The save's engine snapshots, oldest first. */
  of(saveId: string): ReadonlyArray<EngineSnapshotInfo> {
    return (
      this.list.all(saveId) as Array<{
        save_id: string;
        seq: number;
        format: string;
        bytes: number;
      }>
    ).map((r) => ({ saveId: r.save_id, seq: r.seq, format: r.format, bytes: r.bytes }));
  }
}

/**
 * Count and size of the engine snapshots of a save, read-only; none when the database
 * predates them (its schema has no such table).
 */
export const engineSnapshotFigures = (
  db: SqliteDatabase,
  saveId: string,
): EngineSnapshotFigures => {
  const table = db
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'engine_snapshots'")
    .get();
  if (table === undefined) return { saveId, count: 0, bytes: 0, newestSeq: null };
  const row = db
    .prepare(
      "SELECT count(*) AS count, coalesce(sum(length(state)), 0) AS bytes, max(seq) AS newestSeq FROM engine_snapshots WHERE save_id = ?",
    )
    .get(saveId) as { count: number; bytes: number; newestSeq: number | null };
  return { saveId, ...row };
};
