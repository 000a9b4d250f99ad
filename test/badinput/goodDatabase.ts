/**
 * The "existing database" every bad input is thrown at: the tiny world run for one day
 * by the engine, closed cleanly (so it is one file, no WAL), then copied per case so
 * cases running side by side cannot disturb each other. Also the derived broken
 * databases: truncated mid-file, and stamped with a schema version from the future.
 */
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { ids } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import Database from "better-sqlite3";
import { tinySimulation } from "../support/hearsayCli.ts";

/** Writes the good database at `path` (one day of the tiny world, seed 7). */
export const makeGoodDatabase = async (path: string): Promise<void> => {
  const sim = loadSimulation(tinySimulation);
  const db = openDatabase(path);
  try {
    await runSimulation({
      world: sim.world,
      worldHash: sim.worldHash,
      lore: sim.lore,
      log: new SqliteEventLog(db),
      saveId: ids.save("main"),
      days: 1,
      seed: 7,
      brain: ScriptedBrain.make(),
      recordBrain: false,
      dossiers: retrievalDossiers,
      resume: false,
    });
  } finally {
    db.close();
  }
};

/** A copy of `good` at `path`. */
export const copyDatabase = (good: string, path: string): string => {
  copyFileSync(good, path);
  return path;
};

/** A copy of `good` cut to `fraction` of its bytes (whole pages kept or not). */
export const truncatedCopy = (good: string, path: string, fraction: number): string => {
  copyFileSync(good, path);
  truncateSync(path, Math.floor(readFileSync(path).length * fraction));
  return path;
};

/** A copy of `good` that claims a schema version this build has never heard of. */
export const futureCopy = (good: string, path: string, version: number): string => {
  copyFileSync(good, path);
  const db = new Database(path);
  db.pragma(`user_version = ${Math.trunc(version)}`);
  db.close();
  return path;
};

/** Writes `text` at `path` (for a file that must not be mistaken for a database). */
export const writeText = (path: string, text: string): string => {
  writeFileSync(path, text);
  return path;
};

/** A copy of `good` with the first bytes of page 1's b-tree header inverted (its schema unreadable). */
export const bitFlippedCopy = (good: string, path: string): string => {
  const bytes = readFileSync(good);
  for (let i = 100; i < 108; i++) bytes[i] = bytes[i]! ^ 0xff;
  writeFileSync(path, bytes);
  return path;
};

/** The first `n` bytes of `good`: the SQLite header and nothing behind it. */
export const headerOnlyCopy = (good: string, path: string, n = 100): string => {
  writeFileSync(path, readFileSync(good).subarray(0, n));
  return path;
};

/** Another program's SQLite database: one table `t` with one row, no hearsay schema. */
export const foreignDatabase = (path: string): string => {
  const db = new Database(path);
  db.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('keep me');");
  db.close();
  return path;
};

/** A copy of `good` at its schema version whose `saves` table was dropped. */
export const noSavesCopy = (good: string, path: string): string => {
  copyFileSync(good, path);
  const db = new Database(path);
  db.pragma("foreign_keys = OFF");
  db.exec("DROP TABLE saves");
  db.pragma("journal_mode = DELETE");
  db.close();
  return path;
};
