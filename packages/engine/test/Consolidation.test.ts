/**
 * Periodic consolidation in a run: old, faint memories of one subject become one memory
 * of the same owner through the brain (`consolidate_memories`), the event naming its
 * sources, every source gone with reason `consolidated`, the new memory known to its
 * owner alone. A run resumed from its log or a snapshot writes the same log, and
 * `replay --verify` of a recorded run answers every consolidation from the log without
 * calling any brain.
 */
import { defaultConsolidation } from "@hearsay/actors";
import type { NpcId, StoredEvent } from "@hearsay/core";
import { verifyLog } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { logHash } from "./harness.ts";
import { hamlet, MAIN, memoryLog, refusingBrain, runHamlet } from "./replay/fixtures.ts";
import { standInBrain } from "./replay/standInBrain.ts";

/** Daily, after a day, for anything faded below 0.6: a short run puts plenty together. */
const consolidation = {
  ...defaultConsolidation,
  everyDays: 1,
  olderThanDays: 1,
  below: 0.6,
  minSources: 2,
};
const spec = { days: 4, recordBrain: true, config: { consolidation } } as const;

type Of<T extends StoredEvent["type"]> = Extract<StoredEvent, { type: T }>;

describe("memory consolidation", () => {
  it("turns each group into one memory of its owner that names its sources, which go", async () => {
    const log = memoryLog();
    const summary = await runHamlet(log, spec);
    const events = log.read(MAIN);
    const npcs = events
      .filter((e): e is Of<"NpcRegistered"> => e.type === "NpcRegistered")
      .map((e) => e.payload.npcId);
    const recorded = new Map<string, Of<"MemoryRecorded">>();
    const gone = new Set<string>();
    let groups = 0;
    let sourcesGone = 0;
    for (const [i, e] of events.entries()) {
      if (e.type === "MemoryRecorded") recorded.set(e.payload.memoryId, e);
      if (e.type === "MemoryExpired") {
        expect(gone.has(e.payload.memoryId)).toBe(false);
        gone.add(e.payload.memoryId);
        if (e.payload.reason === "consolidated") sourcesGone += 1;
      }
      if (e.type !== "MemoriesConsolidated") continue;
      groups += 1;
      const p = e.payload;
      // Its memory is the MemoryRecorded just before it, the same owner's, about its subject.
      const made = events[i - 1]!;
      expect(made.type).toBe("MemoryRecorded");
      const m = (made as Of<"MemoryRecorded">).payload;
      expect(m.memoryId).toBe(p.memoryId);
      expect(m.ownerNpcId).toBe(p.ownerNpcId);
      expect(m.about).toEqual(p.about);
      expect(m.text.length).toBeGreaterThan(0);
      // As much as the most its faded sources mattered: less than the rule's bound.
      expect(m.importance).toBeLessThan(consolidation.below);
      expect(p.sources.length).toBeGreaterThanOrEqual(2);
      for (const [k, source] of p.sources.entries()) {
        // Each source was the owner's, still held, and goes right after, as consolidated.
        const s = recorded.get(source)!;
        expect(s.payload.ownerNpcId).toBe(p.ownerNpcId);
        expect(gone.has(source)).toBe(false);
        expect(e.t - s.t).toBeGreaterThanOrEqual(consolidation.olderThanDays * 1440);
        const after = events[i + 1 + k]!;
        expect(after.type).toBe("MemoryExpired");
        expect((after as Of<"MemoryExpired">).payload).toEqual({
          memoryId: source,
          ownerNpcId: p.ownerNpcId,
          reason: "consolidated",
        });
      }
      // Known to its owner alone.
      for (const npc of npcs)
        expect(log.knowsAt(MAIN, npc as NpcId, "memory", p.memoryId, e.t)).toBe(
          npc === p.ownerNpcId,
        );
    }
    expect(groups).toBeGreaterThan(3);
    expect(summary.memoriesGone.consolidated).toBe(sourcesGone);
    expect(summary.brainCallsByPurpose.consolidate_memories).toBe(groups);
    expect(summary.jobsRun.consolidate).toBeGreaterThanOrEqual(3);
    // Every call is recorded, as a model's would be.
    const calls = events.filter(
      (e) => e.type === "LlmCallRecorded" && e.payload.purpose === "consolidate_memories",
    );
    expect(calls.length).toBe(groups);
  });

  it("a run resumed from its log or a snapshot consolidates exactly as an uninterrupted one", async () => {
    const whole = memoryLog();
    await runHamlet(whole, spec);
    const split = memoryLog();
    await runHamlet(split, { ...spec, maxTicks: 40 });
    await runHamlet(split, { ...spec, resume: true });
    expect(logHash(split)).toBe(logHash(whole));
    const snapped = memoryLog();
    const snaps = { ...spec, config: { ...spec.config, snapshotEveryEvents: 300 } };
    await runHamlet(snapped, { ...snaps, maxTicks: 40 });
    await runHamlet(snapped, { ...snaps, resume: true });
    expect(logHash(snapped)).toBe(logHash(whole));
  });

  it("replay --verify of a recorded run answers every consolidation from the log, calling no brain", async () => {
    const log = memoryLog();
    await runHamlet(log, { ...spec, brain: standInBrain() });
    expect(
      log
        .read(MAIN)
        .some((e) => e.type === "LlmCallRecorded" && e.payload.purpose === "consolidate_memories"),
    ).toBe(true);
    const { brain: refuse, calls: asked } = refusingBrain();
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      config: { consolidation },
      scripted: () => refuse,
    });
    expect(report.ok).toBe(true);
    expect(asked()).toBe(0);
  });
});
