/**
 * The bulk fold (rebuilds, snapshot restores, branches, and `importHistory`, replay's
 * refold) against the event-by-event fold of appends: same rows, same digest — at the
 * end and, for an import, at every Checkpoint along the way — and the digest triggers
 * back in place afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { currentVersions, type Event, ids, type StoredEvent } from "@hearsay/core";
import {
  InvalidEvent,
  openDatabase,
  projectionDigestColumns,
  readDigest,
  recomputeDigest,
  SqliteEventLog,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  appendBatches,
  appendRecordingCheckpoints,
  checkFts,
  freshStore,
  newSave,
  rowCounts,
  runs,
} from "./harness.ts";

/** A stored event as it was appended (without seq, save and campaign). */
const asAppended = (e: StoredEvent): Event =>
  ({ type: e.type, version: e.version, id: e.id, t: e.t, payload: e.payload }) as Event;

/** The upcaster of the rows these tests leave at version 0: to the current version, as is. */
const upcast = (raw: unknown) => {
  const e = raw as StoredEvent;
  return (e.version as number) === 0 ? { ...e, version: currentVersions.get(e.type) } : e;
};

const triggerNames = (log: SqliteEventLog): ReadonlyArray<string> =>
  log.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    .pluck()
    .all() as Array<string>;

