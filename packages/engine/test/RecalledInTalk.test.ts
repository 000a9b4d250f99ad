import type { MemoryId, NpcId } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recalledInTalk, type TalkTurn } from "../src/Memories.ts";

const npcs = ["a", "b", "c", "d", "e"] as const;
const npcArb = fc.constantFrom(...npcs);

const turnArb: fc.Arbitrary<TalkTurn> = fc.record({
  speakerId: npcArb,
  listenerIds: fc.array(npcArb, { maxLength: 3 }),
});

type About = { readonly about: { readonly kind: string; readonly id: string } | null };

const memoryArb: fc.Arbitrary<About> = fc.oneof(
  fc.constant({ about: null }),
  fc.record({ about: fc.record({ kind: fc.constantFrom("npc", "conversation"), id: npcArb }) }),
);

/** Each NPC's memories, in the order held; some NPCs hold none (no facts at all). */
const heldArb = fc.dictionary(
  npcArb,
  fc
    .array(memoryArb, { maxLength: 8 })
    .map((ms) => new Map(ms.map((m, i) => [`m${i}` as MemoryId, m] as const))),
);

/** The rule turn by turn: each participant recalls its memories about the others in it. */
const turnByTurn = (
  turns: ReadonlyArray<TalkTurn>,
  held: Readonly<Record<string, ReadonlyMap<MemoryId, About>>>,
): Map<string, Set<MemoryId>> => {
  const out = new Map<string, Set<MemoryId>>();
  for (const turn of turns) {
    const people = [turn.speakerId, ...turn.listenerIds];
    for (const self of people) {
      const memories = held[self];
      if (memories === undefined) continue;
      const ids = out.get(self) ?? new Set<MemoryId>();
      for (const [id, m] of memories)
        if (m.about?.kind === "npc" && m.about.id !== self && people.includes(m.about.id))
          ids.add(id);
      if (ids.size > 0) out.set(self, ids);
    }
  }
  return out;
};

describe("what a talk brings to mind", () => {
  it("property: the memories each participant recalls are the turn-by-turn rule's, each once", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { maxLength: 8 }), heldArb, (turns, held) => {
        const recalled = recalledInTalk(turns, (id: NpcId) => held[id]);
        const got = new Map(
          [...recalled].filter(([, ids]) => ids.length > 0).map(([id, ids]) => [id, ids]),
        );
        const want = turnByTurn(turns, held);
        expect(new Set(got.keys())).toEqual(new Set(want.keys()));
        for (const [id, ids] of got) {
          expect(new Set(ids).size).toBe(ids.length);
          expect(new Set(ids)).toEqual(want.get(id));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a memory about someone who shared no turn with its owner is not recalled", () => {
    const held: Record<string, ReadonlyMap<MemoryId, About>> = {
      a: new Map([
        ["m0" as MemoryId, { about: { kind: "npc", id: "b" } }],
        ["m1" as MemoryId, { about: { kind: "npc", id: "c" } }],
      ]),
    };
    const turns = [
      { speakerId: "a", listenerIds: ["b"] },
      { speakerId: "b", listenerIds: ["c"] },
    ];
    expect(recalledInTalk(turns, (id: NpcId) => held[id]).get("a" as NpcId)).toEqual(["m0"]);
  });
});
