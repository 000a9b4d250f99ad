/**
 * Opens a hearsay database for reading only: the file must exist, begin with the SQLite
 * header and be at a schema version this build reads (older ones open as they are). Nothing
 * is migrated, no pragma that writes is set — SQLite itself refuses any write here.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import type { SqliteDatabase } from "@hearsay/store";
import { DIGEST_FN, SCHEMA_VERSION } from "@hearsay/store";
import Database from "better-sqlite3";
import { NotInspectable } from "./InspectorError.ts";

const HEADER = "SQLite format 3\u0000";
/** The store's row-hash function (its ProjectionDigest), declared so its statements prepare. */

const hasHeader = (path: string): boolean => {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(16);
    return readSync(fd, buf, 0, 16, 0) === 16 && buf.toString("latin1") === HEADER;
  } finally {
    closeSync(fd);
  }
};

/** Opens `path` read-only. @throws NotInspectable */
export const openReadOnly = (path: string): SqliteDatabase => {
  const fail = (detail: string, fix: string) => new NotInspectable({ path, detail, fix });
  if (!existsSync(path)) {
    throw fail("no such file", "pass the --db of a recorded run (`hearsay run --db PATH`)");
  }
  if (!statSync(path).isFile() || !hasHeader(path)) {
    throw fail("not an SQLite database", "pass a database written by `hearsay run`");
  }
  let db: SqliteDatabase;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw fail(
      `cannot open (${e instanceof Error ? e.message : String(e)})`,
      "check its permissions",
    );
  }
  try {
    const version = db.pragma("user_version", { simple: true }) as number;
    // Every table the inspector reads exists since version 1, so older logs open as they are.
    if (version < 1 || version > SCHEMA_VERSION) {
      throw fail(
        version === 0
          ? "not a hearsay database (no schema)"
          : `schema version ${version} is newer than this build reads (${SCHEMA_VERSION})`,
        version === 0 ? "pass a database written by `hearsay run`" : "upgrade hearsay",
      );
    }
    // The store's statements name the SQL function its projection triggers call; this
    // connection can never write, so the triggers never fire — the function only has to
    // exist for those statements to prepare.
    db.function(DIGEST_FN, { varargs: true, deterministic: true }, () => {
      throw new Error("the inspector's connection is read-only");
    });
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
};
