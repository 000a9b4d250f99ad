import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dayOf, type Event } from "@hearsay/core";
import { InvalidEvent, openDatabase, SqliteEventLog, StaleSeq, UnknownSave } from "@hearsay/store";
import { arbEventBatches, arbEventSequence, buildSequence, smallWorld } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, checkFts, freshStore, newSave, rowCounts, runs } from "./harness.ts";

const caught = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
};

describe("the event log", () => {
  it("stores every batch with gapless seqs, hands back each event as it reads it back, in order", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { log } = freshStore();
        newSave(log, "s");
        const handed = batches.flatMap((b) => log.append("s", log.head("s"), b).appended);
        const all = batches.flat();
        const read = log.read("s");
        // Field for field and in the same key order (a copy that dropped one would show).
        expect(handed.map((e) => JSON.stringify(e))).toEqual(read.map((e) => JSON.stringify(e)));
        expect(read.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
        expect(read.map(({ seq: _s, saveId: _v, campaignId: _c, ...e }) => e)).toEqual(all);
        expect(log.head("s")).toBe(all.length);
        // Seq ranges and day ranges select exactly the matching events.
        const from = Math.floor(all.length / 3) + 1;
        const to = Math.floor((2 * all.length) / 3);
        expect(log.read("s", { fromSeq: from, toSeq: to }).map((e) => e.seq)).toEqual(
          read.filter((e) => e.seq >= from && e.seq <= to).map((e) => e.seq),
        );
        const lastDay = dayOf(all[all.length - 1]!.t);
        expect(log.readDays("s", 0, 0).map((e) => e.id)).toEqual(
          read.filter((e) => dayOf(e.t) === 0).map((e) => e.id),
        );
        expect(log.readDays("s", 1, lastDay).map((e) => e.id)).toEqual(
          read.filter((e) => dayOf(e.t) >= 1).map((e) => e.id),
        );
      }),
      { numRuns: runs(25) },
    );
  });

  it("folds a batch in SQL as it folds it event by event: rows, rowids, digest and FTS", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const bySql = freshStore(0, 1);
        const oneByOne = freshStore(0, Number.POSITIVE_INFINITY);
        for (const { log } of [bySql, oneByOne]) {
          newSave(log, "s");
          appendBatches(log, "s", batches);
        }
        expect(bySql.log.projectionState("s")).toEqual(oneByOne.log.projectionState("s"));
        expect(bySql.log.projectionHash("s")).toBe(oneByOne.log.projectionHash("s"));
        // Retrieval keys vectors and FTS entries by rowid: the fold must give the same ones.
        const keys: ReadonlyArray<readonly [string, string]> = [
          ["memories", "memory_id"],
          ["world_events", "world_event_id"],
          ["background_debates", "debate_id"],
          ["conversation_turns", "conversation_id || '#' || turn_index"],
        ];
        for (const [table, key] of keys) {
          const rows = (db: typeof bySql.db) =>
            db.prepare(`SELECT rowid, ${key} FROM ${table} ORDER BY rowid`).raw().all();
          expect(rows(bySql.db), table).toEqual(rows(oneByOne.db));
        }
        checkFts(bySql.db);
        checkFts(oneByOne.db);
      }),
      { numRuns: runs(40) },
    );
  });

  it("folds appends made after the first one rolled back (with the scratch tables it made)", async () => {
    await fc.assert(
      fc.asyncProperty(arbEventBatches(), async (batches) => {
        fc.pre(batches.length > 0 && batches[0]!.length > 0);
        const { db, log } = freshStore();
        newSave(log, "s");
        await expect(
          log.atomically(async () => {
            log.append("s", 0, batches[0]!);
            throw new Error("undone");
          }),
        ).rejects.toThrow("undone");
        expect(log.head("s")).toBe(0);
        appendBatches(log, "s", batches);
        const appended = log.projectionState("s");
        db.exec("BEGIN IMMEDIATE");
        try {
          log.rebuildProjections("s");
          expect(appended).toEqual(log.projectionState("s"));
        } finally {
          db.exec("ROLLBACK");
        }
      }),
      { numRuns: runs(10) },
    );
  });

  it("a stale expected seq fails with StaleSeq and writes nothing", () => {
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 20 }),
        fc.integer({ min: -3, max: 3 }),
        (events, off) => {
          fc.pre(off !== 0);
          const { db, log } = freshStore();
          newSave(log, "s");
          const half = Math.floor(events.length / 2);
          log.append("s", 0, events.slice(0, half));
          const before = { rows: rowCounts(db), hash: log.projectionHash("s") };
          const e = caught(() => log.append("s", half + off, events.slice(half)));
          expect(e).toBeInstanceOf(StaleSeq);
          expect(e).toMatchObject({
            _tag: "StaleSeq",
            saveId: "s",
            expectedSeq: half + off,
            headSeq: half,
          });
          expect(rowCounts(db)).toEqual(before.rows);
          expect(log.projectionHash("s")).toBe(before.hash);
        },
      ),
      { numRuns: runs(20) },
    );
  });

  it("an invalid event fails with InvalidEvent naming its index and type, and writes nothing", () => {
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 20 }),
        fc.nat(),
        fc.constantFrom<(e: Event) => unknown>(
          (e) => ({ ...e, t: -5 }),
          (e) => ({ ...e, id: "" }),
          (e) => ({ ...e, version: 99 }),
          (e) => ({ ...e, payload: Object.fromEntries(Object.entries(e.payload).slice(1)) }),
          (e) => ({ ...e, payload: undefined }),
        ),
        (events, at, corrupt) => {
          const { db, log } = freshStore();
          newSave(log, "s");
          log.append("s", 0, events.slice(0, 3));
          const before = { rows: rowCounts(db), hash: log.projectionHash("s") };
          const batch: Array<unknown> = [...events.slice(3)];
          const index = at % batch.length;
          const bad = corrupt(events[3 + index]!);
          const original = events[3 + index]!;
          batch[index] = bad;
          const e = caught(() => log.append("s", 3, batch));
          expect(e).toBeInstanceOf(InvalidEvent);
          expect(e).toMatchObject({ saveId: "s", index, eventType: original.type });
          expect((e as InvalidEvent).message).toContain(`index ${index}`);
          expect(rowCounts(db)).toEqual(before.rows);
          expect(log.projectionHash("s")).toBe(before.hash);
        },
      ),
      { numRuns: runs(30) },
    );
  });

  it("names an unknown event type", () => {
    const { log } = freshStore();
    newSave(log, "s");
    const e = caught(() =>
      log.append("s", 0, [{ type: "DragonSlain", version: 1, id: "x", t: 0, payload: {} }]),
    );
    expect(e).toMatchObject({ _tag: "InvalidEvent", index: 0, eventType: "DragonSlain" });
    expect((e as Error).message).toContain('unknown event type "DragonSlain"');
    expect(caught(() => log.append("s", 0, [42]))).toMatchObject({ eventType: null, index: 0 });
  });

  it("re-appending an event id adds nothing (across batches and within one)", () => {
    fc.assert(
      fc.property(arbEventSequence({ maxSteps: 20 }), fc.nat(), (events, k) => {
        const { db, log } = freshStore();
        newSave(log, "s");
        log.append("s", 0, events);
        const before = { rows: rowCounts(db), hash: log.projectionHash("s") };
        const again = events[k % events.length]!;
        const r = log.append("s", events.length, [again, again]);
        expect(r).toMatchObject({ head: events.length, skipped: 2, appended: [] });
        expect(rowCounts(db)).toEqual(before.rows);
        expect(log.projectionHash("s")).toBe(before.hash);
        // A fresh save stores a duplicated id once, with gapless seqs.
        newSave(log, "t");
        const r2 = log.append("t", 0, [events[0]!, events[0]!, events[1]!]);
        expect(r2.appended.map((e) => [e.seq, e.id])).toEqual([
          [1, events[0]!.id],
          [2, events[1]!.id],
        ]);
      }),
      { numRuns: runs(20) },
    );
  });

  it("two connections to one file cannot both append at the same expected seq", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-two-"));
    try {
      const path = join(dir, "w.db");
      const [a, b] = [
        new SqliteEventLog(openDatabase(path)),
        new SqliteEventLog(openDatabase(path)),
      ];
      newSave(a, "s");
      const events = buildSequence(smallWorld(2), []);
      a.append("s", 0, events.slice(0, 3));
      expect(() => b.append("s", 0, events.slice(3, 6))).toThrow(StaleSeq);
      b.append("s", 3, events.slice(3, 6));
      expect(a.read("s").map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(a.projectionHash("s")).toBe(b.projectionHash("s"));
      a.db.close();
      b.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses unknown saves and duplicate save ids with typed errors", () => {
    const { log } = freshStore();
    expect(caught(() => log.append("nope", 0, []))).toBeInstanceOf(UnknownSave);
    expect(caught(() => log.read("nope"))).toMatchObject({ _tag: "UnknownSave", saveId: "nope" });
    newSave(log, "s");
    expect(caught(() => newSave(log, "s"))).toMatchObject({ _tag: "SaveExists", saveId: "s" });
    expect(log.saves().map((s) => [s.saveId, s.head, s.parent])).toEqual([["s", 0, null]]);
  });
});
