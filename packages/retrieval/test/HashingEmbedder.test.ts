import { stemWord } from "@hearsay/core";
import {
  contentWords,
  cosine,
  hashingEmbed,
  makeHashingEmbedder,
  normalize,
  words,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/**
 * The embedder as first written, feature strings and all: its vectors are what saved
 * indexes and recorded runs hold, so a faster embedder must give them bit for bit.
 */
const referenceHash = (s: string, seed: number): number => {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};
const referenceEmbed = (text: string, dimensions: number): Float32Array => {
  const v = new Float32Array(dimensions);
  const add = (feature: string, seed: number, weight: number) => {
    const h = referenceHash(feature, seed);
    const bucket = h % v.length;
    v[bucket] = v[bucket]! + ((h & 0x80000000) === 0 ? weight : -weight);
  };
  const ws = contentWords(text);
  let prev = "";
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    const st = stemWord(w);
    add(w, 1, 0.5);
    add(st, 4, 0.85);
    if (i > 0) add(`${prev} ${st}`, 2, 0.6);
    prev = st;
    const padded = `^${w}$`;
    for (let j = 0; j + 3 <= padded.length; j++) add(padded.slice(j, j + 3), 3, 0.22);
  }
  return normalize(v);
};
const referenceWords = (text: string): Array<string> => {
  const out: Array<string> = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu))
    out.push(m[0].replace("’", "'"));
  return out;
};

/** Text with words, apostrophes of both kinds, non-ASCII letters and surrogate pairs. */
const texty = fc
  .array(
    fc.constantFrom(
      "the",
      "miller's",
      "miller’s",
      "swords",
      "Zoë",
      "café",
      "𝒳y",
      "İstanbul",
      "’",
      "'",
      " ",
      "  ",
      ".",
      "a",
      "hid",
      "stolen",
      "grain",
      "42",
      "rock’n’roll",
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));

describe("hashing embedder", () => {
  it("property: gives the reference embedder's vectors bit for bit, and its words", () => {
    fc.assert(
      fc.property(fc.oneof(texty, fc.string(), fc.string({ unit: "binary" })), (text) => {
        expect(words(text)).toEqual(referenceWords(text));
        expect(Array.from(hashingEmbed(text, 48))).toEqual(Array.from(referenceEmbed(text, 48)));
      }),
    );
  });

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
