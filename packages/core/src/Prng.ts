/**
 * Seeded randomness. A stream is derived from the run's seed and a list of labels
 * (`["rumor", day, npcId]`), so every random choice is a pure function of the seed and
 * of where it is made: a resumed run draws exactly what an uninterrupted one would,
 * with no generator state to save. Built on pure-rand's xoroshiro128+.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";

/** FNV-1a over a string, 32 bits: how labels become a seed. */
const fnv1a = (s: string, h = 0x811c9dc5): number => {
  let hash = h;
  for (let i = 0; i < s.length; i++) {
    hash ^= s.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
};

export class Prng {
  private constructor(private readonly rng: RandomGenerator) {}

  /** A stream for `seed` and the given labels; same inputs, same stream. */
  static derive(seed: number, ...labels: ReadonlyArray<string | number>): Prng {
    let h = fnv1a(String(seed));
    for (const label of labels) h = fnv1a(`\u0000${label}`, h);
    return new Prng(xoroshiro128plus(h));
  }

  /** An integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.rng, from, to);
  }

  /** A float in [0, 1). */
  float(): number {
    return uniformInt(this.rng, 0, 0x7fffffff) / 0x80000000;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  /** One element of a non-empty array. */
  pick<A>(items: ReadonlyArray<A>): A {
    if (items.length === 0) throw new RangeError("Prng.pick: empty array");
    return items[this.int(0, items.length - 1)] as A;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<A>(items: ReadonlyArray<A>): Array<A> {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as A, out[i] as A];
    }
    return out;
  }
}
