/**
 * The known name a misspelt one most likely meant ("olama" → "ollama"), for an error's
 * "did you mean" — or null when none is close (more edits apart than a third of its
 * letters, rounded up), so a wholly unknown key is not given a wild guess.
 */
import { distance } from "fastest-levenshtein";

export const nearestName = (name: string, known: ReadonlyArray<string>): string | null => {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.ceil(name.length / 3)) ? best : null;
};

/** " (did you mean `x`?)" for the nearest known name, or "" when none is near. */
export const didYouMean = (name: string, known: ReadonlyArray<string>): string => {
  const near = nearestName(name, known);
  return near === null ? "" : `did you mean \`${near}\`?`;
};