describe("the bulk fold", () => {
  it("imports a history with the incremental digest at every Checkpoint and the same rows at the end", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const source = freshStore(7);
        newSave(source.log, "s");
        const incremental = appendRecordingCheckpoints(source.log, "s", batches);

        const target = freshStore();
        const atCheckpoint = new Map<string, string>();
        const result = target.log.importHistory(source.log, {
          saveId: ids.save("s"),
          onCheckpoint: (e, probe) => {
            expect(probe.throughSeq).toBe(e.seq - 1);
            atCheckpoint.set(e.id, probe.digest());
            return true;
          },
        });
        expect(result).toEqual({ head: source.log.head("s"), stopped: false });
        expect(atCheckpoint).toEqual(incremental);
        expect(target.log.projectionHash("s")).toBe(source.log.projectionHash("s"));
        expect(target.log.projectionState("s")).toEqual(source.log.projectionState("s"));
        expect(readDigest(target.db, "s")).toBe(
          recomputeDigest(target.db, "s", projectionDigestColumns),
        );
        expect(target.log.read("s")).toEqual(source.log.read("s"));
        checkFts(target.db);
        expect(triggerNames(target.log)).toEqual(triggerNames(source.log));
      }),
      { numRuns: runs(12) },
    );
  });

  it("rebuilds, restores snapshots and builds branches to the incremental digest, triggers intact after", () => {
    fc.assert(
      fc.property(
        arbEventBatches(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (batches, frac) => {
          const { db, log } = freshStore(7);
          newSave(log, "s");
          appendBatches(log, "s", batches);
          const hash = log.projectionHash("s");
          const state = log.projectionState("s");
          const triggers = triggerNames(log);

          log.rebuildProjections("s");
          expect(log.projectionHash("s")).toBe(hash);
          if (log.loadSnapshot("s") !== undefined) {
            log.restoreFromSnapshot("s");
            expect(log.projectionHash("s")).toBe(hash);
          }
          expect(log.projectionState("s")).toEqual(state);

          // A branch is built from the nearest snapshot plus the shared events (in bulk,
          // beside another save's rows): the digest of appending that prefix.
          const at = Math.floor(log.head("s") * frac);
          log.createSave({
            saveId: ids.save("b"),
            campaignId: ids.campaign("campaign-1"),
            name: "b",
            parent: { saveId: ids.save("s"), seq: at },
          });
          const history = log.read("s").map(asAppended);
          const prefix = freshStore();
          newSave(prefix.log, "b");
          if (at > 0) prefix.log.append("b", 0, history.slice(0, at));
          expect(log.projectionHash("b")).toBe(prefix.log.projectionHash("b"));
          expect(log.projectionHash("s")).toBe(hash);

          // The triggers are back: appends after a bulk fold keep the digest true.
          expect(triggerNames(log)).toEqual(triggers);
          log.rebuildProjections();
          const tail = history.slice(at);
          if (tail.length > 0) log.append("b", log.head("b"), tail);
          expect(log.projectionHash("b")).toBe(hash);
          for (const save of ["s", "b"]) {
            expect(readDigest(db, save)).toBe(recomputeDigest(db, save, projectionDigestColumns));
          }
          checkFts(db);
        },
      ),
      { numRuns: runs(10) },
    );
  });

  it("stops an import at a Checkpoint when told to, holding exactly the events before it", () => {
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 10 }), fc.nat(), (batches, pick) => {
        const source = freshStore();
        newSave(source.log, "s");
        const incremental = appendRecordingCheckpoints(source.log, "s", batches);
        const checkpoints = source.log.read("s").filter((e) => e.type === "Checkpoint");
        fc.pre(checkpoints.length > 0);
        const stop = checkpoints[pick % checkpoints.length]!;

        const target = freshStore();
        const result = target.log.importHistory(source.log, {
          saveId: ids.save("s"),
          onCheckpoint: (e) => e.seq !== stop.seq,
        });
        expect(result).toEqual({ head: stop.seq - 1, stopped: true });
        expect(target.log.head("s")).toBe(stop.seq - 1);
        expect(target.log.projectionHash("s")).toBe(incremental.get(stop.id));
        expect(readDigest(target.db, "s")).toBe(
          recomputeDigest(target.db, "s", projectionDigestColumns),
        );
      }),
      { numRuns: runs(10) },
    );
  });

  it("copies the same rows from a database on disk (attached) as from one in memory, upcast ones rewritten", () => {
    const [batches] = fc.sample(arbEventBatches({ minSteps: 30 }), { numRuns: 1, seed: 11 });
    const dir = mkdtempSync(join(tmpdir(), "hearsay-import-"));
    try {
      const onDisk = new SqliteEventLog(openDatabase(join(dir, "source.db")));
      const inMemory = freshStore().log;
      for (const log of [onDisk, inMemory]) {
        newSave(log, "s");
        appendBatches(log, "s", batches!);
        // One row left at an old version, and the upcaster that knows it.
        log.db.prepare("UPDATE events SET version = 0 WHERE save_id = 's' AND seq = 3").run();
      }
      const [fromDisk, fromMemory] = [onDisk, inMemory].map((source) => {
        const target = freshStore().log;
        target.importHistory(source, { saveId: ids.save("s"), upcast });
        return target;
      });
      expect(fromDisk!.read("s")).toEqual(fromMemory!.read("s"));
      expect(fromDisk!.read("s")).toEqual(inMemory.read("s").map((e) => upcast(e)));
      expect(fromDisk!.projectionHash("s")).toBe(fromMemory!.projectionHash("s"));
      expect(
        fromDisk!.db.prepare("SELECT count(*) FROM events WHERE version = 0").pluck().get(),
      ).toBe(0);
      expect(fromDisk!.db.prepare("PRAGMA database_list").all()).toHaveLength(
        fromMemory!.db.prepare("PRAGMA database_list").all().length,
      );
      onDisk.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows the caller the events of the types it asks for, in seq order, and folds the rest as without it", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-import-"));
    let file = 0;
    try {
      fc.assert(
        fc.property(
          arbEventBatches({ minSteps: 10 }),
          fc.boolean(),
          fc.boolean(),
          fc.nat(),
          fc.array(fc.nat(), { maxLength: 6 }),
          (batches, disk, old, at, picks) => {
            const source = disk
              ? new SqliteEventLog(openDatabase(join(dir, `source-${file++}.db`)))
              : freshStore().log;
            try {
              newSave(source, "s");
              appendBatches(source, "s", batches);
              const head = source.head("s");
              fc.pre(head > 0);
              // An event left at an old version makes the import take SQLite's share back.
              const oldSeq = (at % head) + 1;
              if (old) {
                source.db
                  .prepare("UPDATE events SET version = 0 WHERE save_id = 's' AND seq = ?")
                  .run(oldSeq);
              }
              const history = source.read("s").map((e) => upcast(e) as StoredEvent);
              const present = [...new Set(history.map((e) => e.type))].sort();
              const types = [...new Set(picks.map((i) => present[i % present.length]!))];
              const shown: Array<StoredEvent> = [];
              const target = freshStore().log;
              target.importHistory(source, {
                saveId: ids.save("s"),
                upcast,
                onEvent: (e) => shown.push(e),
                onEventTypes: types,
              });
              const plain = freshStore().log;
              plain.importHistory(source, { saveId: ids.save("s"), upcast });
              const fields = (e: StoredEvent) => [e.seq, e.id, e.type, e.version, e.t, e.payload];
              expect(shown.map(fields)).toEqual(
                history.filter((e) => types.includes(e.type)).map(fields),
              );
              expect(target.projectionHash("s")).toBe(plain.projectionHash("s"));
              expect(target.projectionState("s")).toEqual(plain.projectionState("s"));
              expect(target.read("s")).toEqual(plain.read("s"));
            } finally {
              source.db.close();
            }
          },
        ),
        { numRuns: runs(16) },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an event left at an old version, naming its seq, and writes nothing", () => {
    const [batches] = fc.sample(arbEventBatches({ minSteps: 20 }), { numRuns: 1, seed: 7 });
    const source = freshStore();
    newSave(source.log, "s");
    appendBatches(source.log, "s", batches!);
    const seq = Math.ceil(source.log.head("s") / 2);
    source.db.prepare("UPDATE events SET version = 0 WHERE save_id = 's' AND seq = ?").run(seq);

    const target = freshStore();
    const before = rowCounts(target.db);
    let error: unknown;
    try {
      target.log.importHistory(source.log, { saveId: ids.save("s") });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidEvent);
    expect((error as InvalidEvent).index).toBe(seq - 1);
    expect((error as InvalidEvent).detail).toMatch(/version/);
    expect(rowCounts(target.db)).toEqual(before);
    expect(triggerNames(target.log)).toEqual(triggerNames(source.log));
  });
});
