import { type GameTime, ids, makeEvent } from "@hearsay/core";
import { SnapshotNotFound } from "@hearsay/store";
import { arbEventSequence } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkFts, freshStore, newSave, runs } from "./harness.ts";

describe("snapshots", () => {
  it("a snapshot at any seq k plus the tail after k equals folding the whole log", () => {
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 40 }).chain((events) =>
          fc.tuple(fc.constant(events), fc.integer({ min: 1, max: events.length })),
        ),
        ([events, k]) => {
          const { db, log } = freshStore();
          newSave(log, "s");
          log.append("s", 0, events.slice(0, k));
          const snap = log.takeSnapshot("s", { actors: k });
          expect(snap.seq).toBe(k);
          expect(snap.stateHash).toBe(log.projectionHash("s"));
          log.append("s", k, events.slice(k));
          const whole = log.projectionState("s");
          // Restore from the snapshot at k: exactly the events k+1.. are folded.
          const r = log.restoreFromSnapshot("s", k);
          expect(r).toEqual({ fromSeq: k, folded: events.length - k });
          expect(log.projectionState("s")).toEqual(whole);
          checkFts(db);
          // The loaded snapshot carries the state at k and the actor payload.
          const loaded = log.loadSnapshot("s", events.length);
          expect(loaded).toMatchObject({
            seq: k,
            stateHash: snap.stateHash,
            actors: { actors: k },
          });
        },
      ),
      { numRuns: runs(35) },
    );
  });

  it("snapshots every N events when an append crosses a multiple of N", () => {
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat({ max: 60 }), { maxLength: 8 }),
        (events, every, cuts) => {
          const { log } = freshStore(every);
          newSave(log, "s");
          const points = [
            ...new Set([0, ...cuts.filter((c) => c < events.length), events.length]),
          ].sort((a, b) => a - b);
          const heads: Array<number> = [];
          for (let i = 1; i < points.length; i++) {
            const r = log.append("s", points[i - 1]!, events.slice(points[i - 1], points[i]));
            const crossed = Math.floor(points[i]! / every) > Math.floor(points[i - 1]! / every);
            expect(r.snapshot !== null).toBe(crossed);
            if (crossed) heads.push(points[i]!);
          }
          expect(log.snapshots("s").map((s) => s.seq)).toEqual(heads);
          // Every automatic snapshot restores to the same state as the whole log.
          const whole = log.projectionHash("s");
          for (const seq of heads) {
            log.restoreFromSnapshot("s", seq);
            expect(log.projectionHash("s")).toBe(whole);
          }
        },
      ),
      { numRuns: runs(30) },
    );
  });

  it("a memory id recorded again after the snapshot still gives its new owner nothing", () => {
    const memory = (id: string, owner: string, t: number) =>
      makeEvent("MemoryRecorded", {
        id: ids.event(id),
        t: t as GameTime,
        payload: {
          memoryId: ids.memory("m1"),
          ownerNpcId: ids.npc(owner),
          text: "the bell",
          category: "observation",
          importance: 1,
          expiresAt: null,
          locationId: null,
          entities: [],
          about: null,
        },
      });
    const { log } = freshStore();
    newSave(log, "s");
    log.append("s", 0, [memory("e1", "ada", 1)]);
    log.takeSnapshot("s");
    log.append("s", 1, [memory("e2", "bram", 2)]);
    expect(log.knowsAt("s", ids.npc("bram"), "memory", "m1", 9 as GameTime)).toBe(false);
    log.restoreFromSnapshot("s");
    expect(log.knowsAt("s", ids.npc("bram"), "memory", "m1", 9 as GameTime)).toBe(false);
    expect(log.knowsAt("s", ids.npc("ada"), "memory", "m1", 9 as GameTime)).toBe(true);
  });

  it("restoring with no snapshot is a typed error", () => {
    const { log } = freshStore();
    newSave(log, "s");
    expect(() => log.restoreFromSnapshot("s")).toThrow(SnapshotNotFound);
    expect(log.loadSnapshot("s")).toBeUndefined();
  });
});
