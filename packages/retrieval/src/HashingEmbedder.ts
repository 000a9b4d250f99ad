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

/*
 * A feature's hash is FNV-1a over its UTF-16 code units, started from the seed and
 * finished with murmur3's avalanche. It is taken in steps (start, code units, finish) so
 * that bigrams and trigrams are hashed from the words they are made of, without making
 * their strings: the same code units in the same order, so the same hash.
 */
const start = (seed: number): number => (0x811c9dc5 ^ seed) >>> 0;

const step = (h: number, code: number): number => Math.imul(h ^ code, 0x01000193);

const steps = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = step(h, s.charCodeAt(i));
  return h;
};

const finish = (h: number): number => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

const CARET = "^".charCodeAt(0);
const DOLLAR = "$".charCodeAt(0);
const SPACE = " ".charCodeAt(0);

/**
 * A feature of hash `h` (finished) as the signed bucket it adds to: ±(bucket + 1), minus
 * when its hashed sign is.
 */
const signedBucket = (h: number, dimensions: number): number => {
  const bucket = (h % dimensions) + 1;
  return (h & 0x80000000) === 0 ? bucket : -bucket;
};

/** Adds `weight` to a signed bucket's bucket, with its sign. */
const addAt = (v: Float32Array, sb: number, weight: number): void => {
  if (sb > 0) v[sb - 1] = v[sb - 1]! + weight;
  else v[-sb - 1] = v[-sb - 1]! - weight;
};

/** A word's own features at some dimensions: its stem, and its features' signed buckets. */
interface WordFeatures {
  readonly stem: string;
  /**
   * The unfinished hash of a bigram's first half when this word's stem begins it (the
   * stem and the space after it): a bigram's hash goes on from there with the next stem.
   */
  readonly lead: number;
  /** The signed buckets of the word, its stem, then the trigrams of `^word$`. */
  readonly at: Int32Array;
}

/**
 * The features of the words seen so far, by dimensions: a pure function of the word,
 * asked again for every text that uses it (a run's vocabulary is small). Dropped whole
 * past a bound.
 */
const known = new Map<number, Map<string, WordFeatures>>();
const KNOWN_LIMIT = 100_000;

/** The words seen so far at `dimensions`. */
const knownAt = (dimensions: number): Map<string, WordFeatures> => {
  let words = known.get(dimensions);
  if (words === undefined) {
    words = new Map();
    known.set(dimensions, words);
  }
  return words;
};

const featuresOf = (
  w: string,
  dimensions: number,
  words: Map<string, WordFeatures>,
): WordFeatures => {
  let f = words.get(w);
  if (f !== undefined) return f;
  if (words.size >= KNOWN_LIMIT) words.clear();
  const st = stemWord(w);
  const at = new Int32Array(2 + w.length);
  at[0] = signedBucket(finish(steps(start(1), w)), dimensions);
  at[1] = signedBucket(finish(steps(start(4), st)), dimensions);
  // The trigrams of `^w$`, code unit by code unit: (a, b, c) slides along it.
  let a = CARET;
  let b = w.charCodeAt(0);
  for (let j = 1; j <= w.length; j++) {
    const c = j < w.length ? w.charCodeAt(j) : DOLLAR;
    at[1 + j] = signedBucket(finish(step(step(step(start(3), a), b), c)), dimensions);
    a = b;
    b = c;
  }
  f = { stem: st, lead: step(steps(start(2), st), SPACE), at };
  words.set(w, f);
  return f;
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
  const words = knownAt(dimensions);
  let lead = 0;
  for (let i = 0; i < ws.length; i++) {
    const f = featuresOf(ws[i]!, dimensions, words);
    const at = f.at;
    addAt(v, at[0]!, UNIGRAM);
    addAt(v, at[1]!, STEM);
    // The bigram of the previous stem, a space and this stem.
    if (i > 0) addAt(v, signedBucket(finish(steps(lead, f.stem)), dimensions), BIGRAM);
    lead = f.lead;
    for (let j = 2; j < at.length; j++) addAt(v, at[j]!, TRIGRAM);
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
    pure: true,
    embed: (texts) => Effect.sync(() => texts.map(embedSync)),
  };
};
