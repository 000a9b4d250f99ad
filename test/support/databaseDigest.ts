/**
 * A canonical digest of every row of every table of a database file, read through a
 * read-only connection (so taking it changes nothing). The bad-input suite takes one
 * before and after feeding hearsay something broken: equal digests mean no row changed.
 */
import { existsSync, readFileSync } from "node:fs";
import { sha256, stateHash } from "@hearsay/core";
import Database from "better-sqlite3";

/** Per table, the sha256 of its rows in a stable order; plus the schema version. */
export interface DatabaseDigest {
  readonly userVersion: number;
  readonly tables: Readonly<Record<string, string>>;
}

/** Digests every table (FTS shadow tables included) of the SQLite file at `path`. */
export const databaseDigest = (path: string): DatabaseDigest => {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const names = (
      db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .all() as Array<{ name: string }>
    ).map((r) => r.name);
    const tables: Record<string, string> = {};
    for (const name of names) {
      const quoted = `"${name.replaceAll('"', '""')}"`;
      const rows = db.prepare(`SELECT * FROM ${quoted}`).raw().all() as Array<Array<unknown>>;
      // Order by the rows' own canonical text: independent of rowid and index order.
      const texts = rows
        .map((r) => stateHash(r.map((v) => (Buffer.isBuffer(v) ? `blob:${v.toString("hex")}` : v))))
        .sort();
      tables[name] = sha256(texts.join("\n"));
    }
    return { userVersion: db.pragma("user_version", { simple: true }) as number, tables };
  } finally {
    db.close();
  }
};

/** The sha256 of a file's bytes, or null when it does not exist. */
export const fileHash = (path: string): string | null =>
  existsSync(path) ? sha256(readFileSync(path).toString("latin1")) : null;
