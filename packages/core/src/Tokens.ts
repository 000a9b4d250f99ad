/**
 * Token counting for budgets. hearsay does not ship a model's tokenizer; it uses an
 * estimate calibrated to over-count Llama-3-family BPE on English prose and prompt
 * markup. It is the larger of two estimates:
 *
 * - by length: one token per 3.5 characters or 1.35 per word, plus one per line break —
 *   right for prose;
 * - by piece: the text split the way Llama 3's pre-tokenizer splits it (GPT-4's is the
 *   same). BPE never merges across these pieces, so each is at least one token; a short
 *   word costs 1, a long one one per 3.5 characters, a run of punctuation one per 2
 *   characters, blank space one per line break (at least 1), a piece with non-ASCII
 *   characters one per character (more for wide ones).
 *   This is what keeps times, numbers, JSON and tables ("day 3, 14:05" is 8 tokens in
 *   12 characters) from being under-counted.
 *
 * Over-counting only ever leaves budget unused; under-counting could overflow a model's
 * context, so the estimate leans high (see its tests).
 */

/** Llama 3's pre-tokenizer (`pat_str`; cl100k_base's too). */
const PIECE =
  /'(?:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/giu;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

const isBlank = (cp: number): boolean =>
  cp === 32 || (cp >= 9 && cp <= 13) || (cp >= 0x80 && /\s/u.test(String.fromCodePoint(cp)));

const pieceTokens = (piece: string): number => {
  let visible = 0;
  let wide = 0; // extra for non-ASCII characters: 3- and 4-byte ones split further
  let nonAscii = false;
  let newlines = 0;
  for (const ch of piece) {
    const cp = ch.codePointAt(0)!;
    if (isBlank(cp)) {
      if (cp === 10 || cp === 13) newlines++;
      continue;
    }
    visible++;
    if (cp >= 0x80) {
      nonAscii = true;
      wide += cp < 0x800 ? 0 : cp < 0x10000 ? 1 : 2;
    }
  }
  // Blank space by line breaks, so blank runs merging as text grows never lower the count.
  if (visible === 0) return Math.max(1, newlines);
  if (nonAscii) return visible + wide;
  if (LETTER.test(piece)) return piece.length <= 6 ? 1 : Math.ceil(piece.length / 3.5);
  if (DIGIT.test(piece)) return 1;
  return Math.ceil(visible / 2);
};

const byLength = (text: string): number => {
  let words = 0;
  let inWord = false;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (c === 10) lines++;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return Math.max(Math.ceil(text.length / 3.5), Math.ceil(words * 1.35)) + lines;
};

const byPiece = (text: string): number => {
  let n = 0;
  for (const piece of text.match(PIECE) ?? []) n += pieceTokens(piece);
  return n;
};

/**
 * Dossiers estimate the same texts over and over (lore chunks, standing memories), and
 * the piece pass is the costly part, so results are remembered — a pure function, and
 * the cache is dropped whole when it grows past a bound.
 */
const cache = new Map<string, number>();
const CACHE_LIMIT = 50_000;

/** An upper estimate of the Llama 3 token count of `text` (0 for ""). */
export const estimateTokens = (text: string): number => {
  if (text.length === 0) return 0;
  const known = cache.get(text);
  if (known !== undefined) return known;
  const n = Math.max(byLength(text), byPiece(text));
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, n);
  return n;
};
