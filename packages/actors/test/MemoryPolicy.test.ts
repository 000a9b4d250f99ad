import {
  cappedOut,
  defaultMemoryDecay,
  droppedOnArrival,
  emptyNpcFacts,
  endedAt,
  expiredBy,
  forgetting,
  importanceAt,
  type LiveMemory,
  type MemoryDecay,
  type NpcEmitted,
  type NpcInput,
  nextExpiryAfter,
  npcMachine,
  type RankedAt,
} from "@hearsay/actors";
import { type GameTime, gameTime, ids, type MemoryCategory, type MemoryId } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";

const categories: ReadonlyArray<MemoryCategory> = ["identity", "scene", "observation", "task"];

const memoryArb: fc.Arbitrary<LiveMemory> = fc
  .record({
    category: fc.constantFrom(...categories),
    importance: fc.constantFrom(0, 0.2, 0.5, 0.7, 1),
    recordedAt: fc.integer({ min: 0, max: 20 }),
    lifetime: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
  })
  .map((m) => ({
    category: m.category,
    pinned: m.category === "identity",
    importance: m.importance,
    since: m.recordedAt as GameTime,
    recordedAt: m.recordedAt as GameTime,
    expiresAt: m.lifetime === null ? null : ((m.recordedAt + m.lifetime) as GameTime),
    about: null,
    locationId: null,
  }));

/** Memories with distinct ids (`m0`, `m1`, …, some sharing every other field). */
const memoriesArb = fc
  .array(memoryArb, { maxLength: 30 })
  .map((ms) => new Map(ms.map((m, i) => [`m${i}` as MemoryId, m])));

const shuffled = <K, V>(m: ReadonlyMap<K, V>, seed: number): Map<K, V> => {
  const entries = [...m.entries()];
  let s = seed;
  for (let i = entries.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  return new Map(entries);
};

/** Ranked with nothing fading: the importance each was recorded with. */
const still: RankedAt = {
  t: 21 as GameTime,
  decay: {
    ...defaultMemoryDecay,
    halfLifeDays: Object.fromEntries(
      Object.keys(defaultMemoryDecay.halfLifeDays).map((c) => [c, null]),
    ) as unknown as MemoryDecay["halfLifeDays"],
  },
};

const rank = (id: MemoryId, m: LiveMemory) => [m.importance, m.recordedAt, id] as const;
const before = (a: ReturnType<typeof rank>, b: ReturnType<typeof rank>) =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];

