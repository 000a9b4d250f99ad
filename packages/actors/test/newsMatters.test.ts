/**
 * Which news sets an agenda aside (`newsMatters`): what names the NPC or someone it
 * regards strongly, or is important enough once discounted by how sure it is; never
 * routine news of strangers; and whatever the engine cannot describe.
 */
import {
  type Happening,
  IMPORTANT,
  NEWS_QUIET,
  type NewsItem,
  type NewsReader,
  newsMatters,
  newsMayInterrupt,
  STRONG_REGARD,
} from "@hearsay/actors";
import { type GameTime, ids, type NpcId } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const self = ids.npc("smith");
const people = ["ana", "bo", "cy", "dee"].map(ids.npc);

const arbItem: fc.Arbitrary<NewsItem> = fc.record({
  itemKind: fc.constantFrom("world_event", "memory", "debate", "thread"),
  itemId: fc.constant("w1"),
  via: fc.constantFrom("witnessed", "faction", "broadcast", "told", "rumor"),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
});
const arbHappening: fc.Arbitrary<Happening> = fc.record({
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
  participants: fc.subarray([self, ...people]),
});
const arbRegard = fc.dictionary(
  fc.constantFrom(...people),
  fc.double({ min: 0, max: 1, noNaN: true }),
);

const readerOf = (h: Happening | null, regard: Readonly<Record<string, number>>): NewsReader => ({
  self,
  regardFor: (other: NpcId) => regard[other] ?? 0,
  happening: () => h,
});
const worldEvent = (confidence: number): NewsItem => ({
  itemKind: "world_event",
  itemId: "w1",
  via: "witnessed",
  confidence,
});

describe("newsMatters", () => {
  it("a stranger's routine doings wait; the same of itself, of a friend, or of weight, ask", () => {
    const routine = { importance: 0.5, participants: [people[0]!] };
    expect(newsMatters(worldEvent(1), readerOf(routine, {}))).toBe(false);
    expect(newsMatters(worldEvent(1), readerOf(routine, { ana: 0.9 }))).toBe(true);
    // A neighbour it has chatted with warmly, but no close friend: its chores wait.
    expect(newsMatters(worldEvent(1), readerOf(routine, { ana: 0.8 }))).toBe(false);
    expect(
      newsMatters(worldEvent(1), readerOf({ importance: 0.5, participants: [self] }, {})),
    ).toBe(true);
    expect(newsMatters(worldEvent(1), readerOf({ importance: 0.9, participants: [] }, {}))).toBe(
      true,
    );
    // Important, but a rumour twice removed: not sure enough to drop its plan for.
    expect(newsMatters(worldEvent(0.5), readerOf({ importance: 0.9, participants: [] }, {}))).toBe(
      false,
    );
  });

  it("property: what is not a world event, or a world event the engine cannot describe, always asks", () => {
    fc.assert(
      fc.property(arbItem, arbHappening, arbRegard, (item, h, regard) => {
        if (item.itemKind !== "world_event")
          expect(newsMatters(item, readerOf(h, regard))).toBe(true);
        expect(newsMatters({ ...item, itemKind: "world_event" }, readerOf(null, regard))).toBe(
          true,
        );
      }),
    );
  });

  it("property: news of weight below IMPORTANT about none it regards strongly never asks", () => {
    fc.assert(
      fc.property(arbItem, arbHappening, arbRegard, (item, h, regard) => {
        const stranger = !h.participants.some(
          (p) => p === self || (regard[p] ?? 0) >= STRONG_REGARD,
        );
        const light = h.importance * item.confidence < IMPORTANT;
        const news = { ...item, itemKind: "world_event" as const };
        if (stranger && light) expect(newsMatters(news, readerOf(h, regard))).toBe(false);
        if (!stranger) expect(newsMatters(news, readerOf(h, regard))).toBe(true);
      }),
    );
  });

  it("property: more importance, more confidence or stronger regard never turn news that asks into news that waits", () => {
    fc.assert(
      fc.property(
        arbItem,
        arbHappening,
        arbRegard,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (item, h, regard, more, sure, warm) => {
          const news = { ...item, itemKind: "world_event" as const };
          if (!newsMatters(news, readerOf(h, regard))) return;
          const heavier = { ...h, importance: Math.max(h.importance, more) };
          expect(newsMatters(news, readerOf(heavier, regard))).toBe(true);
          const surer = { ...news, confidence: Math.max(news.confidence, sure) };
          expect(newsMatters(surer, readerOf(h, regard))).toBe(true);
          const warmer = Object.fromEntries(people.map((p) => [p, Math.max(regard[p] ?? 0, warm)]));
          expect(newsMatters(news, readerOf(h, warmer))).toBe(true);
        },
      ),
    );
  });

  it("property: news sets a plan aside only once it is NEWS_QUIET old, and always when there is none", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 * 24 * 60 }),
        fc.integer({ min: 0, max: 6 * 60 }),
        (plannedAt, after) => {
          const t = (plannedAt + after) as GameTime;
          expect(newsMayInterrupt(plannedAt as GameTime, t)).toBe(after >= NEWS_QUIET);
          expect(newsMayInterrupt(null, t)).toBe(true);
        },
      ),
    );
  });
});
