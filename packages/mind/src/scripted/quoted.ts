/**
 * How the scripted brain puts other words inside its own. Every quotation and every
 * retold fact it writes goes through here, so that what it writes never nests a quotation
 * inside a quotation: a quote is always one sentence that itself quotes nothing.
 */
import { remembered } from "./remembered.ts";

const snippetOf = (text: string, max: number): string => {
  const clean = text.replace(/\s+/g, " ").trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(clean)?.[1] ?? clean;
  if (sentence.length <= max) return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
  const cut = sentence.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[,;:—–-]\s*$/, "")}…`;
};
const snippets = remembered(snippetOf);

/** First sentence of a text, cut at a word boundary to at most `max` characters. */
export const snippet = (text: string, max = 160): string => snippets(text, max);

const DOUBLE_QUOTE = /["\u201c\u201d\u201e\u00ab\u00bb]/;

/** The sentences of a text. */
export const sentencesOf = (text: string): ReadonlyArray<string> =>
  text
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?…]["\u201d]?)\s+/)
    .filter((s) => s.length > 0);

const unquotedTexts = remembered((text: string, _: number): string =>
  text
    .replace(/["\u201c\u201d\u201e\u00ab\u00bb]/g, "'")
    .replace(/\s+/g, " ")
    .trim(),
);

/** `text` with every double quote in it made a single one, for text quoted whole. */
export const unquotedText = (text: string): string => unquotedTexts(text, 0);

/**
 * What a quotation of `text` says: its first sentence that quotes nothing (or the first
 * that `prefer` matches, when one does); else its first sentence, with what that sentence
 * quotes (a title, mostly) in single quotes; cut to `max` characters. Null when empty.
 */
export const quotable = (text: string, max = 160, prefer?: RegExp): string | null =>
  // A preference is a pattern of the caller's (it may carry state, as a global one does):
  // only a quotation without one is remembered.
  prefer === undefined ? quotables(text, max) : quotableOf(text, max, prefer);

const quotableOf = (text: string, max: number, prefer?: RegExp): string | null => {
  const all = sentencesOf(text);
  const clean = all.filter((s) => !DOUBLE_QUOTE.test(s));
  const pick =
    (prefer === undefined ? undefined : clean.find((s) => prefer.test(s))) ??
    clean[0] ??
    (all[0] === undefined ? undefined : unquotedText(all[0]));
  return pick === undefined || !/\w/.test(pick) ? null : snippet(pick, max);
};
const quotables = remembered((text: string, max: number) => quotableOf(text, max));

/** `text` quoted as one sentence in double quotes: `"Well met."`; `"…"` if nothing is left. */
export const quoted = (text: string, max = 160, prefer?: RegExp): string =>
  `"${quotable(text, max, prefer) ?? "…"}"`;

/** Words that open a sentence but may open a clause in lower case (never a name). */
const LOWERABLE =
  /^(The|A|An|It|Its|It's|There|This|That|These|Those|He|She|They|We|Some|Someone|Everyone|Nobody|No|Nothing|Our|Their|His|Her|Your)\b/;

/** A sentence set after "that" or "to" inside another: its opening article or pronoun lowered. */
export const asClause = (text: string): string => text.replace(LOWERABLE, (w) => w.toLowerCase());

/** Verbs that open a command ("Tell them a secret…"): a command is never a fact to retell. */
const COMMAND =
  /^(?:please,?\s+)?(tell|give|bring|go|ask|find|take|show|let|make|keep|fetch|send|say|get|put|leave|stop|come|look|listen|help|meet|buy|sell|follow|wait)\b/i;

/** Whether a sentence is a command to the listener rather than something it states. */
export const isCommand = (sentence: string): boolean => COMMAND.test(sentence.trim());
