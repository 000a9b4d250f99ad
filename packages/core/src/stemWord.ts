/**
 * A light English stemmer — plural, possessive, -ing and -ed endings — shared by every
 * bag-of-words embedding (the hashing embedder, the test server's fitted model), so
 * "swords" and "sword" land on the same feature in both.
 */
export const stemWord = (w: string): string => {
  let s = w.endsWith("'s") ? w.slice(0, -2) : w;
  if (s.length > 4 && s.endsWith("ies")) return `${s.slice(0, -3)}y`;
  if (s.length > 4 && /(ss|x|z|ch|sh)es$/.test(s)) return s.slice(0, -2);
  if (s.length > 3 && s.endsWith("s") && !s.endsWith("ss") && !s.endsWith("us")) s = s.slice(0, -1);
  else if (s.length > 5 && s.endsWith("ing")) s = s.slice(0, -3);
  else if (s.length > 4 && s.endsWith("ed")) s = s.slice(0, -2);
  return s;
};
