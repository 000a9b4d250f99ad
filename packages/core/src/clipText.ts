/**
 * Error text cut to what a person reads: a value quoted in a message ("…", '…' or `…`)
 * keeps its first 80 characters and an ellipsis, a run of text with no space in it is
 * cut the same way, and the whole line stops at 600 characters. Every formatter of an
 * error (the CLI's `describeError`, world and config errors) passes its text through
 * here, so no error can echo a 60 MB field. Linear in the text's length.
 */

/** Characters kept of a quoted value or an unbroken run. */
export const CLIP_VALUE = 80;
/** Characters kept of a whole message. */
export const CLIP_LINE = 600;

const ELLIPSIS = "…";

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** Where the quote opened at `open` closes (the index of the closing quote), or -1. */
const closingQuote = (text: string, open: number): number => {
  const q = text[open]!;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && q === '"') {
      i++;
      continue;
    }
    // An apostrophe inside a word ("NPC's") does not close a single-quoted value.
    if (c === q && !(q === "'" && isWordChar(text[i + 1]))) return i;
  }
  return -1;
};

/** Cuts every quoted value longer than `max` characters to its first `max` and "…". */
export const clipQuoted = (text: string, max = CLIP_VALUE): string => {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '"' && c !== "'" && c !== "`") continue;
    // An apostrophe inside a word is not a quote.
    if (c === "'" && isWordChar(text[i - 1])) continue;
    const close = closingQuote(text, i);
    if (close === -1) break;
    if (close - i - 1 > max) {
      out += `${text.slice(from, i + 1 + max)}${ELLIPSIS}`;
      from = close;
    }
    i = close;
  }
  return from === 0 ? text : out + text.slice(from);
};

/** Cuts every run of more than `max` non-space characters to its first `max` and "…". */
const clipRuns = (text: string, max: number): string =>
  text.length <= max
    ? text
    : text.replace(new RegExp(`(\\S{${max}})\\S+`, "g"), (_, head: string) => head + ELLIPSIS);

/** `clipQuoted`, then long unbroken runs, then the whole line cut at `CLIP_LINE`. */
export const clipMessage = (text: string): string => {
  const short = clipRuns(clipQuoted(text), CLIP_VALUE * 2);
  return short.length <= CLIP_LINE ? short : `${short.slice(0, CLIP_LINE - 1)}${ELLIPSIS}`;
};
