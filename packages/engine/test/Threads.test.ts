/**
 * Active threads: each lifecycle (seeded → dropped when unmentioned, a task's question →
 * resolved or dropped, an edge's feud → known only to whoever's regard dropped), a
 * property that every run's threads obey the rules read back from its own log, and
 * resume-from-the-log identity with threads and happenings in play.
 */
import { type GameTime, MINUTES_PER_DAY, type StoredEvent } from "@hearsay/core";
import { type BrainShape, ScriptedBrain } from "@hearsay/mind";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { threadWorld } from "./fixtures/threadWorld.ts";
import { freshLog, logHash, MAIN, ofType, run } from "./harness.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });

const knowersOf = (events: ReadonlyArray<StoredEvent>, threadId: string) =>
  events
    .filter(
      (e) =>
        e.type === "KnowledgeGained" &&
        e.payload.itemKind === "thread" &&
        e.payload.itemId === threadId,
    )
    .map((e) => (e.type === "KnowledgeGained" ? e.payload.npcId : ""))
    .sort();

describe("thread lifecycles", () => {
  it("a seeded thread opens at the start, known to its NPCs and knownBy, and drops when unmentioned", async () => {
    const log = freshLog();
    await run(log, { world: threadWorld({ happenings: [] }), config: { threadDropDays: 1 } });
    const events = log.read(MAIN);
    const opened = ofType(log, "ThreadOpened").find((e) => e.payload.threadId === "flour-debt")!;
    expect(opened.t).toBe(360); // the first tick, 06:00 of day 0
    expect(opened.payload).toMatchObject({ kind: "debt", npcIds: ["ada", "eli"] });
    expect(knowersOf(events, "flour-debt")).toEqual(["ada", "eli", "fay"]);
    const closed = ofType(log, "ThreadClosed").find((e) => e.payload.threadId === "flour-debt")!;
    expect(closed.payload.outcome).toBe("dropped");
    // Dropped at the first tick a whole day after it was last mentioned.
    const mentions = events
      .filter(
        (e) =>
          e.seq < closed.seq &&
          ((e.type === "ConversationTurn" &&
            [e.payload.speakerId, ...e.payload.listenerIds].filter(
              (n) => n === "ada" || n === "eli",
            ).length === 2) ||
            (e.type === "KnowledgeGained" && e.payload.itemId === "flour-debt")),
      )
      .map((e) => e.t);
    const last = Math.max(opened.t, ...mentions);
    expect(closed.t - last).toBeGreaterThanOrEqual(MINUTES_PER_DAY);
    expect(closed.t - last).toBeLessThan(MINUTES_PER_DAY + 60);
  });

  it("a proposed task opens a question: resolved when completed, dropped when it expires", async () => {
    const log = freshLog();
    await run(log, {
      world: threadWorld({ threads: [], happenings: [] }),
      // A task nobody takes up expires: the scenario of the rules with no planned steps.
      brain: ScriptedBrain.make({ tuning: { renegotiate: false, agendaSteps: 0 } }),
      days: 4,
      config: { taskSessions: 1 },
    });
    const events = log.read(MAIN);
    const question = (taskId: string) =>
      ofType(log, "ThreadOpened").find((e) => e.payload.source?.id === taskId)!;
    const closeOf = (threadId: string) =>
      ofType(log, "ThreadClosed").find((e) => e.payload.threadId === threadId);
    const wheel = question("fix-wheel");
    expect(wheel.payload.kind).toBe("question");
    expect(knowersOf(events, wheel.payload.threadId)).toEqual(["ada", "fay"]);
    expect(closeOf(wheel.payload.threadId)?.payload.outcome).toBe("resolved");
    const stones = question("count-stones");
    const stonesClosed = closeOf(stones.payload.threadId)!;
    expect(stonesClosed.payload).toMatchObject({
      outcome: "dropped",
      reason: "the task was expired",
    });
    const expired = ofType(log, "TaskStatusChanged").find(
      (e) => e.payload.taskId === "count-stones" && e.payload.to === "expired",
    )!;
    expect(stonesClosed.t).toBe(expired.t);
  });

  it("a promise taken from a conversation opens a promise thread known to both talkers", async () => {
    const scripted = ScriptedBrain.make();
    // Every answer that remembers a talk (an extraction, or an act answer carrying
    // memories) also keeps a promise, so the rule is exercised on every talk.
    const brain: BrainShape = {
      name: scripted.name,
      decide: (request) =>
        Effect.map(scripted.decide(request), (answer) =>
          (answer.output as { memories?: unknown }).memories !== undefined
            ? ({
                ...answer,
                output: {
                  ...(answer.output as object),
                  memories: [
                    ...(answer.output as { memories: ReadonlyArray<unknown> }).memories,
                    {
                      text: "We swore to meet at the ford at dawn.",
                      category: "promise",
                      importance: 0.8,
                      lifetime: "7d",
                    },
                  ],
                },
              } as typeof answer)
            : answer,
        ),
    };
    const log = freshLog();
    await run(log, { world: threadWorld({ threads: [], happenings: [] }), days: 2, brain });
    const promises = ofType(log, "ThreadOpened").filter((e) => e.payload.kind === "promise");
    expect(promises.length).toBeGreaterThan(0);
    const turns = ofType(log, "ConversationTurn");
    for (const p of promises) {
      const conv = p.payload.source!.id;
      const talkers = [
        ...new Set(
          turns
            .filter((t) => t.payload.conversationId === conv)
            .flatMap((t) => [t.payload.speakerId, ...t.payload.listenerIds]),
        ),
      ].sort();
      expect(p.payload.npcIds).toEqual(talkers);
      expect(knowersOf(log.read(MAIN), p.payload.threadId)).toEqual(talkers);
      expect(p.payload.text).toContain("We swore to meet at the ford at dawn.");
    }
    // One thread per conversation, however many promises its talkers keep from it.
    expect(new Set(promises.map((p) => p.payload.source!.id)).size).toBe(promises.length);
  });

  it("an edge below feudBelow opens a feud known only to the one whose regard dropped", async () => {
    const log = freshLog();
    await run(log, {
      world: threadWorld({ threads: [], happenings: [] }),
      days: 1,
      config: { feudBelow: -0.4 },
    });
    const feuds = ofType(log, "ThreadOpened").filter((e) => e.payload.kind === "feud");
    expect(feuds.map((f) => f.payload.npcIds)).toEqual([["cora", "fay"]]);
    expect(knowersOf(log.read(MAIN), feuds[0]!.payload.threadId)).toEqual(["cora"]);
  });

  it("a feud is resolved once both regard each other at or above feudRecoverAt again", async () => {
    // Fay works on the green, so she is at Cora's feast; sharing it warms them.
    const base = threadWorld({ threads: [] });
    const world = {
      ...base,
      npcs: base.npcs.map((n) =>
        n.id === "fay" ? { ...n, workplace: "green" as typeof n.home } : n,
      ),
    };
    const log = freshLog();
    // Regard moves only for reasons now: the feast (+0.03 trust each way) lifts Cora's
    // regard for Fay from -0.515 (after a debate they disagreed in) to -0.485.
    await run(log, { world, days: 2, config: { feudBelow: -0.45, feudRecoverAt: -0.49 } });
    const feud = ofType(log, "ThreadOpened").find((e) => e.payload.kind === "feud")!;
    expect(feud.payload.npcIds).toEqual(["cora", "fay"]);
    const end = ofType(log, "ThreadClosed").find(
      (e) => e.payload.threadId === feud.payload.threadId,
    )!;
    expect(end.payload).toMatchObject({ outcome: "resolved" });
    const edges = ofType(log, "RelationshipChanged").filter(
      (e) => e.seq < end.seq && [e.payload.fromId, e.payload.toId].sort().join("|") === "cora|fay",
    );
    for (const key of ["cora->fay", "fay->cora"]) {
      const last = edges.filter((e) => `${e.payload.fromId}->${e.payload.toId}` === key).at(-1)!;
      expect(regard(last.payload), key).toBeGreaterThanOrEqual(-0.49);
    }
  });
});

