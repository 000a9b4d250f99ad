import {
  defaultMemoryDecay,
  emptyNpcFacts,
  endedBy,
  type Fading,
  forgetAt,
  forgetting,
  importanceAt,
  type LiveMemory,
  type MemoryDecay,
  nextEndAfter,
  reinforced,
  reinforcesAt,
} from "@hearsay/actors";
import { type GameTime, ids, type MemoryCategory, type MemoryId } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const DAY = 24 * 60;
const categories = Object.keys(defaultMemoryDecay.halfLifeDays) as Array<MemoryCategory>;

const decayArb: fc.Arbitrary<MemoryDecay> = fc.record({
  halfLifeDays: fc
    .array(fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }), {
      minLength: categories.length,
      maxLength: categories.length,
    })
    .map(
      (days) =>
        Object.fromEntries(categories.map((c, i) => [c, days[i]!])) as Record<
          MemoryCategory,
          number | null
        >,
    ),
  forgetBelow: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
  reinforceBy: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
  reinforceAfterHours: fc.integer({ min: 0, max: 48 }),
});

const fadingArb: fc.Arbitrary<Fading> = fc
  .record({
    category: fc.constantFrom(...categories),
    importance: fc.double({ min: 0, max: 1, noNaN: true }),
    since: fc.integer({ min: 0, max: 100 * DAY }),
  })
  .map((m) => ({ ...m, pinned: m.category === "identity", since: m.since as GameTime }));

const live = (m: Fading, expiresAt: GameTime | null = null): LiveMemory => ({
  ...m,
  recordedAt: m.since,
  expiresAt,
  about: null,
  locationId: null,
});

describe("decay", () => {
  it("property: importance never rises between reinforcements, and never above where it began", () => {
    fc.assert(
      fc.property(decayArb, fadingArb, fc.nat(400 * DAY), fc.nat(400 * DAY), (decay, m, a, b) => {
        const [t1, t2] = [m.since + Math.min(a, b), m.since + Math.max(a, b)] as [
          GameTime,
          GameTime,
        ];
        expect(importanceAt(decay, m, t2)).toBeLessThanOrEqual(importanceAt(decay, m, t1));
        expect(importanceAt(decay, m, t1)).toBeLessThanOrEqual(m.importance);
      }),
    );
  });

  it("property: forgotten exactly from `forgetAt` on: below the threshold then, not a minute before", () => {
    fc.assert(
      fc.property(decayArb, fadingArb, (decay, m) => {
        const at = forgetAt(decay, m);
        if (at === null) return;
        expect(importanceAt(decay, m, at)).toBeLessThan(decay.forgetBelow);
        if (at > m.since)
          expect(importanceAt(decay, m, (at - 1) as GameTime)).toBeGreaterThanOrEqual(
            decay.forgetBelow * (1 - 1e-12),
          );
      }),
    );
  });

  it("property: an identity memory never fades, is never forgotten, whatever the parameters", () => {
    fc.assert(
      fc.property(decayArb, fadingArb, fc.nat(10_000 * DAY), (decay, m, dt) => {
        const who = { ...m, category: "identity" as const, pinned: true };
        const d = { ...decay, halfLifeDays: { ...decay.halfLifeDays, identity: 1 } };
        expect(importanceAt(d, who, (who.since + dt) as GameTime)).toBe(who.importance);
        expect(forgetAt(d, who)).toBeNull();
        const t = (who.since + dt) as GameTime;
        const memories = new Map([[ids.memory("who"), live(who)]]);
        expect(endedBy(memories, t, d)).toEqual([]);
        expect(nextEndAfter(memories, t, d)).toBeNull();
      }),
    );
  });

  it("property: a reinforcement raises importance above what it had faded to and puts forgetting off", () => {
    fc.assert(
      fc.property(decayArb, fadingArb, fc.nat(400 * DAY), (decay, m, dt) => {
        const t = (m.since + dt) as GameTime;
        if (!reinforcesAt(decay, m, t)) return;
        const before = importanceAt(decay, m, t);
        const after = reinforced(decay, m, t);
        expect(after.since).toBe(t);
        expect(after.importance).toBeGreaterThan(before);
        expect(after.importance).toBeLessThanOrEqual(1);
        const was = forgetAt(decay, m)!;
        const now = forgetAt(decay, after)!;
        expect(now).toBeGreaterThanOrEqual(Math.max(was, t));
      }),
    );
  });

  it("property: an EXPIRE answer names, by reason, every memory ended by then and no other", () => {
    fc.assert(
      fc.property(
        decayArb,
        fc.array(fc.tuple(fadingArb, fc.option(fc.nat(60 * DAY), { nil: null })), {
          maxLength: 20,
        }),
        fc.nat(300 * DAY),
        (decay, ms, now) => {
          const facts = emptyNpcFacts(ids.npc("n"));
          for (const [i, [m, life]] of ms.entries())
            facts.memories.set(
              `m${i}` as MemoryId,
              live(m, life === null ? null : ((m.since + life) as GameTime)),
            );
          const t = now as GameTime;
          const answer = forgetting(facts, { type: "EXPIRE", t, decay });
          for (const [id, m] of facts.memories) {
            const gone = answer.memories.find((x) => x.memoryId === id);
            const expired = m.expiresAt !== null && m.expiresAt <= t;
            const faded = (forgetAt(decay, m) ?? Number.POSITIVE_INFINITY) <= t;
            expect(gone?.reason).toBe(
              expired && (m.expiresAt ?? 0) <= (forgetAt(decay, m) ?? Number.POSITIVE_INFINITY)
                ? "expired"
                : faded
                  ? "forgotten"
                  : expired
                    ? "expired"
                    : undefined,
            );
            if (m.pinned) expect(gone?.reason).not.toBe("forgotten");
          }
          if (answer.nextExpiry !== null) expect(answer.nextExpiry).toBeGreaterThan(t);
        },
      ),
    );
  });

  it("the defaults fade promises and secrets slowest after identity, which never fades", () => {
    const h = defaultMemoryDecay.halfLifeDays;
    expect(h.identity).toBeNull();
    for (const c of categories) {
      if (c === "identity" || c === "background") continue;
      expect(h[c]!).toBeLessThanOrEqual(h.promise!);
    }
    expect(h.secret).toBe(h.promise);
  });
});
