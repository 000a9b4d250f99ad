/**
 * A tick's model budget, spent in priority order across the whole tick — not only within
 * one batch. A tick's phases (scenes, debates, turns, talk) ask at different times and
 * later ones depend on earlier answers, so their calls cannot all be sorted at once.
 * Instead the tick starts with a forecast: for each class, how many calls of at most that
 * class the rest of the tick may ask (an upper bound per call, at the highest class the
 * call could get). A call is granted the model only if what is left after it still
 * covers every forecast call of a higher class; so a lower class never spends what a
 * higher-class call later in the tick will need. And once a call is refused, no later
 * call of the tick at or below its class is granted: the forecast counts a call at the
 * highest class it could get, so what it held back for "higher" calls may end up with a
 * lower one, which must not then get what the refused call was denied.
 *
 * Guarantee: if every call of the tick is covered by the forecast (each call matched to
 * a forecast slot of its class or higher), no call that got the model has a lower class
 * than one in the same tick that was refused. A call the forecast did not cover is still
 * decided by the same rule and counted as `unforeseen`, so a forecast too small shows.
 *
 * Pure bookkeeping: no clock, no randomness; the same asks give the same decisions.
 */
import { type PriorityClass, priorityClasses, rankOf } from "./BrainPolicy.ts";

/** How many calls of the tick may come at each class (their highest possible class). */
export type ClassCounts = Readonly<Partial<Record<PriorityClass, number>>>;

/** A decision: granted, or refused with the number of calls held for higher classes. */
export type LedgerDecision =
  | { readonly granted: true }
  | { readonly granted: false; readonly left: number; readonly heldForHigher: number };

export class TickLedger {
  /** Forecast slots not yet matched to a call, by class rank. */
  private readonly open: Array<number>;
  private left: number;
  private unforeseenCalls = 0;
  /** The highest class refused so far (by rank); -1: none. */
  private floor = -1;

  /**
   * `left`: model calls the budget allows for the tick (null: no limit);
   * `forecast`: the tick's calls by their highest possible class.
   */
  constructor(left: number | null, forecast: ClassCounts) {
    this.left = left ?? Number.POSITIVE_INFINITY;
    this.open = priorityClasses.map((c) => Math.max(0, Math.floor(forecast[c] ?? 0)));
  }

  /** Calls asked that no forecast slot covered. */
  get unforeseen(): number {
    return this.unforeseenCalls;
  }

  /** Calls the tick may still grant. */
  get remaining(): number {
    return this.left;
  }

  /**
   * Narrows the forecast of the rest of the tick, once a phase knows more (who woke, who
   * spoke): for every class, the open slots at or above it become the smaller of what
   * they were and what `forecast` says. Never widening keeps what was already held for
   * higher classes held, so the guarantee stands for calls decided before.
   */
  narrow(forecast: ClassCounts): void {
    let before = 0;
    let proposed = 0;
    let above = 0;
    for (let k = this.open.length - 1; k >= 0; k--) {
      before += this.open[k]!;
      proposed += Math.max(0, Math.floor(forecast[priorityClasses[k]!] ?? 0));
      const atOrAbove = Math.min(before, proposed);
      this.open[k] = atOrAbove - above;
      above = atOrAbove;
    }
  }

  /**
   * Decides one call of class `priority` (`force`: grant it whatever is left — the
   * player's talk): `claim` then `decide`.
   */
  ask(priority: PriorityClass, force = false): LedgerDecision {
    this.claim(priority);
    return this.decide(priority, force);
  }

  /**
   * Decides a batch asked together, given in spending order (highest class first): every
   * call claims its slot before any is decided, so a call is not held back for slots its
   * own batch-mates are about to take at a lower class than forecast.
   */
  askBatch(priorities: ReadonlyArray<PriorityClass>, force: (c: PriorityClass) => boolean) {
    for (const p of priorities) this.claim(p);
    return priorities.map((p) => this.decide(p, force(p)));
  }

  /**
   * Matches a call to the lowest open forecast slot at or above its class: taking the
   * lowest keeps every higher slot for the higher calls still to come.
   */
  private claim(priority: PriorityClass): void {
    let slot = rankOf(priority);
    while (slot < this.open.length && this.open[slot] === 0) slot++;
    if (slot < this.open.length) this.open[slot]! -= 1;
    else this.unforeseenCalls++;
  }

  /** Grants a claimed call if what is left covers every open slot above its class. */
  private decide(priority: PriorityClass, force: boolean): LedgerDecision {
    const rank = rankOf(priority);
    let held = 0;
    for (let k = rank + 1; k < this.open.length; k++) held += this.open[k]!;
    if (!force && (rank <= this.floor || this.left - held < 1)) {
      this.floor = Math.max(this.floor, rank);
      return { granted: false, left: Math.max(0, this.left), heldForHigher: held };
    }
    this.left -= 1;
    return { granted: true };
  }
}
