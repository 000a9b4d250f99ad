/**
 * Consolidation keeps its sources: whatever an NPC holds, every group it puts together
 * is of memories it holds, about one subject, each a candidate by the rules (old enough,
 * faded below `below` but not forgotten, neither pinned nor a promise or secret), no
 * memory in two groups, within the group and per-NPC bounds; and once the events a
 * consolidation writes are folded, the sources are gone from its live memories and the
 * one new memory holds the most any source mattered, the category most sources had,
 * and the latest of their ends.
 */
import {
  type Consolidation,
  consolidatedOf,
  consolidates,
  consolidationGroups,
  defaultMemoryDecay,
  emptyNpcFacts,
  foldNpcFacts,
  importanceAt,
  type LiveMemory,
  type MemoryDecay,
  subjectOf,
} from "@hearsay/actors";
import {
  type GameTime,
  ids,
  type LocationId,
  type MemoryCategory,
  type MemoryId,
  MINUTES_PER_DAY,
  makeEvent,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const categories: ReadonlyArray<MemoryCategory> = [
  "identity",
  "scene",
  "conversation",
  "observation",
  "task",
  "promise",
  "location",
];
const subjects = [
  { kind: "npc", id: "ada" },
  { kind: "npc", id: "bo" },
  { kind: "task", id: "t1" },
  { kind: "scene", id: "s1" },
  { kind: "scene", id: "s2" },
  { kind: "conversation", id: "c1" },
];

const memoryArb: fc.Arbitrary<LiveMemory> = fc
  .record({
    // Mostly the kinds consolidation takes, so groups are common.
    category: fc.oneof(
      { arbitrary: fc.constantFrom(...categories), weight: 1 },
      { arbitrary: fc.constantFrom<MemoryCategory>("scene", "observation"), weight: 3 },
    ),
    importance: fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.noBias(fc.integer({ min: 15, max: 50 })).map((n) => n / 100),
    ),
    recordedAt: fc.noBias(fc.nat({ max: 8 * MINUTES_PER_DAY })),
    lifetime: fc.option(fc.integer({ min: 0, max: 40 * MINUTES_PER_DAY }), {
      nil: null,
      freq: 3,
    }),
    about: fc.option(fc.constantFrom(...subjects), { nil: null }),
    locationId: fc.option(fc.constantFrom("quay", "inn"), { nil: null }),
  })
  .map((m) => ({
    category: m.category,
    pinned: m.category === "identity",
    importance: m.importance,
    since: m.recordedAt as GameTime,
    recordedAt: m.recordedAt as GameTime,
    expiresAt: m.lifetime === null ? null : ((m.recordedAt + m.lifetime) as GameTime),
    about: m.about,
    locationId: m.locationId as LocationId | null,
  }));

const rulesArb: fc.Arbitrary<Consolidation> = fc.record({
  everyDays: fc.constant(1),
  hour: fc.constant(4),
  olderThanDays: fc.integer({ min: 0, max: 5 }),
  below: fc.oneof(
    fc.double({ min: 0.05, max: 1, noNaN: true }),
    fc.noBias(fc.integer({ min: 30, max: 60 })).map((n) => n / 100),
  ),
  minSources: fc.integer({ min: 1, max: 5 }),
  maxSources: fc.integer({ min: 1, max: 6 }),
  perNpc: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })),
});

const decay: MemoryDecay = {
  ...defaultMemoryDecay,
  halfLifeDays: { ...defaultMemoryDecay.halfLifeDays, scene: 3, conversation: 4, observation: 5 },
};

const OWNER = ids.npc("npc-ada");

