/**
 * The one way to open a hearsay database for reading. The connection is read-only (SQLite
 * itself refuses every write), nothing is migrated, no pragma that writes is set, and the
 * file must already be a hearsay database this build reads: a missing, empty, foreign,
 * damaged or newer file is refused with one line naming it, before anything else runs.
 *
 * Read-only media: a WAL database needs its `-shm` index, which a read-only connection
 * creates beside the file when there is none. In a folder that cannot be written that
 * fails, so the file is opened again as `immutable` — SQLite then takes no locks and
 * reads no WAL, which is exact when no `-wal` with content exists (a cleanly closed
 * database has none; nobody can write on read-only media). When a `-wal` with content
 * is there and cannot be indexed, the file is refused: reading it without its WAL would
 * show an older state.
 */
import "./sqliteUri.ts";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import {
  asDatabaseError,
  checkDatabaseFile,
  checkHearsaySchema,
  sqliteCode,
  walHasContent,
} from "./databaseFile.ts";
import type { SqliteDatabase } from "./openDatabase.ts";
import { DIGEST_FN } from "./ProjectionDigest.ts";
import {
  DatabaseMissing,
  DatabaseUnavailable,
  NotAHearsayDatabase,
  ReadModelsBehind,
} from "./StoreError.ts";
import { SCHEMA_VERSION } from "./schema.sql.ts";
import { plainPath } from "./sqliteUri.ts";

/** Codes a read-only connection gets when it cannot create or map the `-shm` file. */
const SHM_FAILURES = new Set([
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY_CANTINIT",
  "SQLITE_READONLY_CANTLOCK",
  "SQLITE_READONLY",
  "SQLITE_READONLY_DIRECTORY",
  "SQLITE_READONLY_RECOVERY",
]);

/** Opens read-only and makes the first read (where SQLite discovers most problems). */
const connect = (target: string): SqliteDatabase => {
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    db.pragma("user_version", { simple: true });
    db.prepare("SELECT count(*) FROM sqlite_schema").pluck().get();
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
};

/**
 * Refuses a file one of whose saves has read models behind its log (a run stopped
 * between catch-ups): a reader would see an older state than the log's.
 */
const refuseBehind = (db: SqliteDatabase, path: string): void => {
  const cols = db.pragma("table_info(saves)") as Array<{ name: string }>;
  if (!cols.some((c) => c.name === "projected_seq")) return;
  const behind = db
    .prepare(
      "SELECT save_id, projected_seq, head_seq FROM saves WHERE projected_seq IS NOT NULL AND projected_seq < head_seq ORDER BY save_id LIMIT 1",
    )
    .get() as { save_id: string; projected_seq: number; head_seq: number } | undefined;
  if (behind === undefined) return;
  throw new ReadModelsBehind({
    path,
    saveId: behind.save_id,
    projectedSeq: behind.projected_seq,
    head: behind.head_seq,
  });
};

/**
 * Opens the hearsay database at `path` for reading only.
 *
 * @throws DatabaseMissing when there is no file
 * @throws DatabaseUnavailable when it cannot be opened
 * @throws NotADatabase when it is not SQLite
 * @throws NotAHearsayDatabase when it is empty or another program's database
 * @throws DatabaseDamaged when it is truncated or its schema cannot be read
 * @throws FutureSchemaVersion when a newer build wrote it
 * @throws ReadModelsBehind when a save's read models lag its log
 */
export const openForReading = (path: string): SqliteDatabase => {
  const db = openHearsayReadOnly(path);
  try {
    refuseBehind(db, path);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
};

/**
 * {@link openForReading} without its last check: a file whose read models lag its log
 * opens too (what a writer checks a file with before it takes the lock and catches up).
 */
export const openHearsayReadOnly = (path: string): SqliteDatabase => {
  const state = checkDatabaseFile(path);
  if (state === "missing") {
    throw new DatabaseMissing({ path });
  }
  if (state === "empty") throw new NotAHearsayDatabase({ path, detail: "an empty file" });
  let db: SqliteDatabase;
  try {
    db = connect(plainPath(path));
  } catch (e) {
    const code = sqliteCode(e);
    if (code === undefined || !SHM_FAILURES.has(code)) throw asDatabaseError(path, e);
    if (walHasContent(path)) {
      throw new DatabaseUnavailable({
        path,
        detail: `its write-ahead log ${path}-wal cannot be read from a folder this process cannot write (${code})`,
      });
    }
    try {
      db = connect(`${pathToFileURL(path).href}?immutable=1`);
    } catch (again) {
      throw asDatabaseError(path, again);
    }
  }
  try {
    checkHearsaySchema(db, path, SCHEMA_VERSION, false);
    // The store's statements name the SQL function its projection triggers call; this
    // connection never writes, so the triggers never fire — it only has to exist for
    // those statements to prepare.
    db.function(DIGEST_FN, { varargs: true, deterministic: true }, () => {
      throw new Error("a read-only connection never writes projections");
    });
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
};
