/**
 * The knowledge-fold agreement test for the inspector: its history of who knew what
 * (KnowledgeIndex.ts, read straight from the log's rows, refreshed in pieces) says, after
 * every seq, exactly the facts core's fold of the same hostile log (testkit's
 * `arbKnowledgeLog`) holds through that seq — each NPC's fact (time, via, teller,
 * confidence) for every item, how many NPCs knew it, in what order they came to, and
 * how many memories were recorded and not yet gone.
 */
import { ids, KnowledgeLedger, type StoredEvent } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { arbKnowledgeLog, knowledgeItems, knowledgeNpcs } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KnowledgeIndex } from "../src/KnowledgeIndex.ts";

const runs = (n: number) => (process.env.HEARSAY_DEEP ? n * 20 : n);

describe("the inspector's knowledge history agrees with core's knowledge fold", () => {
  it("property: after every seq, the same fact per NPC and item, the same count and order, the same live memories", () => {
    fc.assert(
      fc.property(arbKnowledgeLog(), fc.nat(), (batches, cut) => {
        const db = openDatabase(":memory:");
        try {
          const log = new SqliteEventLog(db);
          log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "s" });
          for (const b of batches) log.append("s", log.head("s"), b);
          const head = log.head("s");
          // Refreshed in two pieces, as the inspector follows a running save.
          const index = new KnowledgeIndex();
          const mid = cut % (head + 1);
          index.ingest(db, "s", 1, mid);
          index.ingest(db, "s", mid + 1, head);

          const stored: ReadonlyArray<StoredEvent> = log.read("s", { fromSeq: 1 });
          const ledger = new KnowledgeLedger();
          /** Order in which NPCs first came to know each item, through the current seq. */
          const order = new Map<string, Array<string>>();
          const bad: Array<string> = [];
          let live = 0;
          for (const e of stored) {
            for (const c of ledger.apply(e)) {
              if (c.type === "recorded") live += 1;
              if (c.type === "died") live -= 1;
              if (c.type !== "fact" || !c.first) continue;
              const key = `${c.itemKind}:${c.itemId}`;
              order.set(key, [...(order.get(key) ?? []), c.npcId]);
            }
            for (const item of knowledgeItems) {
              const key = `${item.kind}:${item.id}`;
              for (const npc of knowledgeNpcs) {
                const want = ledger.fact(npc, item.kind, item.id);
                const got = index.factOf(item.kind, item.id, npc, e.seq);
                const gotFact = got && {
                  t: got.t,
                  via: got.via,
                  fromNpcId: got.fromNpcId,
                  confidence: got.confidence,
                };
                if (JSON.stringify(gotFact) !== JSON.stringify(want)) {
                  bad.push(
                    `${npc} ${key} after seq ${e.seq}: index ${JSON.stringify(gotFact)}, core ${JSON.stringify(want)}`,
                  );
                }
              }
              const knowers = index.knowers(item.kind, item.id, e.seq).map((f) => f.npcId);
              if (JSON.stringify(knowers) !== JSON.stringify(order.get(key) ?? [])) {
                bad.push(`${key} after seq ${e.seq}: knowers ${knowers}, core ${order.get(key)}`);
              }
              if (index.count(item.kind, item.id, e.seq) !== knowers.length) {
                bad.push(`${key} after seq ${e.seq}: count ≠ knowers`);
              }
            }
            if (index.liveMemories.valueAt(e.seq, 0) !== live) {
              bad.push(
                `after seq ${e.seq}: ${index.liveMemories.valueAt(e.seq, 0)} live memories, core ${live}`,
              );
            }
          }
          expect(bad.slice(0, 3)).toEqual([]);
        } finally {
          db.close();
        }
      }),
      { numRuns: runs(60) },
    );
  });
});
