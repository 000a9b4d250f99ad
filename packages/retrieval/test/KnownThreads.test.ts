/**
 * The threads section reads the view's `KnownThreads`, not the tables: for any log of
 * threads opening and closing (an id opened twice, a close of an unknown or closed
 * thread) and NPCs learning of them (again, earlier, later, or of threads that never
 * opened), the view — loaded from the read models, or fed the appends — answers every
 * NPC at every time as the store's query (`ThreadSource`) does.
 */
import { ids, type StoredEvent } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SaveView } from "../src/SaveView.ts";
import { ThreadSource } from "../src/ThreadSection.ts";

const NPCS = ["npc-a", "npc-b", "npc-c"];
const KINDS = ["promise", "feud", "debt", "question", "secret"] as const;

type Step =
  | { readonly op: "open"; readonly thread: number; readonly kind: number; readonly dt: number }
  | { readonly op: "close"; readonly thread: number; readonly dt: number }
  | { readonly op: "learn"; readonly npc: number; readonly thread: number; readonly dt: number };

const dt = fc.constantFrom(0, 0, 1, 5, 60);
const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant("open" as const),
    thread: fc.nat({ max: 5 }),
    kind: fc.nat({ max: 4 }),
    dt,
  }),
  fc.record({ op: fc.constant("close" as const), thread: fc.nat({ max: 6 }), dt }),
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("learn" as const),
      npc: fc.nat({ max: NPCS.length - 1 }),
      thread: fc.nat({ max: 6 }),
      dt,
    }),
  },
);

/** The steps as events (learning goes back in time now and then: an earlier fact). */
const eventsOf = (steps: ReadonlyArray<Step>) => {
  let t = 0;
  return steps.map((s, i) => {
    t += s.dt;
    const base = { id: `ev-${i + 1}`, t };
    const threadId = `thread-${s.thread}`;
    switch (s.op) {
      case "open":
        return {
          ...base,
          type: "ThreadOpened",
          version: 1,
          payload: {
            threadId,
            kind: KINDS[s.kind]!,
            text: `thread ${s.thread} at ${t}`,
            npcIds: [NPCS[s.thread % NPCS.length]!, NPCS[(s.thread + 1) % NPCS.length]!].sort(),
            source: null,
          },
        };
      case "close":
        return {
          ...base,
          type: "ThreadClosed",
          version: 1,
          payload: { threadId, outcome: "resolved", reason: "done" },
        };
      default:
        return {
          ...base,
          type: "KnowledgeGained",
          version: 1,
          payload: {
            npcId: NPCS[s.npc]!,
            itemKind: "thread",
            itemId: threadId,
            via: "told",
            fromNpcId: null,
            confidence: 1,
          },
        };
    }
  });
};

describe("the view's threads", () => {
  it("property: answer every NPC at every time as the store's thread query does", () => {
    fc.assert(
      fc.property(
        fc.array(arbStep, { minLength: 10, maxLength: 80 }),
        fc.array(fc.nat({ max: 59 }), { maxLength: 6 }),
        (steps, cuts) => {
          const db = openDatabase(":memory:");
          const log = new SqliteEventLog(db, { sqlFoldFrom: 1 });
          log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "s" });
          const events = eventsOf(steps);
          const points = [...new Set([0, ...cuts.map((c) => c % events.length), events.length])];
          points.sort((a, b) => a - b);
          const half = points[Math.floor(points.length / 2)]!;
          const sql = new ThreadSource(db);
          let fed: SaveView | null = null;
          for (let i = 0; i + 1 < points.length; i++) {
            const batch = events.slice(points[i], points[i + 1]);
            const r = log.appendLogOnly("s", log.head("s"), batch);
            if (points[i + 1] === half || (fed === null && points[i + 1]! > half)) {
              log.caughtUp("s");
              fed = SaveView.load(db, "s");
            } else fed?.catchUp(r.appended as ReadonlyArray<StoredEvent>);
          }
          log.caughtUp("s");
          const loaded = SaveView.load(db, "s");
          // Every time something happened, and just before and after it.
          const times = [...new Set(events.flatMap((e) => [e.t - 1, e.t, e.t + 1]))];
          for (const npc of [...NPCS, "npc-nobody"]) {
            for (const t of times) {
              const want = sql.openKnown("s", npc, t);
              expect(loaded.threads.openKnown("s", npc, t), `${npc} at ${t}`).toEqual(want);
              expect(fed!.threads.openKnown("s", npc, t), `${npc} at ${t}, fed`).toEqual(want);
            }
          }
          db.close();
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 60 },
    );
  });
});
