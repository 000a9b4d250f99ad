/**
 * Who knows what, case by case: the worked examples of the rule in ARCHITECTURE.md "Who
 * may know what" (the properties against a brute-force reading are in Knowledge.test.ts).
 */
import {
  foldKnowledge,
  type GameTime,
  type ItemKind,
  ids,
  knows,
  makeEvent,
  type NpcId,
  type Via,
} from "@hearsay/core";
import { describe, expect, it } from "vitest";

const npcs: ReadonlyArray<NpcId> = ["a", "b", "c"].map(ids.npc);
const at = (t: number) => t as GameTime;
const [a, b] = [npcs[0]!, npcs[1]!];
let seq = 0;
const learn = (
  t: number,
  npc: NpcId,
  kind: ItemKind,
  itemId: string,
  via: Via = "told",
  confidence = 1,
) =>
  makeEvent("KnowledgeGained", {
    id: ids.event(`k${seq++}`),
    t: at(t),
    payload: { npcId: npc, itemKind: kind, itemId, via, fromNpcId: null, confidence },
  });
const record = (t: number, owner: NpcId, memoryId: string, expiresAt: number | null = null) =>
  makeEvent("MemoryRecorded", {
    id: ids.event(`r${seq++}`),
    t: at(t),
    payload: {
      memoryId: ids.memory(memoryId),
      ownerNpcId: owner,
      text: "saw the bridge go",
      category: "observation",
      importance: 0.7,
      expiresAt: expiresAt === null ? null : at(expiresAt),
      locationId: null,
      entities: [],
      about: null,
    },
  });
const expire = (t: number, owner: NpcId, memoryId: string) =>
  makeEvent("MemoryExpired", {
    id: ids.event(`x${seq++}`),
    t: at(t),
    payload: { memoryId: ids.memory(memoryId), ownerNpcId: owner, reason: "expired" },
  });
const mem = (id: string) => ({ kind: "memory", id }) as const;

