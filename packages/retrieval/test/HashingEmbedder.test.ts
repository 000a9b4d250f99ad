import { cosine, hashingEmbed, makeHashingEmbedder } from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));

describe("hashing embedder", () => {
  it("puts similar sentences closer than unrelated ones", () => {
    const pairs: Array<[string, string, string]> = [
      [
        "The miller hid the stolen grain in the cellar.",
        "Stolen grain was hidden in the miller's cellar.",
        "A storm flooded the bridge over the river.",
      ],
      [
        "Ada forged a silver sword for the guard captain.",
        "The guard captain received a silver sword forged by Ada.",
        "The priest prayed for rain at the chapel.",
      ],
      [
        "Wolves attacked the sheep on the northern hills.",
        "A wolf killed two sheep on the hills up north.",
        "The tax collector counted coins at the market.",
      ],
    ];
    for (const [a, similar, unrelated] of pairs) {
      const va = hashingEmbed(a);
      expect(cosine(va, hashingEmbed(similar))).toBeGreaterThan(
        cosine(va, hashingEmbed(unrelated)) + 0.15,
      );
    }
  });

  it("shares mass between inflections through character trigrams", () => {
    expect(cosine(hashingEmbed("swords"), hashingEmbed("sword"))).toBeGreaterThan(0.3);
    expect(cosine(hashingEmbed("swords"), hashingEmbed("barrel"))).toBeLessThan(0.2);
  });

  it("is deterministic, unit length and sized as configured", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 0, maxLength: 80 }),
        fc.integer({ min: 8, max: 512 }),
        (text, dims) => {
          const a = hashingEmbed(text, dims);
          const b = hashingEmbed(text, dims);
          expect(a.length).toBe(dims);
          expect(Array.from(a)).toEqual(Array.from(b));
          const n = norm(a);
          expect(n === 0 || Math.abs(n - 1) < 1e-5).toBe(true);
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 5000 : 200 },
    );
  });

  it("gives the zero vector to text without content words", () => {
    expect(norm(hashingEmbed("the of and a"))).toBe(0);
    expect(norm(hashingEmbed(""))).toBe(0);
  });

  it("names its model by version and dimensions and embeds batches in order", () => {
    const e = makeHashingEmbedder({ dimensions: 64 });
    expect(e.model).toBe("hashing-v1-64");
    expect(e.dimensions).toBe(64);
    const out = Effect.runSync(e.embed(["grain cellar", "river storm"]));
    expect(Array.from(out[1]!)).toEqual(Array.from(hashingEmbed("river storm", 64)));
    expect(() => makeHashingEmbedder({ dimensions: 3 })).toThrow(/dimensions/);
  });
});
