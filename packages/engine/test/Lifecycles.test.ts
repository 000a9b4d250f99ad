import { defaultMemoryDecay, endedAt } from "@hearsay/actors";
import { gameTime, MINUTES_PER_DAY } from "@hearsay/core";
import type { NpcActors } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, ofType, run } from "./harness.ts";

/** The scripted brain with no renegotiating: tasks run their course to the deadline. */
// The tiny world's task scenario (a task nobody takes up expires) is written for the rules
// asked at every significant wake-up: no planned steps (`agendaSteps: 0`).
const steadfast = () => ScriptedBrain.make({ tuning: { renegotiate: false, agendaSteps: 0 } });

describe("task lifecycle", () => {
  it("moves only along legal transitions, and a passed deadline expires an untouched task", async () => {
    const log = freshLog();
    await run(log, { days: 4, brain: steadfast() });
    const legal: Record<string, ReadonlyArray<string>> = {
      proposed: ["active", "rejected", "expired", "cancelled"],
      active: ["completed", "failed", "cancelled", "expired"],
    };
    const status = new Map<string, string>();
    for (const e of ofType(log, "TaskProposed")) status.set(e.payload.taskId, "proposed");
    for (const e of ofType(log, "TaskStatusChanged")) {
      expect(status.get(e.payload.taskId)).toBe(e.payload.from);
      expect(legal[e.payload.from] ?? []).toContain(e.payload.to);
      status.set(e.payload.taskId, e.payload.to);
    }
    const expired = ofType(log, "TaskStatusChanged").find(
      (e) => e.payload.taskId === "count-stones",
    );
    expect(expired?.payload.to).toBe("expired");
    expect(expired?.t).toBe(gameTime(1, 6));
    // Its ending is remembered by both people involved.
    const taskMemories = ofType(log, "MemoryRecorded").filter(
      (e) => e.payload.about?.id === "count-stones" && e.t === expired?.t,
    );
    expect(taskMemories.map((m) => m.payload.ownerNpcId).sort()).toEqual(["ada", "eli"]);
  });

  it("work sessions on an assigned task take it up and complete it", async () => {
    const log = freshLog();
    await run(log, { days: 4, config: { taskSessions: 1 } });
    const moves = ofType(log, "TaskStatusChanged").filter((e) => e.payload.taskId === "fix-wheel");
    expect(moves.map((m) => m.payload.to)).toEqual(["active", "completed"]);
    expect(ofType(log, "WorldEventOccurred").some((e) => e.payload.kind === "task_completed")).toBe(
      true,
    );
  });
});

describe("memories", () => {
  it("expire at the first daily job after their time and stay under the cap, least important first", async () => {
    const log = freshLog();
    let actors: NpcActors | undefined;
    const summary = await run(log, {
      days: 4,
      config: { memoryCap: 8 },
      onActors: (a) => {
        actors = a;
      },
    });
    const recorded = new Map(ofType(log, "MemoryRecorded").map((e) => [e.payload.memoryId, e]));
    const expired = ofType(log, "MemoryExpired");
    const jobsAt = new Set(ofType(log, "MaintenanceRan").map((e) => e.t));
    const lifetimeEnds = expired.filter((x) => x.payload.reason === "expired");
    expect(lifetimeEnds.length).toBeGreaterThan(0);
    for (const e of lifetimeEnds) {
      const m = recorded.get(e.payload.memoryId)!;
      expect(m.payload.expiresAt).not.toBeNull();
      expect(jobsAt.has(e.t)).toBe(true);
      expect(e.t).toBeGreaterThanOrEqual(m.payload.expiresAt!);
      expect(e.t - m.payload.expiresAt!).toBeLessThan(MINUTES_PER_DAY);
    }
    const capped = expired.filter((x) => x.payload.reason === "capped");
    expect(capped.length).toBeGreaterThan(0);
    // After the run nobody holds more than the cap of memories that have not ended (those
    // that have wait for the next daily job), and what they hold is what the log leaves.
    const live = new Map<string, number>();
    for (const m of recorded.values())
      live.set(m.payload.ownerNpcId, (live.get(m.payload.ownerNpcId) ?? 0) + 1);
    for (const e of expired) live.set(e.payload.ownerNpcId, live.get(e.payload.ownerNpcId)! - 1);
    for (const facts of actors!.allFacts()) {
      expect(facts.memories.size).toBe(live.get(facts.npcId) ?? 0);
      const going = [...facts.memories.values()].filter(
        (m) => !endedAt(m, defaultMemoryDecay, summary.t),
      );
      expect(going.length).toBeLessThanOrEqual(8);
    }
    // The gifted identity (importance 1) is never the one dropped.
    for (const e of capped)
      expect(recorded.get(e.payload.memoryId)!.payload.category).not.toBe("identity");
  });
});

