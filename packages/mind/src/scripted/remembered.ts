/**
 * The scripted brain's one memo: its rules are pure functions of their arguments, asked
 * the same questions turn after turn, so a remembered answer is the one computing it
 * would give.
 */

/**
 * A pure `(text, n) => result` remembered per text and `n`, every cache dropped whole once
 * `limit` results are held. The scripted brain quotes the same dossier texts turn after
 * turn (a lore chunk, the day's news, a task's title), fills the same phrasebook
 * templates, and names the same people.
 */
export const remembered = <R>(
  f: (text: string, n: number) => R,
  limit = 4096,
): ((text: string, n: number) => R) => {
  const byN = new Map<number, Map<string, R>>();
  let held = 0;
  return (text, n) => {
    let known = byN.get(n);
    // One lookup for a remembered answer (they are never undefined); `has` only on a miss.
    const hit = known?.get(text);
    if (hit !== undefined || known?.has(text)) return hit as R;
    const result = f(text, n);
    if (held >= limit) {
      byN.clear();
      held = 0;
      known = undefined;
    }
    if (known === undefined) {
      known = new Map();
      byN.set(n, known);
    }
    known.set(text, result);
    held += 1;
    return result;
  };
};
