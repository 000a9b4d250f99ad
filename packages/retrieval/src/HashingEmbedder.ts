/**
 * The default embedder: feature hashing, deterministic and offline. A text becomes a
 * bag of weighted features — content words, their light stems (`swords` → `sword`),
 * adjacent stem bigrams and the character trigrams of each word — each hashed to one of `dimensions` buckets with a hashed sign (so collisions
 * cancel on average instead of piling up), then L2-normalised. Same text, same vector,
 * on every machine: replay needs no model and no stored vectors.
 */
import { stemWord } from "@hearsay/core";
import { Effect } from "effect";
import { type EmbedderShape, normalize } from "./Embedder.ts";
import { contentWords } from "./words.ts";

/** Default vector length. */
export const HASHING_DIMENSIONS = 384;

/** Feature weights; words and stems carry the topic, bigrams the phrasing, trigrams the spelling. */
const UNIGRAM = 0.5;
const STEM = 0.85;
const BIGRAM = 0.6;
const TRIGRAM = 0.22;

const stem = stemWord;

/** FNV-1a over a string with a seed, finished with murmur3's avalanche. */
const hash = (s: string, seed: number): number => {
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

const add = (v: Float32Array, feature: string, seed: number, weight: number): void => {
  const h = hash(feature, seed);
  const bucket = h % v.length;
  v[bucket] = v[bucket]! + ((h & 0x80000000) === 0 ? weight : -weight);
};

/**
 * Embeds `text` into a unit vector of `dimensions` floats (all zeros when the text has
 * no content words). Pure and deterministic.
 */
export const hashingEmbed = (
  text: string,
  dimensions: number = HASHING_DIMENSIONS,
): Float32Array => {
  const v = new Float32Array(dimensions);
  const ws = contentWords(text);
  let prev = "";
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    const st = stem(w);
    add(v, w, 1, UNIGRAM);
    add(v, st, 4, STEM);
    if (i > 0) add(v, `${prev} ${st}`, 2, BIGRAM);
    prev = st;
    const padded = `^${w}$`;
    for (let j = 0; j + 3 <= padded.length; j++) add(v, padded.slice(j, j + 3), 3, TRIGRAM);
  }
  return normalize(v);
};

/** Options for {@link makeHashingEmbedder}. */
export interface HashingEmbedderOptions {
  readonly dimensions?: number;
}

/** A hashing embedder; its model name records the algorithm version and dimensions. */
export const makeHashingEmbedder = (options: HashingEmbedderOptions = {}): EmbedderShape => {
  const dimensions = options.dimensions ?? HASHING_DIMENSIONS;
  if (!Number.isInteger(dimensions) || dimensions < 8) {
    throw new RangeError(`hashing embedder: dimensions must be an integer >= 8, got ${dimensions}`);
  }
  const embedSync = (text: string): Float32Array => hashingEmbed(text, dimensions);
  return {
    model: `hashing-v1-${dimensions}`,
    dimensions,
    embedSync,
    embed: (texts) => Effect.sync(() => texts.map(embedSync)),
  };
};