/** Regard as the thread rules read it. */
const regard = (p: { trust: number; suspicion: number }) => p.trust - p.suspicion / 2;

describe("every run's threads follow the rules, read back from its own log", () => {
  it("property: opens, knowers, resolutions and drops match an oracle over the log", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 2 }),
        fc.constantFrom(-0.6, -0.45, -0.3, -0.1),
        fc.boolean(),
        async (seed, dropDays, feudBelow, sessions) => {
          const log = freshLog();
          const recoverAt = feudBelow + 0.2;
          await run(log, {
            world: threadWorld({ happenings: [] }),
            seed,
            days: 3,
            config: {
              threadDropDays: dropDays,
              feudBelow,
              feudRecoverAt: recoverAt,
              taskSessions: sessions ? 1 : 3,
            },
          });
          const events = log.read(MAIN);
          const opened = new Map<string, StoredEvent & { type: "ThreadOpened" }>();
          const closed = new Map<string, StoredEvent & { type: "ThreadClosed" }>();
          const lastMention = new Map<string, number>();
          const edges = new Map<string, number>();
          const crossings: Array<{ seq: number; t: number; pair: ReadonlyArray<string> }> = [];
          for (const e of events) {
            if (e.type === "ThreadOpened") {
              expect(opened.has(e.payload.threadId)).toBe(false);
              opened.set(e.payload.threadId, e);
              lastMention.set(e.payload.threadId, e.t);
            }
            if (e.type === "ThreadClosed") {
              expect(opened.has(e.payload.threadId), "closed before it opened").toBe(true);
              expect(closed.has(e.payload.threadId), "closed twice").toBe(false);
              closed.set(e.payload.threadId, e);
              if (e.payload.reason.startsWith("not mentioned"))
                expect(e.t - lastMention.get(e.payload.threadId)!).toBeGreaterThanOrEqual(
                  dropDays * MINUTES_PER_DAY,
                );
            }
            if (e.type === "KnowledgeGained" && e.payload.itemKind === "thread") {
              expect(opened.has(e.payload.itemId), "known before it opened").toBe(true);
              lastMention.set(e.payload.itemId, e.t);
            }
            if (e.type === "RelationshipChanged") {
              const key = `${e.payload.fromId}->${e.payload.toId}`;
              const before = edges.get(key);
              const after = regard(e.payload);
              edges.set(key, after);
              if (after < feudBelow && (before === undefined || before >= feudBelow))
                crossings.push({ seq: e.seq, t: e.t, pair: [e.payload.fromId, e.payload.toId] });
            }
            if (e.type === "ConversationTurn") {
              const talkers = [e.payload.speakerId, ...e.payload.listenerIds];
              for (const [id, o] of opened) {
                if (closed.has(id)) continue;
                if (
                  o.payload.npcIds.includes(e.payload.speakerId) &&
                  e.payload.listenerIds.some((l) => o.payload.npcIds.includes(l)) &&
                  talkers.length > 1
                )
                  lastMention.set(id, e.t);
              }
            }
            if (
              e.type === "TaskStatusChanged" ||
              e.type === "TaskDeadlineMoved" ||
              e.type === "RelationshipChanged"
            ) {
              // A task's status change or moved deadline mentions its question; an edge
              // mentions its pair's feud.
              const sourceId =
                e.type === "RelationshipChanged"
                  ? [e.payload.fromId, e.payload.toId].sort().join("|")
                  : e.payload.taskId;
              for (const [id, o] of opened)
                if (!closed.has(id) && o.payload.source?.id === sourceId) lastMention.set(id, e.t);
            }
          }
          // A feud is open after every drop of an edge below the line (opened by the end of
          // that tick, or already open then), and the one whose regard dropped knows of it.
          for (const x of crossings) {
            const pair = [...x.pair].sort().join("|");
            const feud = [...opened.values()].find(
              (o) =>
                o.payload.source?.id === pair &&
                (o.seq > x.seq
                  ? o.t <= x.t + 60
                  : (closed.get(o.payload.threadId)?.seq ?? Infinity) > x.seq),
            );
            expect(feud, `no feud for ${pair} after seq ${x.seq}`).toBeDefined();
            expect(knowersOf(events, feud!.payload.threadId)).toContain(x.pair[0]);
          }
          // A feud is resolved only when both edges are back at or above recoverAt.
          for (const c of closed.values()) {
            const o = opened.get(c.payload.threadId)!;
            if (o.payload.kind === "feud" && c.payload.outcome === "resolved") {
              const [a, b] = o.payload.npcIds;
              for (const key of [`${a}->${b}`, `${b}->${a}`]) {
                const last = events
                  .filter(
                    (e) =>
                      e.type === "RelationshipChanged" &&
                      e.seq < c.seq &&
                      `${e.payload.fromId}->${e.payload.toId}` === key,
                  )
                  .at(-1);
                if (last?.type === "RelationshipChanged")
                  expect(regard(last.payload)).toBeGreaterThanOrEqual(recoverAt);
              }
            }
          }
          // A task's question closes with the task, the right way round.
          for (const e of events) {
            if (e.type !== "TaskStatusChanged" || e.payload.to === "active") continue;
            const q = [...opened.values()].find((o) => o.payload.source?.id === e.payload.taskId);
            if (!q) continue;
            const c = closed.get(q.payload.threadId);
            expect(c, `question of ${e.payload.taskId} still open`).toBeDefined();
            if (c!.t === e.t && !c!.payload.reason.startsWith("not mentioned"))
              expect(c!.payload.outcome).toBe(
                e.payload.to === "completed" || e.payload.to === "failed" ? "resolved" : "dropped",
              );
          }
          // Nothing still open is overdue by more than a tick.
          const end = log.read(MAIN).at(-1)!.t as GameTime;
          for (const id of opened.keys()) {
            if (closed.has(id)) continue;
            expect(end - lastMention.get(id)!).toBeLessThan(dropDays * MINUTES_PER_DAY + 60);
          }
        },
      ),
      runs(6),
    );
  });
});

describe("threads and happenings replay", () => {
  it("same seed ⇒ same log, and a resume from the log alone ends identical", async () => {
    const world = threadWorld();
    const whole = freshLog();
    await run(whole, { world, config: { feudBelow: -0.4 } });
    const again = freshLog();
    await run(again, { world, config: { feudBelow: -0.4 } });
    expect(logHash(again)).toBe(logHash(whole));
    expect(ofType(whole, "ThreadOpened").length).toBeGreaterThan(2);
    expect(ofType(whole, "HappeningStatusChanged").length).toBeGreaterThan(0);
    for (const stopAfter of [1, 8, 30]) {
      const broken = freshLog();
      await run(broken, { world, config: { feudBelow: -0.4 }, maxTicks: stopAfter });
      await run(broken, { world, config: { feudBelow: -0.4 }, resume: true });
      expect(logHash(broken)).toBe(logHash(whole));
    }
  });
});
