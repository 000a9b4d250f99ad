/**
 * Log-only appends (`appendLogOnly`) leave the read models behind until `caughtUp`: a
 * save appended in any mix of the two modes, caught up at any points, ends with the same
 * log, rows, keys, FTS entries and digest as one appended the ordinary way; every read of
 * the read models catches up first; a writable open catches a file up and a read-only one
 * refuses it while it is behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  keyedTables,
  openDatabase,
  openForReading,
  openForWriting,
  ReadModelsBehind,
  type SqliteDatabase,
  SqliteEventLog,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { appendBatches, checkFts, freshStore, newSave, rowCounts, runs } from "./harness.ts";

const keysOf = (db: SqliteDatabase, save: string) =>
  keyedTables.map((t) =>
    db.prepare(`SELECT rowid FROM ${t} WHERE save_id = ? ORDER BY rowid`).pluck().all(save),
  );

const logOf = (log: SqliteEventLog, save: string) =>
  log.read(save).map((e) => [e.seq, e.id, e.type, e.t, JSON.stringify(e.payload)]);

/** How one batch is appended: ordinarily, log-only, or log-only and then caught up. */
const arbMode = fc.constantFrom("append", "logOnly", "logOnlyThenCatchUp");

describe("log-only appends", () => {
  it("property: any mix of log-only and ordinary appends, caught up, gives the same rows, keys, FTS and digest", () => {
    fc.assert(
      fc.property(
        arbEventBatches({ minSteps: 4 }),
        fc.array(arbMode, { minLength: 16, maxLength: 16 }),
        fc.integer({ min: 1, max: 80 }),
        (batches, modes, sqlFoldFrom) => {
          const plain = freshStore(0, sqlFoldFrom);
          newSave(plain.log, "s");
          appendBatches(plain.log, "s", batches);

          const mixed = freshStore(0, sqlFoldFrom);
          newSave(mixed.log, "s");
          batches.forEach((batch, i) => {
            const mode = modes[i % modes.length]!;
            const head = mixed.log.head("s");
            if (mode === "append") mixed.log.append("s", head, batch);
            else mixed.log.appendLogOnly("s", head, batch);
            if (mode === "logOnlyThenCatchUp") mixed.log.caughtUp("s");
          });
          mixed.log.caughtUp("s");

          expect(mixed.log.behind("s")).toBe(false);
          expect(logOf(mixed.log, "s")).toEqual(logOf(plain.log, "s"));
          expect(mixed.log.projectionState("s")).toEqual(plain.log.projectionState("s"));
          expect(mixed.log.projectionHash("s")).toBe(plain.log.projectionHash("s"));
          expect(keysOf(mixed.db, "s")).toEqual(keysOf(plain.db, "s"));
          expect(rowCounts(mixed.db)).toEqual(rowCounts(plain.db));
          checkFts(mixed.db);
        },
      ),
      { numRuns: runs(40) },
    );
  });

  it("property: a read of the read models catches up first (the Checkpoint hash is the refold's)", () => {
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 4 }), (batches) => {
        const { db, log } = freshStore();
        newSave(log, "s");
        for (const batch of batches) log.appendLogOnly("s", log.head("s"), batch);
        const hash = log.projectionHash("s");
        expect(log.behind("s")).toBe(false);
        const refolded = freshStore();
        newSave(refolded.log, "s");
        appendBatches(refolded.log, "s", [log.read("s")]);
        expect(hash).toBe(refolded.log.projectionHash("s"));
        expect(log.rebuildProjections("s")).toBe(log.head("s"));
        expect(log.projectionHash("s")).toBe(hash);
        checkFts(db);
      }),
      { numRuns: runs(25) },
    );
  });

  it("property: a log-only append rolled back with its transaction is never folded", async () => {
    await fc.assert(
      fc.asyncProperty(arbEventBatches({ minSteps: 6 }), async (batches) => {
        const plain = freshStore();
        newSave(plain.log, "s");
        appendBatches(plain.log, "s", batches);
        const mixed = freshStore();
        newSave(mixed.log, "s");
        for (const [i, batch] of batches.entries()) {
          // The next batch tried first, in a transaction that fails: nothing of it stays.
          const next = batches[i + 1];
          if (next !== undefined) {
            await expect(
              mixed.log.atomically(async () => {
                mixed.log.appendLogOnly("s", mixed.log.head("s"), next);
                throw new Error("rolled back");
              }),
            ).rejects.toThrow("rolled back");
          }
          mixed.log.appendLogOnly("s", mixed.log.head("s"), batch);
        }
        mixed.log.caughtUp("s");
        expect(mixed.log.projectionState("s")).toEqual(plain.log.projectionState("s"));
        expect(mixed.log.projectionHash("s")).toBe(plain.log.projectionHash("s"));
        checkFts(mixed.db);
      }),
      { numRuns: runs(20) },
    );
  });

  it("a log-only append writes no read model row, and catching up with nothing behind writes nothing", () => {
    const { db, log } = freshStore();
    newSave(log, "s");
    const before = rowCounts(db);
    const events = [
      {
        type: "ClockAdvanced",
        version: 1,
        id: "e1",
        t: 60,
        payload: { from: 0, to: 60, mode: "tick" },
      },
    ];
    log.appendLogOnly("s", 0, events);
    const after = rowCounts(db);
    expect(after.events).toBe((before.events ?? 0) + 1);
    expect({ ...after, events: 0 }).toEqual({ ...before, events: 0 });
    expect(log.behind("s")).toBe(true);
    expect(log.caughtUp("s")).toBe(1);
    expect(log.caughtUp("s")).toBe(0);
    expect(log.behind("s")).toBe(false);
  });
});

describe("a file whose read models are behind", () => {
  const dirs: Array<string> = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("is refused by a read-only open in one line, and caught up by a writable one", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-behind-"));
    dirs.push(dir);
    const path = join(dir, "run.db");
    const db = openDatabase(path);
    const log = new SqliteEventLog(db);
    newSave(log, "s");
    log.appendLogOnly("s", 0, [
      {
        type: "ClockAdvanced",
        version: 1,
        id: "e1",
        t: 60,
        payload: { from: 0, to: 60, mode: "tick" },
      },
    ]);
    db.close();

    let refused: unknown;
    try {
      openForReading(path).close();
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ReadModelsBehind);
    const message = (refused as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toContain(path);
    expect(message).toContain("--resume");

    // A writer (a resume) may open it: the check before its lock does not refuse it.
    const again = openForWriting(path, { mode: "existing" });
    const reopened = new SqliteEventLog(again);
    expect(reopened.behind("s")).toBe(false);
    again.close();
    const reader = openForReading(path);
    expect(reader.prepare("SELECT projected_seq FROM saves").pluck().get()).toBeNull();
    reader.close();
  });
});