describe("the cap", () => {
  it("drops the least important first, then the oldest, never an identity memory", () => {
    const m = (category: MemoryCategory, importance: number, recordedAt: number): LiveMemory => ({
      category,
      pinned: category === "identity",
      importance,
      since: recordedAt as GameTime,
      recordedAt: recordedAt as GameTime,
      expiresAt: null,
      about: null,
      locationId: null,
    });
    const memories = new Map<MemoryId, LiveMemory>([
      ["who" as MemoryId, m("identity", 0, 0)],
      ["old" as MemoryId, m("scene", 0.2, 1)],
      ["new" as MemoryId, m("scene", 0.2, 5)],
      ["big" as MemoryId, m("scene", 0.9, 0)],
    ]);
    expect(cappedOut(memories, 4, still)).toEqual([]);
    expect(cappedOut(memories, 3, still)).toEqual(["old"]);
    expect(cappedOut(memories, 2, still)).toEqual(["old", "new"]);
    // Under the pinned count the cap drops everything else and keeps who it is.
    expect(cappedOut(memories, 0, still)).toEqual(["old", "new", "big"]);
  });

  it("property: respects the cap, never drops a pinned memory, drops only ranks below what it keeps", () => {
    fc.assert(
      fc.property(memoriesArb, fc.integer({ min: 0, max: 30 }), (all, cap) => {
        const dropped = cappedOut(all, cap, still);
        const gone = new Set(dropped);
        expect(gone.size).toBe(dropped.length);
        // What ended by then is the daily job's: the cap neither counts nor drops it.
        const memories = new Map([...all].filter(([, m]) => !endedAt(m, still.decay, still.t)));
        for (const id of dropped) expect(memories.get(id)!.pinned).toBe(false);
        const kept = [...memories].filter(([id]) => !gone.has(id));
        const pinned = kept.filter(([, m]) => m.pinned).length;
        expect(kept.length).toBe(Math.max(Math.min(memories.size, cap), pinned));
        for (const id of dropped)
          for (const [kid, k] of kept)
            if (!k.pinned) expect(before(rank(id, memories.get(id)!), rank(kid, k))).toBe(true);
      }),
    );
  });

  it("property: drops in rank order exactly what ranking them all and taking the excess drops", () => {
    fc.assert(
      fc.property(
        memoriesArb,
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 40 * 24 * 60 }),
        (memories, cap, t) => {
          const at: RankedAt = { t: t as GameTime, decay: defaultMemoryDecay };
          const live = [...memories].filter(([, m]) => !endedAt(m, at.decay, at.t));
          const ranked = live
            .filter(([, m]) => !m.pinned)
            .map(([id, m]) => [importanceAt(at.decay, m, at.t), m.recordedAt, id] as const)
            .sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : 1));
          const excess = Math.max(0, live.length - cap);
          expect(cappedOut(memories, cap, at)).toEqual(
            ranked.slice(0, excess).map(([, , id]) => id),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: the choice does not depend on the order memories are held in", () => {
    fc.assert(
      fc.property(memoriesArb, fc.integer({ min: 0, max: 30 }), fc.nat(), (memories, cap, seed) => {
        expect(cappedOut(shuffled(memories, seed), cap, still)).toEqual(
          cappedOut(memories, cap, still),
        );
      }),
    );
  });

  it("property: a memory dropped on arrival is what the next cap would drop, faded or not", () => {
    fc.assert(
      fc.property(
        memoriesArb,
        fc.integer({ min: 0, max: 30 }),
        memoryArb,
        fc.boolean(),
        (memories, cap, arriving, fading) => {
          // Ranked later with the default decay, or at once with none.
          const at: RankedAt = fading
            ? { t: (30 * 24 * 60) as GameTime, decay: defaultMemoryDecay }
            : still;
          // The newcomer is the newest memory, with the highest id, arriving at the cap's time.
          const newcomer = { ...arriving, recordedAt: at.t, since: at.t };
          const skip = droppedOnArrival(memories, cap, true, newcomer, at);
          const after = new Map(memories).set("z" as MemoryId, newcomer);
          // Skipped, it would not have survived: the cap drops it, or it ended on arrival
          // (a lifetime of 0).
          if (skip && !endedAt(newcomer, at.decay, at.t))
            expect(cappedOut(after, cap, at)).toContain("z");
          if (newcomer.pinned) expect(skip).toBe(false);
        },
      ),
    );
  });
});