describe("debates", () => {
  it("store a summary and an outcome, not a transcript, and tell each participant", async () => {
    const log = freshLog();
    await run(log, { days: 2 });
    const held = ofType(log, "DebateHeld");
    expect(held.length).toBeGreaterThan(0);
    for (const d of held) {
      expect(d.payload.summary.length).toBeGreaterThan(0);
      expect(d.payload.outcome.length).toBeGreaterThan(0);
      expect(d.payload.participants.length).toBeGreaterThanOrEqual(2);
      const knowing = ofType(log, "KnowledgeGained").filter(
        (k) => k.payload.itemKind === "debate" && k.payload.itemId === d.payload.debateId,
      );
      expect(knowing.map((k) => k.payload.npcId).sort()).toEqual(
        [...d.payload.participants].sort(),
      );
      const memories = ofType(log, "MemoryRecorded").filter(
        (m) => m.payload.about?.id === d.payload.debateId,
      );
      expect(memories.map((m) => m.payload.ownerNpcId).sort()).toEqual(
        [...d.payload.participants].sort(),
      );
      expect(
        ofType(log, "WorldEventOccurred").some(
          (w) => w.payload.kind === "debate_outcome" && w.t === d.t,
        ),
      ).toBe(true);
    }
    expect(
      ofType(log, "ConversationTurn").every(
        (c) => !c.payload.conversationId.startsWith("ford-toll"),
      ),
    ).toBe(true);
  });
});

describe("rumours", () => {
  it("spread between co-located NPCs with confidence falling per hop", async () => {
    const log = freshLog();
    await run(log, { days: 4, config: { rumourChance: 1, rumourFloor: 0.1 } });
    const passed = ofType(log, "KnowledgeGained").filter(
      (k) => k.payload.via === "rumor" || k.payload.via === "told",
    );
    expect(passed.length).toBeGreaterThan(0);
    const turns = ofType(log, "ConversationTurn");
    for (const k of passed) {
      expect(k.payload.fromNpcId).not.toBeNull();
      expect(k.payload.confidence).toBeLessThan(1);
      // The teller and the listener were in a conversation at that moment.
      expect(
        turns.some(
          (c) =>
            c.t === k.t &&
            [c.payload.speakerId, ...c.payload.listenerIds].includes(k.payload.npcId) &&
            [c.payload.speakerId, ...c.payload.listenerIds].includes(k.payload.fromNpcId!),
        ),
      ).toBe(true);
      // The teller knew it first, with a higher confidence.
      const teller = ofType(log, "KnowledgeGained").filter(
        (x) =>
          x.payload.npcId === k.payload.fromNpcId &&
          x.payload.itemId === k.payload.itemId &&
          x.seq < k.seq,
      );
      expect(teller.length).toBeGreaterThan(0);
      expect(Math.max(...teller.map((x) => x.payload.confidence))).toBeGreaterThan(
        k.payload.confidence,
      );
    }
  });

  it("a private happening is known only to its participants when it happens", async () => {
    const log = freshLog();
    await run(log, { days: 2 });
    const deal = ofType(log, "KnowledgeGained").filter(
      (k) => k.payload.itemId === "secret-deal" && k.payload.via === "participant",
    );
    expect(deal.map((k) => k.payload.npcId).sort()).toEqual(["dov", "fay"]);
    const atOnce = ofType(log, "KnowledgeGained").filter(
      (k) => k.payload.itemId === "secret-deal" && k.t === deal[0]!.t,
    );
    expect(atOnce).toHaveLength(2);
  });
});

describe("first-meeting profiles", () => {
  it("are generated once per NPC per save, even across a resume", async () => {
    const log = freshLog();
    await run(log, { days: 3, maxTicks: 20 });
    await run(log, { days: 3, resume: true });
    const profiles = ofType(log, "ProfileGenerated").map((p) => p.payload.npcId);
    expect(new Set(profiles).size).toBe(profiles.length);
    expect(profiles.length).toBeGreaterThan(0);
  });
});

describe("time skips", () => {
  it("a jump moves past the skipped days' scheduled events and debates, and no NPC takes a turn", async () => {
    const log = freshLog();
    await run(log, { days: 4, skips: [{ atDay: 1, mode: "jump", days: 2 }] });
    const jump = ofType(log, "ClockAdvanced").find((c) => c.payload.mode === "jump")!;
    expect(jump.payload.from).toBe(gameTime(1));
    expect(jump.payload.to).toBe(gameTime(3));
    // harvest-call is scheduled at 08:00 of day 1, inside the jump: it never happens.
    expect(
      ofType(log, "WorldEventOccurred").some((e) => e.payload.worldEventId === "harvest-call"),
    ).toBe(false);
    const during = log.read(MAIN).filter((e) => e.t > gameTime(1) && e.t < gameTime(3));
    expect(during.some((e) => e.type === "ConversationTurn")).toBe(false);
    expect(during.some((e) => e.type === "DebateHeld")).toBe(false);
    expect(during.some((e) => e.type === "NpcActivityChanged")).toBe(false);
    // Afterwards NPCs live on.
    expect(ofType(log, "NpcActivityChanged").some((e) => e.t > gameTime(3))).toBe(true);
  });

  it("an elision finishes journeys and shifts at once and moves the clock to their end", async () => {
    const log = freshLog();
    await run(log, { days: 2, skips: [{ atDay: 1, atHour: 10, mode: "elision" }] });
    const elision = ofType(log, "ClockAdvanced").find((c) => c.payload.mode === "elision")!;
    expect(elision.payload.to).toBeGreaterThan(elision.payload.from);
    expect(elision.payload.to - elision.payload.from).toBeLessThanOrEqual(MINUTES_PER_DAY);
    const stops = ofType(log, "NpcActivityChanged").filter(
      (e) => e.t === elision.payload.to && e.payload.note === "finished what it was doing",
    );
    expect(stops.length).toBeGreaterThan(0);
  });
});
