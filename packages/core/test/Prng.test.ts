/**
 * Seeded randomness: a stream is a pure function of (seed, labels), its draws stay in
 * their ranges, and they are close enough to uniform that seeded choices are fair. The
 * uniformity checks use fixed seeds, so they are deterministic and cannot flake.
 */
import { Prng } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

const arbSeed = fc.integer({ min: -2_147_483_648, max: 2_147_483_647 });
/** Labels as the engine uses them: ids, phases, day numbers (never NUL: it separates labels). */
const arbLabel = fc.oneof(
  fc.string({ maxLength: 12 }).filter((s) => !s.includes("\u0000")),
  fc.integer({ min: 0, max: 100_000 }),
);
const arbLabels = fc.array(arbLabel, { maxLength: 4 });

const draws = (p: Prng, n: number): Array<number> =>
  Array.from({ length: n }, () => p.int(0, 2 ** 31));

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
const chiSquare = (counts: ReadonlyArray<number>): number => {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
};

describe("Prng.derive", () => {
  it("property: the same seed and labels give the same stream", () => {
    fc.assert(
      fc.property(arbSeed, arbLabels, (seed, labels) => {
        const a = Prng.derive(seed, ...labels);
        const b = Prng.derive(seed, ...labels);
        expect(draws(a, 30)).toEqual(draws(b, 30));
        expect(a.float()).toBe(b.float());
        expect(a.shuffle([1, 2, 3, 4, 5, 6])).toEqual(b.shuffle([1, 2, 3, 4, 5, 6]));
      }),
      runs(200),
    );
  });

  it("property: a stream does not depend on draws made from any other stream", () => {
    fc.assert(
      fc.property(arbSeed, arbLabels, fc.nat({ max: 50 }), (seed, labels, noise) => {
        const alone = draws(Prng.derive(seed, ...labels), 10);
        const other = Prng.derive(seed, "other", ...labels);
        for (let i = 0; i < noise; i++) other.float();
        expect(draws(Prng.derive(seed, ...labels), 10)).toEqual(alone);
      }),
      runs(100),
    );
  });

  it("property: different labels give different streams", () => {
    fc.assert(
      fc.property(arbSeed, arbLabels, arbLabels, (seed, l1, l2) => {
        fc.pre(
          l1.map(String).join("\u0000") !== l2.map(String).join("\u0000") ||
            l1.length !== l2.length,
        );
        expect(draws(Prng.derive(seed, ...l1), 20)).not.toEqual(
          draws(Prng.derive(seed, ...l2), 20),
        );
      }),
      runs(200),
    );
  });

  it("property: different seeds give different streams", () => {
    fc.assert(
      fc.property(arbSeed, arbSeed, arbLabels, (s1, s2, labels) => {
        fc.pre(s1 !== s2);
        expect(draws(Prng.derive(s1, ...labels), 20)).not.toEqual(
          draws(Prng.derive(s2, ...labels), 20),
        );
      }),
      runs(200),
    );
  });

  it("label order and label boundaries matter", () => {
    const first = (p: Prng) => draws(p, 20);
    expect(first(Prng.derive(7, "a", "b"))).not.toEqual(first(Prng.derive(7, "b", "a")));
    expect(first(Prng.derive(7, "ab"))).not.toEqual(first(Prng.derive(7, "a", "b")));
    expect(first(Prng.derive(7, "rumor", 3))).not.toEqual(first(Prng.derive(7, "rumor", 4)));
    expect(first(Prng.derive(7))).not.toEqual(first(Prng.derive(7, "")));
    expect(first(Prng.derive(1, 2))).not.toEqual(first(Prng.derive(12)));
  });
});

