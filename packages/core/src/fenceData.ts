/**
 * The fence for text written by a model or by anyone in the world — generated profiles,
 * memories, summaries, dialogue, debate speeches, lore — wherever a prompt carries it:
 * `«` + the text + `»`, with backslashes, both markers and line breaks inside escaped
 * (`\\`, `\«`, `\»`, `\n`, `\r`). So a fenced text is one line with exactly one
 * unescaped open and close marker: nothing inside can close the fence, start a line of
 * its own (a forged heading or "SYSTEM:" line) or pass for the prompt's own words, and
 * `unfenceData` gives the text back exactly. Prompts say that fenced text is data.
 *
 * `FencedText` is branded: a prompt's dossier lines are built from it only, so text can
 * reach them through this fence and no other way.
 */

export const FENCE_OPEN = "«";
export const FENCE_CLOSE = "»";

declare const fenced: unique symbol;
/** Text that went through `fenceData`. */
export type FencedText = string & { readonly [fenced]: true };

const escapes: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  [FENCE_OPEN]: `\\${FENCE_OPEN}`,
  [FENCE_CLOSE]: `\\${FENCE_CLOSE}`,
  "\n": "\\n",
  "\r": "\\r",
};

/** `«text»` with the markers, backslashes and line breaks inside escaped. */
export const fenceData = (text: string): FencedText =>
  `${FENCE_OPEN}${text.replace(/[\\«»\n\r]/g, (c) => escapes[c]!)}${FENCE_CLOSE}` as FencedText;

const unescapes: Readonly<Record<string, string>> = { n: "\n", r: "\r" };

/** The text a fence holds. @throws when `fenced` is not one fenced text */
export const unfenceData = (fenced: string): string => {
  if (!fenced.startsWith(FENCE_OPEN) || !fenced.endsWith(FENCE_CLOSE) || fenced.length < 2)
    throw new Error("unfenceData: not a fenced text");
  const inner = fenced.slice(1, -1);
  let out = "";
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c !== "\\") {
      if (c === FENCE_OPEN || c === FENCE_CLOSE)
        throw new Error("unfenceData: an unescaped marker inside the fence");
      out += c;
      continue;
    }
    const next = inner[++i];
    if (next === undefined) throw new Error("unfenceData: a dangling escape");
    out += unescapes[next] ?? next;
  }
  return out;
};
