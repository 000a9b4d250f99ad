/**
 * Prepared statements on the store's connection, typed for positional parameters.
 * Retrieval only ever reads projection tables; the one table it writes is the
 * `embeddings` cache (not a projection).
 */
import type { SqliteDatabase } from "@hearsay/store";

/** Prepares `sql` on `db` for positional parameters. */
export const prepare = (db: SqliteDatabase, sql: string) => db.prepare<Array<unknown>>(sql);

/** A statement from {@link prepare}. */
export type Statement = ReturnType<typeof prepare>;