describe("Prng draws", () => {
  it("property: int stays within [from, to], both included, and is an integer", () => {
    fc.assert(
      fc.property(
        arbSeed,
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.integer({ min: 0, max: 3 }),
        (seed, from, span) => {
          const p = Prng.derive(seed, "int");
          const seen = new Set<number>();
          for (let i = 0; i < 200; i++) seen.add(p.int(from, from + span));
          const bad = [...seen].filter((v) => !Number.isInteger(v) || v < from || v > from + span);
          expect(bad).toEqual([]);
          // 200 draws over at most 4 values reach both ends (miss chance < 1e-24).
          expect(seen.has(from)).toBe(true);
          expect(seen.has(from + span)).toBe(true);
        },
      ),
      runs(200),
    );
  });

  it("property: int stays in range for wide ranges, beyond 32 bits", () => {
    fc.assert(
      fc.property(
        arbSeed,
        fc.integer({ min: -(2 ** 45), max: 2 ** 45 }),
        fc.integer({ min: 0, max: 2 ** 46 }),
        (seed, from, span) => {
          const p = Prng.derive(seed, "wide");
          const vs = Array.from({ length: 20 }, () => p.int(from, from + span));
          const bad = vs.filter((v) => !Number.isSafeInteger(v) || v < from || v > from + span);
          expect(bad).toEqual([]);
        },
      ),
      runs(200),
    );
  });

  it("int of a one-value range returns that value", () => {
    const p = Prng.derive(3, "one");
    for (let i = 0; i < 20; i++) expect(p.int(-5, -5)).toBe(-5);
  });

  it("property: float is in [0, 1)", () => {
    fc.assert(
      fc.property(arbSeed, arbLabels, (seed, labels) => {
        const p = Prng.derive(seed, ...labels);
        const fs = Array.from({ length: 200 }, () => p.float());
        expect(fs.filter((f) => !(f >= 0 && f < 1))).toEqual([]);
      }),
      runs(200),
    );
  });

  it("property: chance(0) never and chance(1) always fires; chance(p) fires about p of the time", () => {
    fc.assert(
      fc.property(arbSeed, (seed) => {
        const p = Prng.derive(seed, "chance");
        const fired = Array.from({ length: 50 }, () => [p.chance(0), p.chance(-1), p.chance(1)]);
        expect(fired.filter(([zero, negative, one]) => zero || negative || !one)).toEqual([]);
      }),
      runs(100),
    );
    const p = Prng.derive(42, "chance", "rate");
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (p.chance(0.3)) hits++;
    // Binomial(10,000, 0.3): sd ≈ 46, so ±300 is more than 6 sd.
    expect(hits).toBeGreaterThan(2700);
    expect(hits).toBeLessThan(3300);
  });

  it("pick throws on an empty array and otherwise returns one of the items", () => {
    const p = Prng.derive(1, "pick");
    expect(() => p.pick([])).toThrow(RangeError);
    fc.assert(
      fc.property(arbSeed, fc.array(fc.integer(), { minLength: 1, maxLength: 20 }), (seed, xs) => {
        const q = Prng.derive(seed, "pick");
        const picked = Array.from({ length: 20 }, () => q.pick(xs));
        expect(picked.filter((x) => !xs.includes(x))).toEqual([]);
      }),
      runs(200),
    );
  });

  it("property: shuffle returns a permutation and leaves its input alone", () => {
    fc.assert(
      fc.property(
        arbSeed,
        fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 40 }),
        (seed, xs) => {
          const before = [...xs];
          const out = Prng.derive(seed, "shuffle").shuffle(xs);
          expect(xs).toEqual(before);
          expect(out).not.toBe(xs);
          expect([...out].sort((a, b) => a - b)).toEqual([...xs].sort((a, b) => a - b));
        },
      ),
      runs(200),
    );
  });
});

describe("Prng uniformity (fixed seeds: deterministic)", () => {
  // Chi-square critical values: 9 degrees of freedom, p = 1e-6 is about 45; 5 dof, about 36.
  it.each([1, 2, 3, 99, 20_260_101])("int(0, 9) is close to uniform (seed %i)", (seed) => {
    const p = Prng.derive(seed, "uniform");
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 20_000; i++) counts[p.int(0, 9)]!++;
    expect(chiSquare(counts)).toBeLessThan(45);
  });

  it.each([1, 2, 3])("float() fills ten equal buckets evenly (seed %i)", (seed) => {
    const p = Prng.derive(seed, "float");
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 20_000; i++) counts[Math.floor(p.float() * 10)]!++;
    expect(chiSquare(counts)).toBeLessThan(45);
  });

  it.each([1, 2, 3])("shuffle makes every order of three equally likely (seed %i)", (seed) => {
    const p = Prng.derive(seed, "orders");
    const counts = new Map<string, number>();
    for (let i = 0; i < 12_000; i++) {
      const key = p.shuffle(["a", "b", "c"]).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    expect(chiSquare([...counts.values()])).toBeLessThan(36);
  });

  it("a stream's first draw is uniform across labels (no label-derived bias)", () => {
    const counts = new Array<number>(10).fill(0);
    for (let npc = 0; npc < 20_000; npc++) counts[Prng.derive(5, "rumor", npc).int(0, 9)]!++;
    expect(chiSquare(counts)).toBeLessThan(45);
  });
});
