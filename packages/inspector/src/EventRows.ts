/**
 * Reads one event type's rows of a segment straight from the `events` table, pulling
 * payload fields out with SQLite's `json_extract` so millions of payloads are never
 * parsed in JavaScript. Uses the log's (save, type, seq) index.
 */
import type { SqliteDatabase } from "@hearsay/store";
import type Database from "better-sqlite3";

type SqliteStatement = Database.Statement<Array<unknown>>;

const cache = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();

/**
 * Rows of `type` in `saveId`'s own rows with seq in [fromSeq, toSeq], in seq order, each
 * `[seq, t, ...fields]` where `fields` are payload paths (`npcId`, `about.kind`, …).
 */
export const eventRows = (
  db: SqliteDatabase,
  saveId: string,
  type: string,
  fromSeq: number,
  toSeq: number,
  fields: ReadonlyArray<string>,
): IterableIterator<Array<unknown>> => {
  const key = `${type}|${fields.join(",")}`;
  let byKey = cache.get(db);
  if (!byKey) {
    byKey = new Map();
    cache.set(db, byKey);
  }
  let stmt = byKey.get(key);
  if (!stmt) {
    const cols = fields.map((f) => `json_extract(payload, '$.${f}')`).join(", ");
    stmt = db
      .prepare(
        `SELECT seq, t${cols ? `, ${cols}` : ""} FROM events
         WHERE save_id = ? AND type = ? AND seq >= ? AND seq <= ? ORDER BY seq`,
      )
      .raw(true);
    byKey.set(key, stmt);
  }
  return stmt.iterate(saveId, type, fromSeq, toSeq) as IterableIterator<Array<unknown>>;
};
