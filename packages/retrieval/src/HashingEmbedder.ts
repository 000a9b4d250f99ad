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

/**
 * Stems of the words seen so far: a pure function of the word, asked again for every
 * text that uses it (a run's vocabulary is small). Dropped whole past a bound.
 */
const stems = new Map<string, string>();
const STEMS_LIMIT = 100_000;

const stem = (w: string): string => {
  let s = stems.get(w);
  if (s === undefined) {
    if (stems.size >= STEMS_LIMIT) stems.clear();
    s = stemWord(w);
    stems.set(w, s);
  }
  return s;
};

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

/** Adds a feature of hash `h` (finished) to its bucket, with its hashed sign. */
const add = (v: Float32Array, h: number, weight: number): void => {
  const bucket = h % v.length;
  v[bucket] = v[bucket]! + ((h & 0x80000000) === 0 ? weight : -weight);
};

const CARET = "^".charCodeAt(0);
const DOLLAR = "$".charCodeAt(0);
const SPACE = " ".charCodeAt(0);

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
    add(v, finish(steps(start(1), w)), UNIGRAM);
    add(v, finish(steps(start(4), st)), STEM);
    if (i > 0) add(v, finish(steps(step(steps(start(2), prev), SPACE), st)), BIGRAM);
    prev = st;
    // The trigrams of `^w$`, code unit by code unit: (a, b, c) slides along it.
    let a = CARET;
    let b = w.charCodeAt(0);
    for (let j = 1; j <= w.length; j++) {
      const c = j < w.length ? w.charCodeAt(j) : DOLLAR;
      add(v, finish(step(step(step(start(3), a), b), c)), TRIGRAM);
      a = b;
      b = c;
    }
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
