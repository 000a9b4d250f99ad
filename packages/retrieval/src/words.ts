/**
 * Word splitting shared by the hashing embedder, keyword queries and entity matching:
 * lower-cased runs of letters and digits (any script), with a small English stopword
 * list. One definition, so "what counts as a word" cannot drift between them.
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Lower-cased words of `text`, in order (apostrophe suffixes kept: `smith's`). */
export const words = (text: string): Array<string> => {
  // `match` with the global flag gives the matched strings alone, no match objects.
  const out = text.toLowerCase().match(WORD);
  if (out === null) return [];
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.includes("’")) out[i] = out[i]!.replace("’", "'");
  }
  return out;
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

/** The words of `text` that carry meaning (stopwords and 1-letter words dropped). */
export const contentWords = (text: string): Array<string> =>
  words(text).filter((w) => w.length > 1 && !STOPWORDS.has(w));
