/**
 * How one NPC's regard for another moves: a small shift in trust, respect and suspicion,
 * always with the reason it moved. Regard changes only for a reason somebody gave — a
 * brain's answer, or a rule applied to what was said — never by chance.
 */

/** The three levels of a directed relationship edge, each in [-1, 1]. */
export interface RegardLevels {
  readonly trust: number;
  readonly respect: number;
  readonly suspicion: number;
}

/** A change in regard, each delta in [-MAX_SHIFT, MAX_SHIFT], and why. */
export interface RegardShift extends RegardLevels {
  readonly reason: string;
}

/** The largest move one answer can make in any level. */
export const MAX_SHIFT = 0.2;

const bound = (x: number, limit: number): number => Math.max(-limit, Math.min(limit, x));
const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Whether a shift moves nothing (after rounding to the stored precision). */
export const isStill = (s: RegardLevels): boolean =>
  round(s.trust) === 0 && round(s.respect) === 0 && round(s.suspicion) === 0;

/** `prior` moved by `shift`: each delta bounded to MAX_SHIFT, each level to [-1, 1]. */
export const shiftRegard = (prior: RegardLevels, shift: RegardLevels): RegardLevels => ({
  trust: round(bound(prior.trust + bound(shift.trust, MAX_SHIFT), 1)),
  respect: round(bound(prior.respect + bound(shift.respect, MAX_SHIFT), 1)),
  suspicion: round(bound(prior.suspicion + bound(shift.suspicion, MAX_SHIFT), 1)),
});

/** A shift scaled by `factor` (a witness's fainter share of what a participant felt). */
export const scaleShift = (shift: RegardShift, factor: number, reason: string): RegardShift => ({
  trust: shift.trust * factor,
  respect: shift.respect * factor,
  suspicion: shift.suspicion * factor,
  reason,
});