describe("consolidation", () => {
  it("keeps its sources: owned, one subject, candidates, within bounds; folded, they become one memory by the rules", () => {
    let grouped = 0;
    fc.assert(
      fc.property(
        fc.array(memoryArb, { minLength: 8, maxLength: 40, size: "max" }),
        rulesArb,
        fc.noBias(fc.integer({ min: 0, max: 14 * MINUTES_PER_DAY })),
        (list, rules, at) => {
          const t = at as GameTime;
          const held = new Map(list.map((m, i) => [ids.memory(`m-${i}`), m]));
          const groups = consolidationGroups(held, t, decay, rules);
          grouped += groups.length;
          expect(groups.length).toBeLessThanOrEqual(rules.perNpc);
          const seen = new Set<MemoryId>();
          for (const g of groups) {
            expect(g.sources.length).toBeGreaterThanOrEqual(Math.max(2, rules.minSources));
            expect(g.sources.length).toBeLessThanOrEqual(
              Math.max(2, rules.minSources, rules.maxSources),
            );
            for (const id of g.sources) {
              const m = held.get(id);
              expect(m).toBeDefined();
              expect(seen.has(id)).toBe(false);
              seen.add(id);
              expect(subjectOf(m!)).toEqual(g.about);
              expect(consolidates(m!, t, decay, rules)).toBe(true);
              expect(m!.pinned).toBe(false);
              expect(["promise", "secret", "identity"]).not.toContain(m!.category);
              expect(t - m!.recordedAt).toBeGreaterThanOrEqual(
                rules.olderThanDays * MINUTES_PER_DAY,
              );
              const now = importanceAt(decay, m!, t);
              expect(now).toBeLessThan(rules.below);
              expect(now).toBeGreaterThanOrEqual(decay.forgetBelow);
            }
            // Oldest first: a group takes the oldest of its subject's candidates.
            const ages = g.sources.map((id) => held.get(id)!.recordedAt);
            expect(ages).toEqual([...ages].sort((a, b) => a - b));
          }

          // The events a consolidation writes, folded into the owner's facts.
          const facts = emptyNpcFacts(OWNER);
          for (const [id, m] of held) facts.memories.set(id, m);
          for (const [k, g] of groups.entries()) {
            const sources = g.sources.map((id) => held.get(id)!);
            const made = consolidatedOf(sources, t, decay);
            const memoryId = ids.memory(`new-${k}`);
            foldNpcFacts(
              facts,
              makeEvent("MemoryRecorded", {
                id: ids.event(`e-${k}`),
                t,
                payload: {
                  memoryId,
                  ownerNpcId: OWNER,
                  text: "put together",
                  category: made.category,
                  importance: made.importance,
                  expiresAt: made.expiresAt,
                  locationId: null,
                  entities: [],
                  about: g.about,
                },
              }),
            );
            for (const source of g.sources)
              foldNpcFacts(
                facts,
                makeEvent("MemoryExpired", {
                  id: ids.event(`x-${source}`),
                  t,
                  payload: { memoryId: source, ownerNpcId: OWNER, reason: "consolidated" },
                }),
              );
            for (const source of g.sources) expect(facts.memories.has(source)).toBe(false);
            const kept = facts.memories.get(memoryId)!;
            expect(kept.about).toEqual(g.about);
            expect(kept.pinned).toBe(false);
            expect(kept.importance).toBe(
              Math.max(...sources.map((m) => importanceAt(decay, m, t))),
            );
            expect(kept.importance).toBeLessThan(rules.below);
            const count = (c: MemoryCategory) => sources.filter((m) => m.category === c).length;
            for (const m of sources)
              expect(count(kept.category)).toBeGreaterThanOrEqual(count(m.category));
            expect(kept.expiresAt).toBe(
              sources.some((m) => m.expiresAt === null)
                ? null
                : Math.max(...sources.map((m) => m.expiresAt!)),
            );
          }
          // Nothing else changed: every memory not put together is still held.
          for (const id of held.keys())
            if (!seen.has(id)) expect(facts.memories.has(id)).toBe(true);
          expect(facts.memories.size).toBe(held.size - seen.size + groups.length);
        },
      ),
      { numRuns: 300 },
    );
    // The property is not vacuous: runs put memories together (about one in twenty draws
    // does; the floor sits well under that so no seed's draw trips it).
    expect(grouped).toBeGreaterThan(5);
  });

  it("puts together a place's old occasions as the place, and leaves a subject with too few alone", () => {
    const old = (about: { kind: string; id: string }, locationId: string | null): LiveMemory => ({
      category: "scene",
      pinned: false,
      importance: 0.3,
      since: 0 as GameTime,
      recordedAt: 0 as GameTime,
      expiresAt: null,
      about,
      locationId: locationId as LocationId | null,
    });
    const held = new Map<MemoryId, LiveMemory>([
      [ids.memory("m-1"), old({ kind: "scene", id: "s1" }, "inn")],
      [ids.memory("m-2"), old({ kind: "scene", id: "s2" }, "inn")],
      [ids.memory("m-3"), old({ kind: "conversation", id: "c1" }, "inn")],
      [ids.memory("m-4"), old({ kind: "npc", id: "bo" }, "inn")],
      [ids.memory("m-5"), old({ kind: "npc", id: "bo" }, null)],
    ]);
    const rules: Consolidation = {
      everyDays: 1,
      hour: 4,
      olderThanDays: 1,
      below: 0.35,
      minSources: 3,
      maxSources: 8,
      perNpc: 2,
    };
    const t = (2 * MINUTES_PER_DAY) as GameTime;
    expect(consolidationGroups(held, t, defaultMemoryDecay, rules)).toEqual([
      { about: { kind: "location", id: "inn" }, sources: ["m-1", "m-2", "m-3"] },
    ]);
  });
});