describe("knows: worked cases", () => {
  it("the owner knows a memory from the minute it is recorded, and others only when told", () => {
    const ledger = foldKnowledge([record(10, a, "m"), learn(15, b, "memory", "m")]);
    expect(knows(ledger, a, mem("m"), at(9))).toBe(false);
    expect(knows(ledger, a, mem("m"), at(10))).toBe(true);
    expect(ledger.factAt(a, "memory", "m", at(99))).toEqual({
      t: 10,
      via: "owner",
      fromNpcId: null,
      confidence: 1,
    });
    expect(knows(ledger, b, mem("m"), at(14))).toBe(false);
    expect(knows(ledger, b, mem("m"), at(15))).toBe(true);
  });

  it("a memory is known by nobody from its expiresAt on", () => {
    const ledger = foldKnowledge([record(10, a, "m", 20), learn(12, b, "memory", "m")]);
    expect(knows(ledger, a, mem("m"), at(19))).toBe(true);
    expect(knows(ledger, b, mem("m"), at(19))).toBe(true);
    expect(knows(ledger, a, mem("m"), at(20))).toBe(false);
    expect(knows(ledger, b, mem("m"), at(20))).toBe(false);
    expect(ledger.knownAt(a, at(20))).toEqual([]);
  });

  it("a memory is known by nobody from the minute a MemoryExpired removes it", () => {
    const ledger = foldKnowledge([
      record(10, a, "m"),
      learn(12, b, "memory", "m"),
      expire(30, a, "m"),
    ]);
    expect(knows(ledger, a, mem("m"), at(29))).toBe(true);
    expect(knows(ledger, a, mem("m"), at(30))).toBe(false);
    expect(knows(ledger, b, mem("m"), at(30))).toBe(false);
    // Being told again after it went does not bring it back.
    const again = foldKnowledge([
      record(10, a, "m"),
      expire(30, a, "m"),
      learn(31, b, "memory", "m"),
    ]);
    expect(knows(again, b, mem("m"), at(40))).toBe(false);
  });

  it("a MemoryExpired of a memory not yet recorded changes nothing", () => {
    // The store keeps a death only on the memory's row, so an expiry with no row is lost
    // there; the rule says the same, so every reader agrees.
    const never = foldKnowledge([learn(5, b, "memory", "m"), expire(8, a, "m")]);
    expect(knows(never, b, mem("m"), at(8))).toBe(true);
    const early = foldKnowledge([expire(8, a, "m"), record(10, a, "m")]);
    expect(knows(early, a, mem("m"), at(20))).toBe(true);
  });

  it("the earliest fact wins; among facts of one minute, the first in the log", () => {
    const ledger = foldKnowledge([
      learn(5, b, "world_event", "w", "rumor", 0.25),
      learn(5, b, "world_event", "w", "witnessed", 1),
      learn(9, b, "world_event", "w", "broadcast", 1),
    ]);
    expect(ledger.factAt(b, "world_event", "w", at(100))).toEqual({
      t: 5,
      via: "rumor",
      fromNpcId: null,
      confidence: 0.25,
    });
    // Told of its own memory before recording it: the earlier fact stands.
    const own = foldKnowledge([learn(3, a, "memory", "m", "told", 0.5), record(6, a, "m")]);
    expect(own.factAt(a, "memory", "m", at(10))).toEqual({
      t: 3,
      via: "told",
      fromNpcId: null,
      confidence: 0.5,
    });
  });

  it("being at a happening is not knowing it: only KnowledgeGained is", () => {
    const happened = makeEvent("WorldEventOccurred", {
      id: ids.event("we"),
      t: at(1),
      payload: {
        worldEventId: ids.worldEvent("w"),
        kind: "theft",
        text: "The granary was robbed.",
        locationId: null,
        factionId: null,
        visibility: "private",
        importance: 0.9,
        participants: [a],
        entities: [],
        lapsesAt: null,
      },
    });
    expect(knows(foldKnowledge([happened]), a, { kind: "world_event", id: "w" }, at(5))).toBe(
      false,
    );
  });

  it("a world event is known until it lapses, then by nobody; only its first record sets the lapse", () => {
    const happened = (t: number, lapsesAt: number | null) =>
      makeEvent("WorldEventOccurred", {
        id: ids.event(`we${t}`),
        t: at(t),
        payload: {
          worldEventId: ids.worldEvent("w"),
          kind: "market",
          text: "A market.",
          locationId: null,
          factionId: null,
          visibility: "global",
          importance: 0.3,
          participants: [],
          entities: [],
          lapsesAt: lapsesAt === null ? null : at(lapsesAt),
        },
      });
    const w = { kind: "world_event", id: "w" } as const;
    // Learnt before the event is folded, and again after it lapsed: neither matters.
    const ledger = foldKnowledge([
      learn(1, a, "world_event", "w"),
      happened(2, 10),
      happened(3, null),
      learn(12, b, "world_event", "w"),
    ]);
    expect(knows(ledger, a, w, at(9))).toBe(true);
    expect(knows(ledger, a, w, at(10))).toBe(false);
    expect(knows(ledger, b, w, at(20))).toBe(false);
    // History keeps the facts.
    expect(ledger.fact(a, "world_event", "w")?.t).toBe(1);
    expect(ledger.fact(b, "world_event", "w")?.t).toBe(12);
    // One that never lapses stays known.
    const kept = foldKnowledge([happened(2, null), learn(3, a, "world_event", "w")]);
    expect(knows(kept, a, w, at(100_000))).toBe(true);
  });

  it("kinds are kept apart, and ids may contain colons", () => {
    const ledger = foldKnowledge([learn(1, a, "debate", "w:1"), learn(2, a, "world_event", "x")]);
    expect(knows(ledger, a, { kind: "world_event", id: "w:1" }, at(5))).toBe(false);
    expect(knows(ledger, a, { kind: "debate", id: "w:1" }, at(5))).toBe(true);
    expect(ledger.knownAt(a, at(5)).map((k) => [k.kind, k.id])).toEqual([
      ["debate", "w:1"],
      ["world_event", "x"],
    ]);
  });

  it("an NPC the log never mentions knows nothing but lore", () => {
    const ledger = foldKnowledge([learn(1, a, "debate", "d"), record(1, a, "m")]);
    const stranger = ids.npc("stranger");
    expect(ledger.knownAt(stranger, at(10))).toEqual([]);
    expect(knows(ledger, stranger, { kind: "debate", id: "d" }, at(10))).toBe(false);
    expect(knows(ledger, stranger, { kind: "lore", id: "anything" }, at(0))).toBe(true);
  });
});
