/**
 * Migration 7 drops the secondary indexes no reader uses (`unreadIndexes`): a new
 * database never has them, and one written at version 6 loses them and nothing else —
 * its rows, digest and FTS stay, and appending to it after the migration gives the same
 * state and digest as appending the same events to a new database.
 */
import {
  migrate,
  migrations,
  openDatabase,
  projectionDigestColumns,
  readDigest,
  recomputeDigest,
  type SqliteDatabase,
  SqliteEventLog,
  unreadIndexes,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, checkFts, freshStore, newSave, runs } from "./harness.ts";

/** Every schema object but the migrations' own record, by name. */
const schemaObjects = (db: SqliteDatabase): Array<{ name: string; sql: string | null }> =>
  db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
    )
    .all() as Array<{ name: string; sql: string | null }>;

const indexNames = (db: SqliteDatabase): Array<string> =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
    .pluck()
    .all() as Array<string>;

/**
 * Makes a database this build wrote into the file version 6 left (this build writes only
 * files with key spaces, migration 8): the unread indexes back, migration 8's objects gone.
 */
const asVersion6 = (db: SqliteDatabase): void => {
  const v6 = openDatabase(":memory:", { migrations: migrations.filter((m) => m.version <= 6) });
  const definitions = unreadIndexes.map(
    (ix) => v6.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(ix) as string,
  );
  v6.close();
  db.exec(`ALTER TABLE saves DROP COLUMN projected_seq;
    DROP INDEX saves_key_space;
    ALTER TABLE saves DROP COLUMN key_space;
    DROP TABLE read_model_refolds;
    DELETE FROM schema_migrations WHERE version > 6;`);
  for (const sql of definitions) db.exec(sql);
  db.pragma("user_version = 6");
};

describe("unread indexes (migration 7)", () => {
  it("a new database has none of them, and each one named was an index of version 6", () => {
    const v6 = openDatabase(":memory:", { migrations: migrations.filter((m) => m.version <= 6) });
    const now = openDatabase(":memory:");
    for (const ix of unreadIndexes) {
      expect(indexNames(v6)).toContain(ix);
      expect(indexNames(now)).not.toContain(ix);
    }
    v6.close();
    now.close();
  });

  it("property: a version-6 database migrates losing only them, keeping rows, digest and FTS, and appends on as a new one", () => {
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 10 }), (batches) => {
        const cut = Math.ceil(batches.length / 2);
        const db = openDatabase(":memory:");
        const old = new SqliteEventLog(db, { sqlFoldFrom: 1 });
        newSave(old, "s");
        appendBatches(old, "s", batches.slice(0, cut));
        const state = old.projectionState("s");
        const digest = old.projectionHash("s");

        asVersion6(db);
        migrate(db, ":memory:", migrations);
        const fresh = freshStore();
        expect(schemaObjects(db)).toEqual(schemaObjects(fresh.db));
        const migrated = new SqliteEventLog(db, { sqlFoldFrom: 1 });
        expect(migrated.projectionState("s")).toEqual(state);
        expect(migrated.projectionHash("s")).toBe(digest);
        checkFts(db);

        newSave(fresh.log, "s");
        appendBatches(fresh.log, "s", batches);
        appendBatches(migrated, "s", batches.slice(cut));
        expect(migrated.projectionState("s")).toEqual(fresh.log.projectionState("s"));
        expect(migrated.projectionHash("s")).toBe(fresh.log.projectionHash("s"));
        expect(readDigest(db, "s")).toBe(recomputeDigest(db, "s", projectionDigestColumns));
        checkFts(db);
        db.close();
        fresh.db.close();
      }),
      { numRuns: runs(10) },
    );
  });
});