describe("the cap, as memories fade", () => {
  it("property: drops what matters least now — a faded memory before a fresher one it once outranked", () => {
    fc.assert(
      fc.property(
        memoriesArb,
        fc.integer({ min: 0, max: 30 }),
        fc.nat(60),
        (memories, cap, days) => {
          const at: RankedAt = { t: (21 + days * 24 * 60) as GameTime, decay: defaultMemoryDecay };
          const now = (m: LiveMemory) => importanceAt(defaultMemoryDecay, m, at.t);
          const dropped = cappedOut(memories, cap, at);
          const gone = new Set(dropped);
          for (const id of dropped) {
            const m = memories.get(id)!;
            expect(m.pinned).toBe(false);
            expect(endedAt(m, at.decay, at.t)).toBe(false);
            for (const [kid, k] of memories)
              if (!gone.has(kid) && !k.pinned && !endedAt(k, at.decay, at.t)) {
                expect(now(m)).toBeLessThanOrEqual(now(k));
                if (now(m) === now(k))
                  expect(
                    m.recordedAt < k.recordedAt || (m.recordedAt === k.recordedAt && id < kid),
                  ).toBe(true);
              }
          }
        },
      ),
    );
  });

  it("a memory recorded important long ago goes before a fresh one of middling importance", () => {
    const m = (importance: number, since: number): LiveMemory => ({
      category: "scene",
      pinned: false,
      importance,
      since: since as GameTime,
      recordedAt: since as GameTime,
      expiresAt: null,
      about: null,
      locationId: null,
    });
    const day = 24 * 60;
    const memories = new Map<MemoryId, LiveMemory>([
      // Twenty days of a scene's seven-day half-life: 0.12, not yet forgotten.
      ["long-ago" as MemoryId, m(0.9, 0)],
      ["fresh" as MemoryId, m(0.5, 20 * day)],
    ]);
    const at = { t: (20 * day) as GameTime, decay: defaultMemoryDecay };
    expect(cappedOut(memories, 1, at)).toEqual(["long-ago"]);
    expect(cappedOut(memories, 1, still)).toEqual(["fresh"]);
  });
});

describe("expiry", () => {
  it("property: exactly the memories whose lifetime ended, in id order; then the next to end", () => {
    fc.assert(
      fc.property(memoriesArb, fc.integer({ min: 0, max: 50 }), (memories, now) => {
        const t = now as GameTime;
        const expected = [...memories]
          .filter(([, m]) => m.expiresAt !== null && m.expiresAt <= t)
          .map(([id]) => id)
          .sort();
        expect(expiredBy(memories, t)).toEqual(expected);
        const later = [...memories.values()]
          .map((m) => m.expiresAt)
          .filter((e): e is GameTime => e !== null && e > t);
        expect(nextExpiryAfter(memories, t)).toBe(later.length === 0 ? null : Math.min(...later));
      }),
    );
  });
});

describe("the npc machine", () => {
  const input = (): NpcInput => ({
    npcId: ids.npc("smith"),
    schedule: { wakeHour: 6, sleepHour: 22, home: ids.location("home"), workplace: null },
    routes: { travelMinutes: () => 30 },
    tickMinutes: 60,
    t: gameTime(0, 1),
    state: {
      activity: "asleep",
      locationId: ids.location("home"),
      destination: null,
      until: gameTime(0, 6),
      taskId: null,
      attendingTo: [],
    },
    facts: emptyNpcFacts(ids.npc("smith")),
  });

  it("property: answers EXPIRE and CAP with the pure rule on the facts it owns, in any state", () => {
    fc.assert(
      fc.property(
        memoriesArb,
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 30 }),
        fc.boolean(),
        (memories, now, cap, awake) => {
          const i = input();
          for (const [id, m] of memories) i.facts.memories.set(id, m);
          const actor = createActor(npcMachine, { input: i });
          const seen: Array<NpcEmitted> = [];
          actor.on("*", (e) => seen.push(e as NpcEmitted));
          actor.start();
          if (awake)
            actor.send({
              type: "WAKE",
              t: gameTime(0, 7),
              company: 0,
              roll: 0.99,
            });
          const stateBefore = actor.getSnapshot().context.value;
          seen.length = 0;
          const expire = {
            type: "EXPIRE",
            t: now as GameTime,
            decay: defaultMemoryDecay,
          } as const;
          const capAsk = {
            type: "CAP",
            t: now as GameTime,
            cap,
            decay: defaultMemoryDecay,
          } as const;
          actor.send(expire);
          actor.send(capAsk);
          expect(seen).toEqual([forgetting(i.facts, expire), forgetting(i.facts, capAsk)]);
          // Forgetting is bookkeeping: the activity does not move.
          expect(actor.getSnapshot().context.value).toEqual(stateBefore);
          expect(actor.getSnapshot().context.facts).toBe(i.facts);
          actor.stop();
        },
      ),
      { numRuns: 50 },
    );
  });
});
