/**
 * The knowledge-fold agreement test for retrieval: the in-memory view (loaded from the
 * store's rows at some point of the log, then caught up event by event through core's
 * `knowledgeStep`) answers `knows` — and the per-search `knower` predicate — as core's
 * fold of the same hostile log does (testkit's `arbKnowledgeLog`), for every NPC, every
 * memory, world event and debate the view holds, and every time that matters.
 */
import { type Event, type GameTime, ids, makeEvent } from "@hearsay/core";
import type { CollectionName } from "@hearsay/retrieval";
import { SaveView } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import {
  arbKnowledgeLog,
  type KnowledgeItem,
  knowledgeDisagreements,
  knowledgeItems,
} from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => (process.env.HEARSAY_DEEP ? n * 20 : n);

const collectionOf: Partial<Record<KnowledgeItem["kind"], CollectionName>> = {
  memory: "memories",
  world_event: "world_events",
  debate: "background_debates",
};

describe("retrieval's view agrees with core's knowledge fold", () => {
  it("property: knows and knower, loaded at any point of the log and caught up after each append", () => {
    fc.assert(
      fc.property(
        arbKnowledgeLog(),
        // Mostly loaded empty (all by catch-up); otherwise from the store's rows part way.
        fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.nat(), weight: 1 }),
        (batches, cut) => {
          const db = openDatabase(":memory:");
          try {
            const log = new SqliteEventLog(db);
            log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "s" });
            const loadAt = cut % (batches.length + 1);
            // Caught up after every append, as a run's retrieval is, from the load on.
            let loaded: SaveView | undefined;
            batches.forEach((b, i) => {
              if (i === loadAt) loaded = SaveView.load(db, "s");
              log.append("s", log.head("s"), b);
              loaded?.catchUp(log.read("s", { fromSeq: loaded.seq + 1 }));
            });
            const v = loaded ?? SaveView.load(db, "s");
            expect(v.seq).toBe(log.head("s"));

            // Only items the view holds can be asked about (threads are never searched).
            const held = knowledgeItems.filter((item) => {
              const c = collectionOf[item.kind];
              return c !== undefined && v.items[c].localOf(item.id) !== undefined;
            });
            const events: ReadonlyArray<Event> = batches.flat();
            const ask = (npc: string, item: KnowledgeItem, t: number) => {
              const c = collectionOf[item.kind]!;
              const local = v.items[c].localOf(item.id)!;
              const n = v.npcs.intern(npc);
              const answer = v.knows(n, c, local, t);
              if (v.knower(n, c, t)(local) !== answer)
                throw new Error(`knower ≠ knows: ${npc} ${c} ${item.id} ${t}`);
              return answer;
            };
            expect(knowledgeDisagreements(events, ask, held).slice(0, 3)).toEqual([]);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: runs(100) },
    );
  });
});

describe("retrieval's view, worked case", () => {
  it("a memory recorded in one catch-up and expired in the next is known by nobody after", () => {
    const db = openDatabase(":memory:");
    try {
      const log = new SqliteEventLog(db);
      log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "s" });
      const v = SaveView.load(db, "s");
      const ana = ids.npc("ana");
      const memoryId = ids.memory("m1");
      const step = (e: Event) => {
        log.append("s", log.head("s"), [e]);
        v.catchUp(log.read("s", { fromSeq: v.seq + 1 }));
      };
      step(
        makeEvent("MemoryRecorded", {
          id: ids.event("e1"),
          t: 1 as GameTime,
          payload: {
            memoryId,
            ownerNpcId: ana,
            text: "the mill burned",
            category: "observation",
            importance: 0.5,
            expiresAt: null,
            locationId: null,
            entities: [],
            about: null,
          },
        }),
      );
      const local = v.items.memories.localOf(memoryId)!;
      const n = v.npcs.intern(ana);
      expect(v.knows(n, "memories", local, 5)).toBe(true);
      step(
        makeEvent("MemoryExpired", {
          id: ids.event("e2"),
          t: 3 as GameTime,
          payload: { memoryId, ownerNpcId: ana, reason: "forgotten" },
        }),
      );
      expect(v.knows(n, "memories", local, 2)).toBe(true);
      expect(v.knows(n, "memories", local, 3)).toBe(false);
    } finally {
      db.close();
    }
  });
});
