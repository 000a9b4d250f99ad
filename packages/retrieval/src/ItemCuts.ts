/**
 * Fitting one dossier item's text to a token cap — whitespace folded to one line, cut at
 * a word bound with "…" when too long — with the work remembered per text. Dossiers show
 * the same lore chunks and memories turn after turn, cut to caps that vary with what came
 * before them, and every estimate behind a cut is a pure function of the text: so a text
 * is folded and measured once, each of its word-prefixes estimated at most once, and each
 * (text, cap) answered once. Results are exactly those of cutting from scratch.
 */
import { estimateTokens } from "@hearsay/core";

/** Tokens an item costs when rendered (`- text` and its line break). */
export const itemTokens = (text: string): number => estimateTokens(`- ${text}\n`);

/** Whitespace runs to single spaces: one item is one rendered line. */
export const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

/** An item's text as it will be shown, and what it costs. */
export interface FittedItem {
  readonly text: string;
  readonly tokens: number;
}

interface Measured {
  readonly whole: FittedItem;
  words: ReadonlyArray<string> | null;
  /** Cost of the first k words plus "…", at index k (0: not yet estimated). */
  costs: Int32Array | null;
  readonly cuts: Map<number, FittedItem | null>;
}

const TEXTS_LIMIT = 20_000;
/** By raw text (folded to one line) and by text taken as it is. */
const folded = new Map<string, Measured>();
const asIs = new Map<string, Measured>();

const measured = (text: string, fold: boolean): Measured => {
  const memo = fold ? folded : asIs;
  let m = memo.get(text);
  if (m === undefined) {
    if (memo.size >= TEXTS_LIMIT) memo.clear();
    const line = fold ? oneLine(text) : text;
    m = {
      whole: { text: line, tokens: itemTokens(line) },
      words: null,
      costs: null,
      cuts: new Map(),
    };
    memo.set(text, m);
  }
  return m;
};

/** The longest word-prefix (with "…") costing at most `cap`, or null when none does. */
const cut = (m: Measured, cap: number): FittedItem | null => {
  const known = m.cuts.get(cap);
  if (known !== undefined) return known;
  const words = m.words ?? m.whole.text.split(" ");
  const costs = m.costs ?? new Int32Array(words.length);
  m.words = words;
  m.costs = costs;
  const cost = (k: number): number => {
    let c = costs[k]!;
    if (c === 0) {
      c = itemTokens(`${words.slice(0, k).join(" ")}…`);
      costs[k] = c;
    }
    return c;
  };
  let lo = 0;
  let hi = words.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cost(mid) <= cap) lo = mid;
    else hi = mid - 1;
  }
  const fitted = lo === 0 ? null : { text: `${words.slice(0, lo).join(" ")}…`, tokens: cost(lo) };
  m.cuts.set(cap, fitted);
  return fitted;
};

/**
 * `text` fitted to `cap` tokens: whole if it fits, else its longest word-prefix that does
 * (with "…"), else null. `fold` first folds whitespace to one line (as dossier items are).
 */
export const fitItem = (text: string, cap: number, fold: boolean): FittedItem | null => {
  const m = measured(text, fold);
  return m.whole.tokens <= cap ? m.whole : cut(m, cap);
};
