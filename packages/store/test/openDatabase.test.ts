import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FutureSchemaVersion,
  type Migration,
  migrations,
  NotADatabase,
  openDatabase,
  readDigest,
  SCHEMA_VERSION,
  SqliteEventLog,
  schemaVersion,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendBatches, checkFts, newSave } from "./harness.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const catching = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
};

/** A second migration that counts how often it runs. */
const counted: ReadonlyArray<Migration> = [
  ...migrations,
  {
    version: SCHEMA_VERSION + 1,
    name: "test counter",
    sql: "CREATE TABLE IF NOT EXISTS test_runs (n INTEGER); INSERT INTO test_runs VALUES (1);",
  },
];

describe("openDatabase", () => {
  it("creates the schema with WAL, foreign keys, synchronous=NORMAL, a 256 MiB cache and 10,000-page checkpoints", () => {
    const db = openDatabase(join(dir, "a.db"));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(db.pragma("cache_size", { simple: true })).toBe(-262_144);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(10_000);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT version, name FROM schema_migrations").all()).toEqual(
      migrations.map((m) => ({ version: m.version, name: m.name })),
    );
    db.close();
  });

  it("keeps temporary data in memory only when asked, and appends the same either way", () => {
    const batches = fc.sample(arbEventBatches({ minSteps: 20, maxSteps: 40 }), {
      seed: 7,
      numRuns: 1,
    })[0]!;
    const state = (tempInMemory: boolean, name: string) => {
      const db = openDatabase(join(dir, name), { tempInMemory });
      // 0: the default (files, or memory if SQLite was built so); 2: MEMORY.
      const store = db.pragma("temp_store", { simple: true });
      const log = new SqliteEventLog(db, { sqlFoldFrom: 1 });
      newSave(log, "s");
      appendBatches(log, "s", batches);
      checkFts(db);
      const out = {
        store,
        digest: readDigest(db, "s"),
        memories: db.prepare("SELECT * FROM memories").all(),
      };
      db.close();
      return out;
    };
    const files = state(false, "files.db");
    const memory = state(true, "memory.db");
    expect([files.store, memory.store]).toEqual([0, 2]);
    expect(files.memories.length).toBeGreaterThan(0);
    expect(memory.digest).toBe(files.digest);
    expect(memory.memories).toEqual(files.memories);
  });

  it("reopening runs no migration twice, and a new one exactly once", () => {
    const path = join(dir, "b.db");
    const applied: Array<number> = [];
    const onMigrate = (m: Migration) => applied.push(m.version);
    openDatabase(path, { onMigrate }).close();
    openDatabase(path, { onMigrate }).close();
    expect(applied).toEqual(migrations.map((m) => m.version));
    for (let i = 0; i < 3; i++) openDatabase(path, { migrations: counted, onMigrate }).close();
    expect(applied).toEqual([...migrations.map((m) => m.version), SCHEMA_VERSION + 1]);
    const db = openDatabase(path, { migrations: counted });
    expect(db.prepare("SELECT count(*) FROM test_runs").pluck().get()).toBe(1);
    expect(db.prepare("SELECT count(*) FROM schema_migrations").pluck().get()).toBe(counted.length);
    db.close();
  });

  it("refuses a database from a future schema version, naming path, versions and fix, and changes nothing", () => {
    const path = join(dir, "future.db");
    openDatabase(path, { migrations: counted }).close();
    const e = catching(() => openDatabase(path));
    expect(e).toBeInstanceOf(FutureSchemaVersion);
    expect(e).toMatchObject({ path, found: SCHEMA_VERSION + 1, supported: SCHEMA_VERSION });
    expect((e as Error).message).toContain(path);
    expect((e as Error).message).toMatch(/upgrade hearsay/);
    const db = openDatabase(path, { migrations: counted });
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION + 1);
    db.close();
  });

  it("refuses a file that is not SQLite", () => {
    const path = join(dir, "notes.txt");
    writeFileSync(path, "these are my notes, not a database at all\n".repeat(20));
    const e = catching(() => openDatabase(path));
    expect(e).toBeInstanceOf(NotADatabase);
    expect(e).toMatchObject({ _tag: "NotADatabase", path });
    expect((e as Error).message).toContain(path);
  });

  it("a failed migration leaves the database at the previous version", () => {
    const path = join(dir, "c.db");
    openDatabase(path).close();
    const broken: ReadonlyArray<Migration> = [
      ...migrations,
      { version: SCHEMA_VERSION + 1, name: "broken", sql: "CREATE TABLE ok (x); THIS IS NOT SQL;" },
    ];
    expect(catching(() => openDatabase(path, { migrations: broken }))).toMatchObject({
      _tag: "MigrationFailed",
      version: SCHEMA_VERSION + 1,
    });
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'ok'").pluck().get()).toBe(
      0,
    );
    db.close();
  });
});
