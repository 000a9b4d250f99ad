/**
 * The inspector opens its database the one way every read command does: the store's
 * `openForReading` (read-only, never migrated, works on read-only media, refuses a file
 * that is not a hearsay database with one line naming it).
 */
import { openForReading, type SqliteDatabase } from "@hearsay/store";

/** Opens `path` read-only. @throws the store's typed open errors */
export const openReadOnly = (path: string): SqliteDatabase => openForReading(path);
