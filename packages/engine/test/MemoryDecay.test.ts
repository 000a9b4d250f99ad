/**
 * Memories fade by category, what a brain reads (or a talk brings to mind) is
 * reinforced, and what fades below the threshold is forgotten — decided by each NPC's
 * actor, identically in a run, a resumed run and one resumed from an engine snapshot.
 */
import {
  defaultMemoryDecay,
  emptyNpcFacts,
  foldNpcFacts,
  importanceAt,
  type MemoryDecay,
  type NpcFacts,
} from "@hearsay/actors";
import type { NpcId } from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { logHash } from "./harness.ts";
import { MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

/** Fast enough that three days forget and reinforce plenty. */
const fast: MemoryDecay = {
  ...defaultMemoryDecay,
  halfLifeDays: {
    ...defaultMemoryDecay.halfLifeDays,
    identity: 0.1,
    background: 1,
    relationship: 1,
    observation: 0.5,
    conversation: 0.5,
    scene: 0.5,
  },
  forgetBelow: 0.15,
  reinforceBy: 0.2,
  reinforceAfterHours: 6,
};

// Every call recorded: its input hash reads each dossier whole, as a live model does.
const spec = { days: 3, recordBrain: true, config: { memoryDecay: fast } } as const;

const ofType = <T extends string>(log: SqliteEventLog, type: T) =>
  log.read(MAIN).filter((e) => e.type === type);

describe("memory decay and reinforcement", () => {
  it("forgets faded memories, never an identity one, and reinforces what was read above what it had faded to", async () => {
    const log = memoryLog();
    const summary = await runHamlet(log, spec);
    const events = log.read(MAIN);
    const facts = new Map<NpcId, NpcFacts>();
    const categories = new Map<string, string>();
    let forgotten = 0;
    let reinforcedCount = 0;
    for (const e of events) {
      if (e.type === "NpcRegistered") facts.set(e.payload.npcId, emptyNpcFacts(e.payload.npcId));
      if (e.type === "MemoryRecorded") categories.set(e.payload.memoryId, e.payload.category);
      if (e.type === "MemoryExpired" && e.payload.reason === "forgotten") {
        forgotten += 1;
        expect(categories.get(e.payload.memoryId)).not.toBe("identity");
        // Forgotten only once faded below the threshold.
        const m = facts.get(e.payload.ownerNpcId)!.memories.get(e.payload.memoryId)!;
        expect(importanceAt(fast, m, e.t)).toBeLessThan(fast.forgetBelow);
      }
      if (e.type === "MemoryReinforced") {
        const held = facts.get(e.payload.ownerNpcId)!.memories;
        const ids = e.payload.memories.map((m) => m.memoryId);
        expect(ids).toEqual([...ids].sort());
        for (const { memoryId, importance } of e.payload.memories) {
          reinforcedCount += 1;
          const before = held.get(memoryId)!;
          expect(before.pinned).toBe(false);
          expect(importance).toBeGreaterThan(importanceAt(fast, before, e.t));
          expect(e.t - before.since).toBeGreaterThanOrEqual(fast.reinforceAfterHours * 60);
        }
      }
      const owner =
        e.type === "MemoryRecorded" || e.type === "MemoryExpired" || e.type === "MemoryReinforced"
          ? facts.get(e.payload.ownerNpcId)
          : undefined;
      if (owner) foldNpcFacts(owner, e);
    }
    expect(forgotten).toBeGreaterThan(0);
    expect(reinforcedCount).toBeGreaterThan(0);
    // The run's summary counts both.
    expect(summary.memoriesGone.forgotten).toBe(forgotten);
    expect(summary.memoriesReinforced).toBe(reinforcedCount);
    // One reinforcement per NPC per tick at most.
    const perTick = ofType(log, "MemoryReinforced").map(
      (e) => `${e.t}/${(e.payload as { ownerNpcId: string }).ownerNpcId}`,
    );
    expect(new Set(perTick).size).toBe(perTick.length);
  });

  it("a run resumed mid-way, from its log or from a snapshot, forgets and reinforces exactly as an uninterrupted one", async () => {
    const whole = memoryLog();
    await runHamlet(whole, spec);
    const split = memoryLog();
    await runHamlet(split, { ...spec, maxTicks: 30 });
    const splitAt = split.head(MAIN);
    await runHamlet(split, { ...spec, resume: true });
    expect(logHash(split)).toBe(logHash(whole));
    // Both kinds happen after the split, so the resume had to decide them itself.
    const after = split.read(MAIN).filter((e) => e.seq > splitAt);
    expect(after.some((e) => e.type === "MemoryReinforced")).toBe(true);
    expect(after.some((e) => e.type === "MemoryExpired" && e.payload.reason === "forgotten")).toBe(
      true,
    );

    const snapped = memoryLog();
    const snaps = { ...spec, config: { ...spec.config, snapshotEveryEvents: 200 } };
    await runHamlet(snapped, { ...snaps, maxTicks: 30 });
    await runHamlet(snapped, { ...snaps, resume: true });
    expect(logHash(snapped)).toBe(logHash(whole));
  });
});
