/**
 * A jump moves the clock and applies only what time alone decides: task deadlines (and
 * what an expired task leaves: its memories, its question thread closed), the maintenance
 * jobs (memory expiry and forgetting by decay, consolidation), caps, stale threads. Nothing else is written in its span —
 * no turns, no talk, no happenings, no debates, no scene closes — and `replay --verify`
 * re-makes it. A log recorded when a jump still ran the world's rules refolds, and
 * verify reports where the two first differ instead of failing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredEvent } from "@hearsay/core";
import { refoldLog, verifyLog } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hamlet, loadJsonl, MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

/** The event kinds a jump may write in its span. */
const jumpKinds = new Set([
  "ClockAdvanced",
  "MemoryExpired",
  "MemoryRecorded",
  "TaskStatusChanged",
  "ThreadClosed",
  "Checkpoint",
  // The maintenance jobs: the daily one, and consolidation with its brain call.
  "MaintenanceRan",
  "MemoriesConsolidated",
  "LlmCallRecorded",
]);

const jumpOf = (events: ReadonlyArray<StoredEvent>) => {
  const clock = events.find(
    (e): e is Extract<StoredEvent, { type: "ClockAdvanced" }> =>
      e.type === "ClockAdvanced" && e.payload.mode === "jump",
  )!;
  const { from, to } = clock.payload;
  return { clock, span: events.filter((e) => e.t > from && e.t <= to) };
};

describe("a jump", () => {
  it("property: over seeds, a 30-day jump writes only deadlines, expiries and what they leave", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), async (seed) => {
        const log = memoryLog();
        await runHamlet(log, {
          seed,
          days: 32,
          skips: [{ atDay: 1, atHour: 12, mode: "jump", days: 30 }],
        });
        const events = log.read(MAIN);
        const { clock, span } = jumpOf(events);
        expect(clock.payload.to - clock.payload.from).toBe(30 * 1440);
        const kinds = [...new Set(span.map((e) => e.type))].sort();
        expect(kinds.filter((k) => !jumpKinds.has(k))).toEqual([]);
        // Every memory it records is what a task that ran out of time leaves.
        const expired = new Set(
          span.flatMap((e) =>
            e.type === "TaskStatusChanged" && e.payload.to === "expired" ? [e.payload.taskId] : [],
          ),
        );
        const consolidated = new Set(
          span.flatMap((e) => (e.type === "MemoriesConsolidated" ? [e.payload.memoryId] : [])),
        );
        for (const e of span) {
          if (e.type === "TaskStatusChanged") expect(e.payload.to).toBe("expired");
          if (e.type === "MemoryRecorded" && !consolidated.has(e.payload.memoryId)) {
            expect(e.payload.category).toBe("task");
            expect(expired.has(e.payload.about?.id as never)).toBe(true);
          }
        }
        // Thirty days is longer than every "30d" lifetime and every scene memory's
        // half-life: the jump must have let memories go.
        expect(span.filter((e) => e.type === "MemoryExpired").length).toBeGreaterThan(0);
        // The NPCs live on afterwards.
        expect(
          events.some((e) => e.type === "ConversationTurn" && e.t > clock.payload.to) ||
            events.some((e) => e.type === "NpcActivityChanged" && e.t > clock.payload.to),
        ).toBe(true);
      }),
      { numRuns: 3 },
    );
  }, 600_000);

  it("forgets by decay in its span as the ticks would: every memory ended by its end is gone", async () => {
    const log = memoryLog();
    await runHamlet(log, {
      days: 32,
      skips: [{ atDay: 1, atHour: 12, mode: "jump", days: 30 }],
    });
    const { clock, span } = jumpOf(log.read(MAIN));
    const reasons = new Set(
      span.flatMap((e) => (e.type === "MemoryExpired" ? [e.payload.reason] : [])),
    );
    expect(reasons.has("forgotten")).toBe(true);
    // Nothing the log holds as alive at the jump's end had its lifetime end before the
    // last daily job in the span (03:00 each game day).
    const lastJob = Math.floor((clock.payload.to - 180) / 1440) * 1440 + 180;
    const alive = new Map<string, number | null>();
    for (const e of log.read(MAIN)) {
      if (e.t > clock.payload.to) break;
      if (e.type === "MemoryRecorded") alive.set(e.payload.memoryId, e.payload.expiresAt);
      if (e.type === "MemoryExpired") alive.delete(e.payload.memoryId);
    }
    const overdue = [...alive].filter(([, at]) => at !== null && at <= lastJob);
    expect(overdue).toEqual([]);
  }, 300_000);

  it("is re-made by replay --verify", async () => {
    const log = memoryLog();
    await runHamlet(log, {
      days: 5,
      skips: [{ atDay: 1, atHour: 12, mode: "jump", days: 3 }],
    });
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
  }, 300_000);
});

describe("a log recorded when a jump still ran the world's rules", () => {
  // Recorded by the build before jumps changed (main at 1758eb3): the hamlet, seed 7, two
  // days, a one-day jump from 12:00 of day 0. Its jump holds world events, scene closes,
  // world memories and NPCs finishing what they were doing.
  const text = readFileSync(join(import.meta.dirname, "fixtures", "oldJump", "log.jsonl"), "utf8");

  it("refolds with every checkpoint matching", () => {
    const refold = refoldLog({ log: loadJsonl(text), saveId: MAIN });
    expect(refold.mismatch).toBeNull();
  });

  it("verify reports the first event the jump no longer writes, not a crash", async () => {
    const log = loadJsonl(text);
    const events = log.read(MAIN);
    const { span } = jumpOf(events);
    const first = span.find((e) => !jumpKinds.has(e.type))!;
    expect(first).toBeDefined();
    // Behaviour changed before the jump too since it was recorded (daily maintenance,
    // task renegotiation, shared scene summaries): verify must still run to the end and
    // name a divergence no later than the first event the jump no longer writes.
    const never = { bands: [], belowDays: null, pinned: [] };
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      config: { worldEventLifetimes: never },
    });
    expect(report.ok).toBe(false);
    expect(report.divergence).not.toBeNull();
    expect(report.divergence!.seq).toBeLessThanOrEqual(first.seq);
    expect(events.some((e) => e.seq === report.divergence!.seq)).toBe(true);
  }, 300_000);
});
