/**
 * Reads a JSON string field out of an answer that is still arriving. A structured reply
 * is a JSON object whose first field is `text`; while it streams, this decodes as much
 * of that string as has arrived (stopping short of a half-received escape), so the
 * words can be shown before the object closes. It answers null until the field's
 * opening quote has arrived, and only for a field that comes first.
 */

/** The decoded prefix of the leading string field `field` of a partial JSON object. */
export const textFieldPrefix = (partial: string, field = "text"): string | null => {
  const head = new RegExp(`^\\s*\\{\\s*"${field}"\\s*:\\s*"`).exec(partial);
  if (head === null) return null;
  let raw = "";
  for (let i = head[0].length; i < partial.length; i++) {
    const c = partial[i]!;
    if (c === '"') break;
    if (c === "\\") {
      const next = partial[i + 1];
      if (next === undefined) break;
      if (next === "u") {
        if (i + 6 > partial.length) break;
        raw += partial.slice(i, i + 6);
        i += 5;
        continue;
      }
      raw += c + next;
      i += 1;
      continue;
    }
    raw += c;
  }
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    // A lone surrogate half or a stray control character: show what decodes so far.
    return null;
  }
};
