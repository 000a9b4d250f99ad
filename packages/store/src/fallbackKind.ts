/**
 * Why a recorded call did not get the model, read from its recorded reason
 * (`LlmCallRecorded.error`: the brain's error messages in order, joined by "; "):
 *
 *   held   — the tick's model budget was held for higher-class calls of the same tick;
 *   budget — a budget limit (calls per run, per day, tokens) was spent;
 *   model  — the model failed (unreachable, timed out, invalid answers).
 *
 * A reason naming both a model failure and a budget is `budget`: the budget is why no
 * other model was tried. `stats` and the inspector's cost view count by these.
 */
export const fallbackKinds = ["held", "budget", "model"] as const;
export type FallbackKind = (typeof fallbackKinds)[number];

const held = /(^|; )budget .+ held for \d+ higher-class calls of this tick/;
const spent = /(^|; )budget .+ spent \(\d+ of \d+\)/;

/** The kind of a recorded call's fallback; null when it was not refused. */
export const fallbackKindOf = (error: string | null): FallbackKind | null => {
  if (error === null) return null;
  if (held.test(error)) return "held";
  if (spent.test(error)) return "budget";
  return "model";
};
