import { foldKnowledge, type GameTime, type ItemKind, knows, type NpcId } from "@hearsay/core";
import { arbEventBatches, smallWorld } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, freshStore, newSave, runs } from "./harness.ts";

const world = smallWorld(4);

describe("knowsAt / knownItems", () => {
  it("agree with core's KnowledgeLedger and knows on random sequences, at every moment", () => {
    fc.assert(
      fc.property(arbEventBatches({ world }), (batches) => {
        const events = batches.flat();
        const { log } = freshStore();
        newSave(log, "s");
        appendBatches(log, "s", batches);
        const ledger = foldKnowledge(events);
        // Every item the log mentions (and one it never does), at every event time and
        // the minute either side of it, for every NPC.
        const items = new Map<string, { kind: ItemKind; id: string }>();
        for (const e of events) {
          if (e.type === "KnowledgeGained") {
            items.set(`${e.payload.itemKind}:${e.payload.itemId}`, {
              kind: e.payload.itemKind,
              id: e.payload.itemId,
            });
          }
          if (e.type === "MemoryRecorded") {
            items.set(`memory:${e.payload.memoryId}`, { kind: "memory", id: e.payload.memoryId });
          }
        }
        items.set("world_event:never", { kind: "world_event", id: "never" });
        const times = new Set<number>();
        for (const e of events) for (const d of [-1, 0, 1]) if (e.t + d >= 0) times.add(e.t + d);
        for (const e of events) {
          if (e.type === "MemoryRecorded" && e.payload.expiresAt !== null) {
            for (const d of [-1, 0, 1]) times.add(e.payload.expiresAt + d);
          }
        }
        for (const npc of world.npcs) {
          for (const t of times) {
            const at = t as GameTime;
            for (const item of items.values()) {
              expect(
                log.knowsAt("s", npc.id, item.kind, item.id, at),
                `${npc.id} ${item.kind}:${item.id} @${t}`,
              ).toBe(knows(ledger, npc.id, item, at));
            }
            const expected = ledger.knownAt(npc.id as NpcId, at).map((k) => ({
              kind: k.kind,
              id: k.id,
              t: k.fact.t,
              via: k.fact.via,
              confidence: k.fact.confidence,
            }));
            const got = log.knownItems("s", npc.id, at).map(({ fromNpcId: _f, ...k }) => k);
            expect(got).toEqual(expected);
            expect(log.knownItems("s", npc.id, at, "memory")).toEqual(
              log.knownItems("s", npc.id, at).filter((k) => k.kind === "memory"),
            );
          }
        }
        expect(log.knowsAt("s", world.npcs[0]!.id, "lore", "anything", 0 as GameTime)).toBe(true);
      }),
      { numRuns: runs(25) },
    );
  });
});
