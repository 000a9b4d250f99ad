/**
 * `databaseLevel`, what a cache beside the file (the vector index) notes to trust itself
 * unread at the next open: equal levels must mean equal read-model rows under equal
 * rowids, so every append, log-only append, catch-up, new save and direct write to a read
 * model must move it, and read models behind their log have none.
 */
import { databaseLevel, keyedTables, projectionTables, type SqliteDatabase } from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freshStore, newSave, runs } from "./harness.ts";

/** Every read-model row of the file, with its rowid where the table keys items by it. */
const rowsOf = (db: SqliteDatabase) =>
  projectionTables.map((t) =>
    db
      .prepare(
        `SELECT ${(keyedTables as ReadonlyArray<string>).includes(t) ? "rowid, " : ""}* FROM ${t} ORDER BY 1, 2, 3`,
      )
      .raw()
      .all(),
  );

const arbMode = fc.constantFrom("append", "logOnly", "logOnlyThenCatchUp");

describe("databaseLevel", () => {
  it("property: moves with every write, is absent while read models lag, and equal levels hold equal rows", () => {
    fc.assert(
      fc.property(
        arbEventBatches({ minSteps: 3 }),
        fc.array(arbMode, { minLength: 8, maxLength: 8 }),
        (batches, modes) => {
          const a = freshStore();
          newSave(a.log, "s");
          const b = freshStore();
          newSave(b.log, "s");
          const seen = new Set<string>([databaseLevel(a.db)!]);
          expect(databaseLevel(a.db)).toBe(databaseLevel(b.db));
          batches.forEach((batch, i) => {
            const mode = modes[i % modes.length]!;
            if (batch.length === 0) return;
            if (mode === "append") a.log.append("s", a.log.head("s"), batch);
            else a.log.appendLogOnly("s", a.log.head("s"), batch);
            b.log.append("s", b.log.head("s"), batch);
            if (mode === "logOnly") {
              expect(databaseLevel(a.db)).toBeNull();
              return;
            }
            if (mode === "logOnlyThenCatchUp") a.log.caughtUp("s");
            const level = databaseLevel(a.db)!;
            expect(level).not.toBeNull();
            // Never a level this file was at before it took this batch.
            expect(seen.has(level)).toBe(false);
            seen.add(level);
            // The same log the ordinary way: the same level, and the same rows under it.
            expect(level).toBe(databaseLevel(b.db));
            expect(rowsOf(a.db)).toEqual(rowsOf(b.db));
          });
          a.log.caughtUp("s");
          expect(databaseLevel(a.db)).toBe(databaseLevel(b.db));
          // Reading changes nothing.
          expect(databaseLevel(a.db)).toBe(databaseLevel(a.db));
        },
      ),
      { numRuns: runs(30) },
    );
  });

  it("moves with a new save, and is null for a file older than the digest", () => {
    const { db, log } = freshStore();
    newSave(log, "s");
    const before = databaseLevel(db);
    newSave(log, "t");
    expect(databaseLevel(db)).not.toBe(before);
    db.exec("DROP TABLE projection_digest");
    expect(databaseLevel(db)).toBeNull();
  });
});
