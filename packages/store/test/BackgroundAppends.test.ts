/**
 * Appends on a worker thread (`appendInBackground`): a file appended through the worker
 * ends with the same log, rows, keys and digest as one appended on the caller's thread,
 * and `append` returns what it would have; every read waits for the batches sent, even
 * from a worker that lags; a batch the worker cannot write is raised on the caller's
 * thread as the store error it was, with nothing after it written; consecutive batches
 * are joined into one append until it fills or the caller waits, each landing whole; an
 * in-memory database keeps appending inline.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Event, ids } from "@hearsay/core";
import {
  InvalidEvent,
  keyedTables,
  openDatabase,
  type SqliteDatabase,
  SqliteEventLog,
  StaleSeq,
} from "@hearsay/store";
import { arbEventBatches, arbEventSequence } from "@hearsay/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSave, rowCounts, runs } from "./harness.ts";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-bg-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = (name: string, sqlFoldFrom = 64) => {
  const db = openDatabase(join(dir, name));
  return { db, log: new SqliteEventLog(db, { sqlFoldFrom }) };
};

const keysOf = (db: SqliteDatabase, save: string) =>
  keyedTables.map((t) =>
    db.prepare(`SELECT rowid FROM ${t} WHERE save_id = ? ORDER BY rowid`).pluck().all(save),
  );

const logOf = (log: SqliteEventLog, save: string) =>
  log.read(save).map((e) => [e.seq, e.id, e.type, e.t, JSON.stringify(e.payload)]);

const stored = (r: { appended: ReadonlyArray<unknown> }) => JSON.stringify(r.appended);

describe("appends on a worker thread", () => {
  it("property: the same log, rows, keys, digest and append results as appending inline", () => {
    const inline = open("inline.db", 8);
    const worker = open("worker.db", 8);
    expect(worker.log.appendInBackground()).toBe(true);
    let n = 0;
    try {
      fc.assert(
        fc.property(arbEventBatches({ minSteps: 4 }), (batches) => {
          // Each run is a save of its own in the same two files, made in the same order.
          const save = `s${n++}`;
          newSave(inline.log, save);
          newSave(worker.log, save);
          let head = 0;
          for (const batch of batches) {
            const a = inline.log.append(save, head, batch);
            const b = worker.log.append(save, head, batch);
            expect(stored(b)).toBe(stored(a));
            expect(b.head).toBe(a.head);
            head = a.head;
          }
          expect(logOf(worker.log, save)).toEqual(logOf(inline.log, save));
          expect(worker.log.projectionHash(save)).toBe(inline.log.projectionHash(save));
          expect(worker.log.projectionState(save)).toEqual(inline.log.projectionState(save));
          expect(keysOf(worker.db, save)).toEqual(keysOf(inline.db, save));
        }),
        { numRuns: runs(12) },
      );
      worker.log.appendInForeground();
      expect(rowCounts(worker.db)).toEqual(rowCounts(inline.db));
    } finally {
      worker.log.appendInForeground();
      inline.db.close();
      worker.db.close();
    }
  });

  it("every read waits for the batches sent, from a worker that lags", () => {
    const inline = open("inline-lag.db");
    const worker = open("worker-lag.db");
    expect(worker.log.appendInBackground({ delayMs: 30 })).toBe(true);
    try {
      const batches = fc.sample(arbEventBatches({ minSteps: 6 }), { numRuns: 1, seed: 7 })[0]!;
      newSave(inline.log, "s");
      newSave(worker.log, "s");
      let head = 0;
      for (const batch of batches) {
        head = inline.log.append("s", head, batch).head;
        expect(worker.log.append("s", worker.log.head("s"), batch).head).toBe(head);
        // Each read right after its batch was sent: the worker has not written it yet.
        expect(worker.log.head("s")).toBe(head);
        expect(worker.log.read("s").length).toBe(head);
        expect(worker.log.projectionHash("s")).toBe(inline.log.projectionHash("s"));
      }
      expect(worker.log.appendWorker.waitedMs).toBeGreaterThan(0);
    } finally {
      worker.log.appendInForeground();
      inline.db.close();
      worker.db.close();
    }
  });

  it("a batch the worker cannot write is raised here as the store error it was; nothing after it lands", () => {
    const { db, log } = open("fail.db");
    newSave(log, "s");
    const batches = fc.sample(arbEventBatches({ minSteps: 3 }), { numRuns: 1, seed: 3 })[0]!;
    const first = log.append("s", 0, batches[0]!);
    // Another connection moves the head behind the worker's back: its next batch is stale.
    const other = new SqliteEventLog(openDatabase(join(dir, "fail.db")));
    expect(log.appendInBackground()).toBe(true);
    try {
      const second = log.append("s", first.head, batches[1]!);
      log.settle();
      other.append("s", second.head, batches[2]!);
      const otherHead = other.head("s");
      log.append("s", second.head, [
        { ...(batches[1]![0] as Event), id: ids.event("e-late") } as Event,
      ]);
      expect(() => log.settle()).toThrow(StaleSeq);
      expect(() => log.append("s", second.head + 1, [])).toThrow(StaleSeq);
      expect(() => log.appendInForeground()).toThrow(StaleSeq);
      expect(log.head("s")).toBe(otherHead);
    } finally {
      log.appendInForeground();
      other.db.close();
      db.close();
    }
  });

  it("an event that does not decode, or not to itself, is refused as InvalidEvent with nothing after it", () => {
    const batches = fc.sample(arbEventBatches({ minSteps: 3 }), { numRuns: 1, seed: 11 })[0]!;
    const good = batches[0]!;
    const e = good[0] as Event;
    // The payload's keys in another order: the same value, but not what the log would hold.
    const reordered = {
      ...e,
      payload: Object.fromEntries(Object.entries(e.payload as object).reverse()),
    };
    const broken = { ...e, payload: { ...(e.payload as object), t: "not a time" }, t: -1 };
    // A time as text: the same digits, but not a number (the batch goes as it is, unpacked).
    const textTime = { ...e, t: String(e.t) };
    for (const [name, bad] of [
      ["reordered.db", reordered],
      ["broken.db", broken],
      ["text-time.db", textTime],
    ] as const) {
      if (name === "reordered.db" && Object.keys(e.payload as object).length < 2) continue;
      const { db, log } = open(name);
      newSave(log, "s");
      expect(log.appendInBackground()).toBe(true);
      try {
        const head = log.append("s", 0, good).head;
        log.append("s", head, [{ ...bad, id: ids.event("e-bad") }]);
        log.append("s", head + 1, batches[1]!);
        expect(() => log.settle()).toThrow(InvalidEvent);
        expect(() => log.appendInForeground()).toThrow(InvalidEvent);
        expect(log.head("s")).toBe(head);
      } finally {
        log.appendInForeground();
        db.close();
      }
    }
  });

  it("batches are joined into one append until 24 are, or the sender waits, and land whole", () => {
    const events = fc.sample(arbEventSequence({ minSteps: 40 }), { numRuns: 1, seed: 17 })[0]!;
    expect(events.length).toBeGreaterThanOrEqual(30);
    for (const [name, waitEach] of [
      ["share.db", false],
      ["share-wait.db", true],
    ] as const) {
      const { db, log } = open(name);
      newSave(log, "s");
      expect(log.appendInBackground()).toBe(true);
      try {
        let head = 0;
        // One event a batch: 30 batches, sent with no read between them or with one after each.
        for (const e of events.slice(0, 30)) {
          head = log.append("s", head, [e]).head;
          if (waitEach) log.settle();
        }
        log.settle();
        // In one go: the 24th batch fills an append, the settle writes the last six.
        expect(log.appendWorker.commits).toBe(waitEach ? 30 : 2);
        expect(log.head("s")).toBe(30);
        expect(log.read("s").map((e) => e.id)).toEqual(events.slice(0, 30).map((e) => e.id));
      } finally {
        log.appendInForeground();
        db.close();
      }
    }
  });

  it("a sender far ahead of its worker waits for it instead of piling batches up", () => {
    const events = fc.sample(arbEventSequence({ minSteps: 40 }), { numRuns: 1, seed: 29 })[0]!;
    const { db, log } = open("ahead.db");
    newSave(log, "s");
    expect(log.appendInBackground({ delayMs: 3 })).toBe(true);
    try {
      let head = 0;
      // 120 one-event batches sent with no read: past 96 in flight, an append waits.
      for (let i = 0; i < 120; i++) {
        const e = events[i % events.length]!;
        head = log.append("s", head, [{ ...e, id: ids.event(`ahead-${i}`) }]).head;
      }
      expect(log.appendWorker.waitedMs).toBeGreaterThan(0);
      log.settle();
      expect(log.head("s")).toBe(120);
    } finally {
      log.appendInForeground();
      db.close();
    }
  });

  it("a joined append that fails takes every batch joined in it back", () => {
    const { db, log } = open("fail-joined.db");
    newSave(log, "s");
    const events = fc.sample(arbEventSequence({ minSteps: 20 }), { numRuns: 1, seed: 19 })[0]!;
    const quarter = Math.ceil(events.length / 4);
    const batches = [0, 1, 2, 3].map((i) => events.slice(i * quarter, (i + 1) * quarter));
    expect(batches[3]!.length).toBeGreaterThan(0);
    const other = new SqliteEventLog(openDatabase(join(dir, "fail-joined.db")));
    expect(log.appendInBackground()).toBe(true);
    try {
      const first = log.append("s", 0, batches[0]!).head;
      log.settle();
      // Two batches sent with no read after them: joined in the worker, not yet written.
      const second = log.append("s", first, batches[1]!).head;
      log.append("s", second, batches[2]!);
      // Meanwhile another connection moves the head: the joined append is stale.
      other.append("s", first, batches[3]!);
      const otherHead = other.head("s");
      expect(() => log.settle()).toThrow(StaleSeq);
      expect(() => log.appendInForeground()).toThrow(StaleSeq);
      expect(log.head("s")).toBe(otherHead);
      const ids = new Set(log.read("s").map((e) => e.id));
      for (const e of [...batches[1]!, ...batches[2]!]) expect(ids.has(e.id)).toBe(false);
    } finally {
      log.appendInForeground();
      other.db.close();
      db.close();
    }
  });

  it("the caller's own stale head is refused at once, as an inline append refuses it", () => {
    const { db, log } = open("stale.db");
    newSave(log, "s");
    expect(log.appendInBackground()).toBe(true);
    try {
      const batch = fc.sample(arbEventBatches({ minSteps: 2 }), { numRuns: 1, seed: 5 })[0]![0]!;
      const head = log.append("s", 0, batch).head;
      expect(() => log.append("s", head + 1, batch)).toThrow(StaleSeq);
      expect(() => log.append("s", 0, batch)).toThrow(StaleSeq);
      log.settle();
      expect(log.head("s")).toBe(head);
    } finally {
      log.appendInForeground();
      db.close();
    }
  });

  it.skipIf(!existsSync("/proc/thread-self"))(
    "the worker runs ten nice steps below the thread that started it (Linux)",
    () => {
      const worker = open("nice.db");
      expect(worker.log.appendInBackground()).toBe(true);
      try {
        newSave(worker.log, "s");
        const batch = fc.sample(arbEventBatches({ minSteps: 1 }), { numRuns: 1, seed: 3 })[0]![0]!;
        worker.log.append("s", 0, batch);
        // The read waits for the worker, which set its priority before it opened the file.
        expect(worker.log.read("s").length).toBe(batch.length);
        const tid = worker.log.appendWorker.threadId;
        expect(tid).toBeGreaterThan(0);
        // Field 19 of a task's stat, counted after its name's closing parenthesis (the name
        // may hold spaces), as bench/lib/threadCpu.ts reads fields 14 and 15.
        const niceOf = (path: string) => {
          const stat = readFileSync(path, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
        };
        expect(niceOf(`/proc/self/task/${tid}/stat`)).toBe(
          Math.min(19, niceOf("/proc/thread-self/stat") + 10),
        );
      } finally {
        worker.log.appendInForeground();
        worker.db.close();
      }
    },
  );

  it("an in-memory database has no worker and appends inline", () => {
    const log = new SqliteEventLog(openDatabase(":memory:"));
    expect(log.appendInBackground()).toBe(false);
    expect(log.appendWorker).toEqual({ waitedMs: 0, threadId: 0, commits: 0 });
  });
});
