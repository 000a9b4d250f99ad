import { type DueDebate, debateIdOf, dueDebates } from "@hearsay/actors";
import {
  type DebateId,
  type DebateTopic,
  type GameTime,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const topic = (id: string, firstDay: number, everyDays: number, hour: number): DebateTopic =>
  ({
    id,
    topic: `should ${id}?`,
    factionId: null,
    locationId: "square",
    firstDay,
    everyDays,
    hour,
    positions: [],
  }) as unknown as DebateTopic;

const arbTopics = fc.uniqueArray(
  fc
    .tuple(
      fc.constantFrom("ferry", "tithe", "wall", "well"),
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 0, max: 23 }),
    )
    .map(([id, first, every, hour]) => topic(id, first, every, hour)),
  { selector: (t) => t.id, maxLength: 4 },
);

/** Every (topic, day) whose moment lies in (0, end], by brute force. */
const expectedIn = (topics: ReadonlyArray<DebateTopic>, end: number): Set<string> => {
  const out = new Set<string>();
  for (const t of topics)
    for (let day = t.firstDay; day * MINUTES_PER_DAY <= end; day += t.everyDays) {
      const at = day * MINUTES_PER_DAY + t.hour * MINUTES_PER_HOUR;
      if (at > 0 && at <= end) out.add(debateIdOf(t, day));
    }
  return out;
};

describe("debate calendar", () => {
  it("property: over any split of a span into ticks, each debate comes due exactly once, at its moment", () => {
    fc.assert(
      fc.property(
        arbTopics,
        fc.array(
          fc.oneof(
            fc.integer({ min: 1, max: 72 }).map((h) => h * MINUTES_PER_HOUR),
            fc.integer({ min: 1, max: 3 * MINUTES_PER_DAY }),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (topics, steps) => {
          const held = new Set<DebateId>();
          const seen: Array<string> = [];
          let from = 0;
          for (const step of steps) {
            const t = from + step;
            const due = dueDebates(topics, from as GameTime, t as GameTime, held);
            for (const d of due) {
              const at = d.day * MINUTES_PER_DAY + d.topic.hour * MINUTES_PER_HOUR;
              expect(at).toBeGreaterThan(from);
              expect(at).toBeLessThanOrEqual(t);
              seen.push(d.debateId);
            }
            const order = [...due].sort(
              (a: DueDebate, b: DueDebate) => a.day - b.day || (a.topic.id < b.topic.id ? -1 : 1),
            );
            expect(due).toEqual(order);
            from = t;
          }
          expect(seen).toHaveLength(new Set(seen).size);
          expect(new Set(seen)).toEqual(expectedIn(topics, from));
        },
      ),
    );
  });

  it("leaves out a debate already held, and only that one", () => {
    const topics = [topic("ferry", 0, 1, 19), topic("wall", 0, 1, 19)];
    const held = new Set([debateIdOf(topics[0]!, 0)]);
    const due = dueDebates(topics, 0 as GameTime, MINUTES_PER_DAY as GameTime, held);
    expect(due.map((d) => d.debateId)).toEqual(["wall-day0"]);
  });
});
