/**
 * Migration 8 gives every save its key space (ItemKeys.ts). A file written before it with
 * several saves had their keyed rows numbered across saves; opened for writing, it is
 * refolded once: every save's rows then carry the rule's keys, with the same state,
 * digest and FTS as before, and appends go on as on a new file.
 */
import { ids } from "@hearsay/core";
import {
  ftsTables,
  ItemKeyFold,
  keyedTables,
  keySpaceBase,
  migrate,
  migrations,
  openDatabase,
  type SqliteDatabase,
  SqliteEventLog,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, checkFts, newSave, runs } from "./harness.ts";

/**
 * Makes a file this build wrote into the one version 7 left: keyed rows numbered from 1
 * across saves in another order (the last save's first), migration 8's objects gone.
 */
const asVersion7 = (db: SqliteDatabase): void => {
  for (const t of keyedTables) {
    const rows = db
      .prepare(`SELECT rowid FROM ${t} ORDER BY save_id DESC, rowid`)
      .pluck()
      .all() as Array<number>;
    db.exec(`UPDATE ${t} SET rowid = -rowid`);
    const move = db.prepare(`UPDATE ${t} SET rowid = ? WHERE rowid = ?`);
    rows.forEach((r, i) => {
      move.run(i + 1, -r);
    });
  }
  for (const fts of Object.keys(ftsTables))
    db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`);
  db.exec(`ALTER TABLE saves DROP COLUMN projected_seq;
    DROP INDEX saves_key_space;
    ALTER TABLE saves DROP COLUMN key_space;
    DROP TABLE read_model_refolds;
    DELETE FROM schema_migrations WHERE version > 7;`);
  db.pragma("user_version = 7");
};

const keysOf = (db: SqliteDatabase, save: string) =>
  keyedTables.map((t) =>
    db.prepare(`SELECT rowid FROM ${t} WHERE save_id = ? ORDER BY rowid`).pluck().all(save),
  );

const ruleKeysOf = (log: SqliteEventLog, save: string, space: number) => {
  const fold = new ItemKeyFold(keySpaceBase(space));
  const live = keyedTables.map(() => new Set<number>());
  for (const e of log.read(save)) {
    for (const c of fold.step(e)) {
      const set = live[keyedTables.indexOf(c.table)]!;
      if (c.type === "added") set.add(c.key);
      else set.delete(c.key);
    }
  }
  return live.map((s) => [...s].sort((a, b) => a - b));
};

describe("item keys (migration 8)", () => {
  it("property: a version-7 file of several saves is refolded once on open, keeping state and digest", () => {
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 8 }), arbEventBatches({ minSteps: 8 }), (a, b) => {
        const db = openDatabase(":memory:");
        const old = new SqliteEventLog(db, { sqlFoldFrom: 1 });
        newSave(old, "a");
        newSave(old, "b");
        appendBatches(old, "a", a);
        appendBatches(old, "b", b);
        old.createSave({
          saveId: ids.save("c"),
          campaignId: ids.campaign("campaign-1"),
          name: "c",
          parent: { saveId: ids.save("a"), seq: Math.floor(old.head("a") / 2) },
        });
        const saves = ["a", "b", "c"];
        const states = saves.map((s) => old.projectionState(s));
        const digests = saves.map((s) => old.projectionHash(s));
        asVersion7(db);

        migrate(db, ":memory:", migrations);
        const asked = db.prepare("SELECT count(*) FROM read_model_refolds").pluck();
        expect(asked.get()).toBe(1);
        const log = new SqliteEventLog(db, { sqlFoldFrom: 1 });
        expect(asked.get()).toBe(0);
        saves.forEach((s, space) => {
          expect(log.projectionState(s)).toEqual(states[space]);
          expect(log.projectionHash(s)).toBe(digests[space]);
          expect(keysOf(db, s)).toEqual(ruleKeysOf(log, s, space));
        });
        checkFts(db);
        db.close();
      }),
      { numRuns: runs(6) },
    );
  });

  it("leaves a file of one save as it is: its rows are keyed by the rule already", () => {
    const db = openDatabase(":memory:", { migrations: migrations.filter((m) => m.version <= 7) });
    db.prepare(
      "INSERT INTO saves (save_id, campaign_id, name, parent_save_id, parent_seq, head_seq) VALUES ('s', 'c', 's', NULL, NULL, 0)",
    ).run();
    migrate(db, ":memory:", migrations);
    expect(db.prepare("SELECT key_space FROM saves").pluck().all()).toEqual([0]);
    expect(db.prepare("SELECT count(*) FROM read_model_refolds").pluck().get()).toBe(0);
    db.close();
  });
});
