/**
 * The exclusive writer lock of a database file: every process that writes a hearsay
 * database (`run`, `chat`, `serve`, `branch`) holds it for as long as it has the file
 * open, so a second writer — and above all `run --replace`, which deletes the file — is
 * refused while one is at work, instead of writing to a file that is being deleted.
 *
 * Per file, not per save: `--replace` deletes the whole file, so it must know that no
 * save in it is in use; `serve` writes whichever saves its requests name; and SQLite
 * serializes the writers of one file anyway, so two writers on one file gain nothing but
 * stale-append refusals. Readers never take it.
 *
 * How: the lock is SQLite's own exclusive lock on a sidecar file, `<db>-lock` (an empty
 * SQLite file), held by an open `BEGIN EXCLUSIVE` transaction. That is an OS advisory
 * lock the kernel drops the moment its process dies, however it dies — so a run that was
 * SIGKILLed leaves no stale lock behind for its `--resume`, with no pid to check (and no
 * pid reused by another program to mistake for a live holder) and no staleness timeout to
 * wait out, which a lock file (proper-lockfile's mtime rule, or a pid file) needs. The
 * sidecar file stays after release, like SQLite's own `-shm`: deleting a lock file while
 * another process may be opening it would let two processes hold "the" lock.
 */
import "./sqliteUri.ts";
import Database from "better-sqlite3";
import { sqliteCode } from "./databaseFile.ts";
import { DatabaseLocked, DatabaseUnavailable } from "./StoreError.ts";
import { plainPath } from "./sqliteUri.ts";

/** A held writer lock. */
export interface WriterLock {
  /** The database file it guards. */
  readonly path: string;
  /** Releases the lock (idempotent). The process ending releases it too. */
  release(): void;
}

/** The sidecar file that carries the lock of the database at `path`. */
export const lockPathOf = (path: string): string => `${path}-lock`;

/**
 * Takes the writer lock of the database at `path`, or refuses at once.
 *
 * @throws DatabaseLocked when another process (or connection) holds it
 * @throws DatabaseUnavailable when the lock file cannot be created (read-only folder, …)
 */
export const acquireWriterLock = (path: string): WriterLock => {
  let conn: Database.Database;
  try {
    // timeout 0: a held lock is reported now, not after SQLite's busy wait.
    conn = new Database(plainPath(lockPathOf(path)), { timeout: 0 });
  } catch (e) {
    throw new DatabaseUnavailable({
      path,
      detail: `cannot create its writer lock ${lockPathOf(path)}: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  try {
    conn.exec("BEGIN EXCLUSIVE");
  } catch (e) {
    conn.close();
    const code = sqliteCode(e);
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") throw new DatabaseLocked({ path });
    throw new DatabaseUnavailable({
      path,
      detail: `cannot take its writer lock ${lockPathOf(path)}: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  let held = true;
  return {
    path,
    release: () => {
      if (!held) return;
      held = false;
      conn.close();
    },
  };
};
