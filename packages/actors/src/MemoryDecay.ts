/**
 * How a memory fades and is refreshed, as a pure function of what its owner holds:
 * importance halves every half-life of its category from the last time it was
 * reinforced (or recorded), so nothing needs writing while it fades. Reading it in a
 * dossier reinforces it: it rises by `reinforceBy` from what it had faded to, and fades
 * from then on. Below `forgetBelow` it is forgotten — the time that happens follows from
 * the same numbers (`forgetAt`), so forgetting is scheduled like an expiry.
 *
 * Identity memories never fade (who an NPC is), whatever the half-lives say.
 */
import type { GameTime, MemoryCategory } from "@hearsay/core";

/** The decay parameters a run uses (engine config `memoryDecay`). */
export interface MemoryDecay {
  /** Game days for a category's importance to halve; null: it never fades. */
  readonly halfLifeDays: Readonly<Record<MemoryCategory, number | null>>;
  /** A memory whose importance falls below this is forgotten. */
  readonly forgetBelow: number;
  /** What one reinforcement adds to the importance it had faded to (capped at 1; 0: none). */
  readonly reinforceBy: number;
  /** Game hours after a reinforcement during which reading it again changes nothing. */
  readonly reinforceAfterHours: number;
}

/** What decay reads of a memory. */
export interface Fading {
  readonly category: MemoryCategory;
  readonly pinned: boolean;
  /** Its importance at `since`. */
  readonly importance: number;
  /** When it was recorded or last reinforced. */
  readonly since: GameTime;
}

const MINUTES_PER_DAY = 24 * 60;

/** Game minutes for the memory's importance to halve; null: it never fades. */
export const halfLifeMinutes = (decay: MemoryDecay, m: Fading): number | null => {
  if (m.pinned) return null;
  const days = decay.halfLifeDays[m.category];
  return days === null || days <= 0 ? null : days * MINUTES_PER_DAY;
};

/** A memory's importance at `t` (at or after `since`): never more than it had at `since`. */
export const importanceAt = (decay: MemoryDecay, m: Fading, t: GameTime): number =>
  fadedTo(m, halfLifeMinutes(decay, m), t);

/** `importanceAt` for a memory whose half-life (`halfLifeMinutes`) the caller already has. */
export const fadedTo = (m: Fading, half: number | null, t: GameTime): number =>
  half === null || t <= m.since ? m.importance : m.importance * 2 ** (-(t - m.since) / half);

/**
 * When the memory is forgotten: the first whole minute at which its importance is below
 * `forgetBelow` (null: never — it does not fade). Forgetting is decided by this time alone
 * (`t >= forgetAt`), so a live run and a resumed one decide it alike.
 */
export const forgetAt = (decay: MemoryDecay, m: Fading): GameTime | null =>
  fadesOutAt(decay, m, halfLifeMinutes(decay, m));

/** `forgetAt` for a memory whose half-life (`halfLifeMinutes`) the caller already has. */
export const fadesOutAt = (decay: MemoryDecay, m: Fading, half: number | null): GameTime | null => {
  if (half === null) return null;
  if (m.importance < decay.forgetBelow) return m.since;
  // Strictly below the threshold: one minute past the instant it reaches it.
  return (m.since + Math.floor(half * Math.log2(m.importance / decay.forgetBelow)) + 1) as GameTime;
};

/**
 * Whether reading the memory at `t` reinforces it: not when reinforcement is off
 * (`reinforceBy` 0), not one that never fades, and not again within `reinforceAfterHours` of its last reinforcement (or its record).
 */
export const reinforcesAt = (decay: MemoryDecay, m: Fading, t: GameTime): boolean =>
  decay.reinforceBy > 0 &&
  halfLifeMinutes(decay, m) !== null &&
  t >= m.since + decay.reinforceAfterHours * 60;

/** The memory as a reinforcement at `t` leaves it: raised from what it had faded to. */
export const reinforced = <M extends Fading>(decay: MemoryDecay, m: M, t: GameTime): M => ({
  ...m,
  importance: Math.min(1, importanceAt(decay, m, t) + decay.reinforceBy),
  since: t,
});

/** The defaults: promises and secrets fade slowest after identity, which never does. */
export const defaultMemoryDecay: MemoryDecay = {
  halfLifeDays: {
    identity: null,
    background: 120,
    promise: 90,
    secret: 90,
    relationship: 60,
    task: 30,
    known_info: 30,
    debate: 30,
    world: 20,
    location: 20,
    conversation: 14,
    observation: 10,
    scene: 7,
  },
  forgetBelow: 0.1,
  reinforceBy: 0.1,
  reinforceAfterHours: 24,
};
