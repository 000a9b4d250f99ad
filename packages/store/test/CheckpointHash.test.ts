/**
 * A Checkpoint appended with its hash empty opens its batch, and the store fills the hash
 * in as it writes it: the digest of the read models through its `throughSeq`, the same on
 * the caller's thread and on the append worker (whose joined batches stop before it). A
 * Checkpoint to hash anywhere else is refused with nothing written. While the worker
 * writes, memory texts already committed are read without waiting for it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Event, type GameTime, gameTime, ids, makeEvent } from "@hearsay/core";
import {
  InvalidEvent,
  SqliteEventLog as Log,
  openDatabase,
  type SqliteEventLog,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshStore, newSave, rowCounts, runs } from "./harness.ts";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-ckpt-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = (name: string) => {
  const db = openDatabase(join(dir, name));
  return { db, log: new Log(db, { sqlFoldFrom: 8 }) };
};

/** A Checkpoint for the store to hash, at `head`. */
const checkpointAt = (head: number, t: GameTime, n: number): Event =>
  makeEvent("Checkpoint", {
    id: ids.event(`ck-${n}`),
    t,
    payload: { throughSeq: head, stateHash: "" },
  });

const hashesOf = (log: SqliteEventLog, save: string) =>
  log
    .read(save)
    .filter((e) => e.id.startsWith("ck-"))
    .map((e) => [e.seq, (e.payload as { stateHash: string }).stateHash]);

describe("the store hashes a Checkpoint as it writes it", () => {
  it("property: the digest through its throughSeq, inline and on the worker alike", () => {
    const inline = open("inline.db");
    const worker = open("worker.db");
    expect(worker.log.appendInBackground()).toBe(true);
    let n = 0;
    try {
      fc.assert(
        fc.property(
          arbEventBatches({ minSteps: 4 }),
          fc.array(fc.boolean(), { minLength: 1 }),
          (batches, marks) => {
            const save = `s${n++}`;
            newSave(inline.log, save);
            newSave(worker.log, save);
            const expected: Array<[number, string]> = [];
            let head = 0;
            batches.forEach((batch, i) => {
              // Some batches open with a checkpoint; the worker joins the others freely.
              const sealed = marks[i % marks.length]!;
              const sent = sealed
                ? [checkpointAt(head, batch[0]?.t ?? gameTime(0, 0, 0), i), ...batch]
                : batch;
              const before = inline.log.projectionHash(save);
              const a = inline.log.append(save, head, sent);
              worker.log.append(save, head, sent);
              if (sealed) {
                expected.push([head + 1, before]);
                // Inline, the result holds the hash the row got.
                expect(a.appended[0]).toMatchObject({
                  type: "Checkpoint",
                  payload: { throughSeq: head, stateHash: before },
                });
              }
              head = a.head;
            });
            expect(hashesOf(inline.log, save)).toEqual(expected);
            expect(hashesOf(worker.log, save)).toEqual(expected);
            expect(worker.log.read(save)).toEqual(inline.log.read(save));
            expect(worker.log.projectionHash(save)).toBe(inline.log.projectionHash(save));
          },
        ),
        { numRuns: runs(10) },
      );
    } finally {
      worker.log.appendInForeground();
      inline.db.close();
      worker.db.close();
    }
  });

  it("refuses a Checkpoint to hash that does not open its batch at the head; nothing written", () => {
    const { db, log } = freshStore();
    newSave(log, "s");
    const batch = fc.sample(arbEventBatches({ minSteps: 3 }), { numRuns: 1, seed: 3 })[0]![0]!;
    const head = log.append("s", 0, batch).head;
    const before = rowCounts(db);
    const second = fc.sample(arbEventBatches({ minSteps: 2 }), { numRuns: 1, seed: 4 })[0]![0]!;
    for (const bad of [
      [second[0]!, checkpointAt(head, gameTime(0, 0, 0), 1), ...second.slice(1)],
      [checkpointAt(head - 1, gameTime(0, 0, 0), 2), ...second],
    ]) {
      expect(() => log.append("s", head, bad)).toThrow(InvalidEvent);
      expect(() => log.append("s", head, bad)).toThrow(/Checkpoint .*stateHash is empty/);
      expect(rowCounts(db)).toEqual(before);
    }
  });
});

describe("memory texts while the worker writes", () => {
  const memory = (n: number): Event =>
    makeEvent("MemoryRecorded", {
      id: ids.event(`mem-ev-${n}`),
      t: gameTime(0, 1, 0),
      payload: {
        memoryId: ids.memory(`mem-${n}`),
        ownerNpcId: ids.npc("mara"),
        text: `memory ${n}`,
        category: "observation",
        importance: 0.5,
        expiresAt: null,
        locationId: null,
        entities: [`E${n}`],
        about: null,
      },
    });

  it("reads what is committed without waiting; an id not committed yet waits for it", () => {
    const { db, log } = open("texts.db");
    newSave(log, "s");
    expect(log.appendInBackground({ delayMs: 150 })).toBe(true);
    try {
      let head = log.append("s", 0, [memory(1)]).head;
      log.settle();
      head = log.append("s", head, [memory(2)]).head;
      const waited = log.appendWorker.waitedMs;
      // Committed: no wait for the batch still held back.
      expect(log.memoryTexts("s", ["mem-1"]).get("mem-1")).toEqual({
        text: "memory 1",
        entities: ["E1"],
      });
      expect(log.appendWorker.waitedMs).toBe(waited);
      // Sent, not yet committed: the read waits and finds it.
      expect([...log.memoryTexts("s", ["mem-1", "mem-2"]).keys()].sort()).toEqual([
        "mem-1",
        "mem-2",
      ]);
      expect(log.appendWorker.waitedMs).toBeGreaterThan(waited);
      expect(log.head("s")).toBe(head);
    } finally {
      log.appendInForeground();
      db.close();
    }
  });
});
