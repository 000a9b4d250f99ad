/**
 * Prepared statements on the store's connection, typed for positional parameters.
 * Retrieval only ever reads projection tables; the one table it writes is the
 * `embeddings` cache (not a projection).
 */
import type { SqliteDatabase, SqliteStatement } from "@hearsay/store";

/** A statement from {@link prepare}. */
export type Statement = SqliteStatement;

/** Prepares `sql` on `db` for positional parameters. */
export const prepare = (db: SqliteDatabase, sql: string): Statement =>
  db.prepare<Array<unknown>>(sql);
