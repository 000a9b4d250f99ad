/**
 * What a file on disk is, before and just after SQLite opens it: the checks both ways of
 * opening a database share (`openForReading`, `openForWriting`, and `openDatabase` under
 * them). Each refusal is a typed error naming the file; none of them writes anything.
 *
 * The byte checks catch what SQLite would only notice on the page it happens to read:
 * a file cut short (the header says how many pages there are) or one that is only a
 * header. The schema checks tell a hearsay database from any other SQLite file.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import type Database from "better-sqlite3";
import {
  DatabaseDamaged,
  DatabaseUnavailable,
  FutureSchemaVersion,
  NotADatabase,
  NotAHearsayDatabase,
} from "./StoreError.ts";

const SQLITE_HEADER = "SQLite format 3\u0000";
const HEADER_BYTES = 100;

/** What is at a path: nothing, an empty file, or an SQLite file of some size. */
export type FileState = "missing" | "empty" | "sqlite";

const errorText = (u: unknown): string => (u instanceof Error ? u.message : String(u));

/** The SQLite result code of an error, when it has one. */
export const sqliteCode = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "code" in u && String(u.code).startsWith("SQLITE_")
    ? String(u.code)
    : undefined;

/**
 * Checks the bytes at `path`: a regular file, the SQLite header, a sane page size, and
 * every page the header counts present. Does not open the file with SQLite.
 *
 * @throws DatabaseUnavailable when it is not a regular file or cannot be read
 * @throws NotADatabase when it does not start with the SQLite header
 * @throws DatabaseDamaged when it is cut short
 */
export const checkDatabaseFile = (path: string): FileState => {
  if (!existsSync(path)) return "missing";
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new DatabaseUnavailable({ path, detail: "not a regular file" });
    size = stat.size;
  } catch (e) {
    if (e instanceof DatabaseUnavailable) throw e;
    throw new DatabaseUnavailable({ path, detail: errorText(e) });
  }
  if (size === 0) return "empty";
  const header = Buffer.alloc(HEADER_BYTES);
  let n: number;
  try {
    const fd = openSync(path, "r");
    try {
      n = readSync(fd, header, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new DatabaseUnavailable({ path, detail: errorText(e) });
  }
  if (n < 16 || header.toString("latin1", 0, 16) !== SQLITE_HEADER) {
    throw new NotADatabase({ path, detail: "missing the SQLite file header" });
  }
  if (n < HEADER_BYTES) {
    throw new DatabaseDamaged({ path, detail: `only ${n} bytes, less than an SQLite header` });
  }
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65_536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) {
    throw new DatabaseDamaged({ path, detail: `the header's page size ${raw} is not valid` });
  }
  if (size < pageSize) {
    throw new DatabaseDamaged({
      path,
      detail: `${size} bytes, less than one ${pageSize}-byte page`,
    });
  }
  // The page count in the header is current only when its "version-valid-for" number
  // matches the change counter (SQLite's own rule for trusting it), and only when no
  // write-ahead log has content: a checkpoint writes page 1 before the pages that grow
  // the file, and a crash in between is repaired from the WAL on the next open.
  const pages = header.readUInt32BE(28);
  const valid = header.readUInt32BE(92) === header.readUInt32BE(24) && !walHasContent(path);
  if (valid && pages > 0 && size < pages * pageSize) {
    throw new DatabaseDamaged({
      path,
      detail: `truncated: ${size} bytes where its header counts ${pages} pages of ${pageSize}`,
    });
  }
  return "sqlite";
};

/** True when a `-wal` beside `path` holds frames (or cannot be looked at). */
export const walHasContent = (path: string): boolean => {
  try {
    return existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0;
  } catch {
    return true;
  }
};

/** The tables every hearsay database has had since schema version 1. */
const REQUIRED_TABLES = ["saves", "events"] as const;

/**
 * Checks that an open connection is a hearsay database this build can use: a schema
 * version from 1 to `supported`, and the tables every version has. A connection to a
 * brand-new (empty) database passes when `allowEmpty` is set.
 *
 * @throws NotAHearsayDatabase for an empty or foreign database, or one missing a table
 * @throws FutureSchemaVersion when a newer build wrote it
 * @throws DatabaseDamaged when the schema itself cannot be read
 */
export const checkHearsaySchema = (
  db: Database.Database,
  path: string,
  supported: number,
  allowEmpty: boolean,
): void => {
  let version: number;
  let tables: Array<string>;
  try {
    version = db.pragma("user_version", { simple: true }) as number;
    tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as Array<string>;
  } catch (e) {
    throw asDatabaseError(path, e);
  }
  if (version === 0) {
    if (tables.length === 0) {
      if (allowEmpty) return;
      throw new NotAHearsayDatabase({ path, detail: "an empty SQLite database" });
    }
    const shown = tables.slice(0, 3).join(", ") + (tables.length > 3 ? ", …" : "");
    throw new NotAHearsayDatabase({
      path,
      detail: `its tables (${shown}) are not hearsay's and it has no hearsay schema version`,
    });
  }
  if (version > supported) throw new FutureSchemaVersion({ path, found: version, supported });
  const missing = REQUIRED_TABLES.filter((t) => !tables.includes(t));
  if (missing.length > 0) {
    throw new NotAHearsayDatabase({
      path,
      detail: `schema version ${version} but no ${missing.map((t) => `\`${t}\``).join(" or ")} table`,
    });
  }
};

/**
 * The typed error for a failure SQLite raised on the file at `path`: damaged for a
 * corrupt or cut file, NotADatabase for one SQLite cannot read at all, unavailable for
 * anything else SQLite reports. Typed errors pass through as they are.
 */
export const asDatabaseError = (path: string, e: unknown): unknown => {
  const code = sqliteCode(e);
  if (code === undefined) return e;
  if (code === "SQLITE_NOTADB") return new NotADatabase({ path, detail: errorText(e) });
  if (code.startsWith("SQLITE_CORRUPT")) return new DatabaseDamaged({ path, detail: errorText(e) });
  return new DatabaseUnavailable({ path, detail: errorText(e) });
};
