/**
 * The one way to open a hearsay database for writing: take the file's writer lock (see
 * WriterLock), then check the file and open it with `openDatabase` (which migrates a
 * hearsay database of an older schema and refuses every other kind of file). Closing
 * the connection releases the lock, so a caller cannot forget to.
 *
 * `replace` deletes the database (and its `-wal` and `-shm`) and starts an empty one —
 * only while holding the lock, and only when the file is a hearsay database (or empty):
 * another program's SQLite file, a damaged or newer one is refused and left as it is.
 */
import { rmSync } from "node:fs";
import { checkDatabaseFile, checkHearsaySchema } from "./databaseFile.ts";
import { openDatabase, type SqliteDatabase } from "./openDatabase.ts";
import { openHearsayReadOnly } from "./openForReading.ts";
import { SCHEMA_VERSION } from "./schema.sql.ts";
import { acquireWriterLock, type WriterLock } from "./WriterLock.ts";

/** Options for {@link openForWriting}. */
export interface OpenForWritingOptions {
  /**
   * `"existing"`: the file must already be a hearsay database (resume, chat, serve,
   * branch). `"create"`: a missing (or empty) file becomes a new database; an existing
   * one must be hearsay's. `"replace"`: like create, after deleting an existing hearsay
   * database.
   */
  readonly mode: "existing" | "create" | "replace";
}

/** Checks, without writing, that `path` holds a hearsay database this build can open. */
const requireHearsay = (path: string): void => {
  openHearsayReadOnly(path).close();
};

/**
 * Opens the database at `path` for writing, holding its writer lock until `close()`.
 *
 * @throws DatabaseLocked when another process is writing it
 * @throws DatabaseUnavailable, NotADatabase, NotAHearsayDatabase, DatabaseDamaged,
 *   FutureSchemaVersion, MigrationFailed — see openForReading and openDatabase
 */
export const openForWriting = (path: string, opts: OpenForWritingOptions): SqliteDatabase => {
  // Checked before the lock too, so a foreign file is refused without a lock file
  // appearing beside it.
  // An empty file counts as no database yet (it is what a run killed at its first instant
  // leaves): `create` and `replace` write one there, `existing` refuses it.
  if (checkDatabaseFile(path) === "sqlite" || opts.mode === "existing") requireHearsay(path);
  const lock: WriterLock = acquireWriterLock(path);
  try {
    // Looked at again under the lock: another process may have changed it meanwhile.
    const state = checkDatabaseFile(path);
    if (state === "sqlite" || opts.mode === "existing") requireHearsay(path);
    if (opts.mode === "replace" && state !== "missing") {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
    }
    const db = openDatabase(path);
    if (opts.mode === "existing") checkHearsaySchema(db, path, SCHEMA_VERSION, false);
    const close = db.close.bind(db);
    db.close = () => {
      try {
        return close();
      } finally {
        lock.release();
      }
    };
    return db;
  } catch (e) {
    lock.release();
    throw e;
  }
};
