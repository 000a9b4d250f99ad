/**
 * Word splitting shared by the hashing embedder, keyword queries and entity matching:
 * lower-cased runs of letters and digits (any script), with a small English stopword
 * list. One definition, so "what counts as a word" cannot drift between them.
 *
 * The definition is the regular expression `WORD`; every text is split by a scan of its
 * code units that finds the same words (the embedder splits every text a run stores, and
 * a Unicode property match per text is most of its cost). The scan classes each code
 * unit once (`classOf`, from the expression's own classes); a text with a surrogate
 * pair, whose letters are code points of two units, is matched by the expression itself.
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Code-unit classes: 0 not yet classed, then one of these. */
const OTHER = 1;
const DIGIT = 2;
const LETTER = 3;
const APOSTROPHE = 4;
const SURROGATE = 5;

/** `’`, an apostrophe a word is written with `'`. */
const CURLY = 0x2019;

const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;

/** Each BMP code unit's class, filled in as met. */
const classes = new Uint8Array(65536);

const classOf = (c: number): number => {
  const known = classes[c]!;
  if (known !== 0) return known;
  const ch = String.fromCharCode(c);
  const k =
    c >= 0xd800 && c <= 0xdfff
      ? SURROGATE
      : c === 0x27 || c === CURLY
        ? APOSTROPHE
        : IS_LETTER.test(ch)
          ? LETTER
          : IS_NUMBER.test(ch)
            ? DIGIT
            : OTHER;
  classes[c] = k;
  return k;
};

/** `WORD`'s matches in `lower` (lower-cased already), `’` written `'`. */
const matchWords = (lower: string): Array<string> => {
  const out = lower.match(WORD);
  if (out === null) return [];
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.includes("’")) out[i] = out[i]!.replace("’", "'");
  }
  return out;
};

/** Where the run from `i` of code units of class `a` or `b` ends in `lower`. */
const runEnd = (lower: string, i: number, a: number, b: number): number => {
  let end = i;
  while (end < lower.length) {
    const k = classOf(lower.charCodeAt(end));
    if (k !== a && k !== b) break;
    end++;
  }
  return end;
};

/**
 * Pushes onto `out` the words of `lower` (lower-cased already) that `keep` takes, as
 * `WORD` finds them; false, with `out` to be dropped, when the text holds a surrogate.
 */
const scanWords = (lower: string, out: Array<string>, keep: (w: string) => boolean): boolean => {
  const n = lower.length;
  let i = 0;
  // Every code unit outside a word is met here, so every surrogate is.
  while (i < n) {
    const k = classOf(lower.charCodeAt(i));
    if (k === SURROGATE) return false;
    if (k !== LETTER && k !== DIGIT) {
      i++;
      continue;
    }
    const start = i;
    i = runEnd(lower, i + 1, LETTER, DIGIT);
    // An apostrophe joins the run when one or more letters follow it.
    const end =
      i < n && classOf(lower.charCodeAt(i)) === APOSTROPHE
        ? runEnd(lower, i + 1, LETTER, LETTER)
        : i;
    let w: string;
    if (end > i + 1) {
      w =
        lower.charCodeAt(i) === CURLY
          ? `${lower.slice(start, i)}'${lower.slice(i + 1, end)}`
          : lower.slice(start, end);
      i = end;
    } else w = lower.slice(start, i);
    if (keep(w)) out.push(w);
  }
  return true;
};

const every = (): boolean => true;

/** Lower-cased words of `text`, in order (apostrophe suffixes kept: `smith's`). */
export const words = (text: string): Array<string> => {
  const lower = text.toLowerCase();
  const out: Array<string> = [];
  return scanWords(lower, out, every) ? out : matchWords(lower);
};

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by for from had has have he her hers him his i if in " +
    "into is it its me my no nor not of on or our she so than that the their them then " +
    "there these they this those to too us was we were what when where which while who " +
    "whom why will with would you your"
  ).split(" "),
);

/** True for words too common to say anything about a text. */
export const isStopword = (word: string): boolean => STOPWORDS.has(word);

const meaningful = (w: string): boolean => w.length > 1 && !STOPWORDS.has(w);

/** The words of `text` that carry meaning (stopwords and 1-letter words dropped). */
export const contentWords = (text: string): Array<string> => {
  const lower = text.toLowerCase();
  const out: Array<string> = [];
  return scanWords(lower, out, meaningful) ? out : matchWords(lower).filter(meaningful);
};
