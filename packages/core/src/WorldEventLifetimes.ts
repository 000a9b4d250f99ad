/**
 * How long a world event stays current news, by its importance: the lifetime of the
 * first band its importance reaches (bands from the most important down), or forever
 * (null) — pinned events and the most important ones may be permanent. The time it
 * lapses is worked out once, when it is recorded, and written into the event
 * (`WorldEventOccurred.lapsesAt`), so every reader of the log — the run, a resume,
 * `hearsay dossier`, the inspector, an export — agrees on it without the run's config.
 */
import { type GameTime, MINUTES_PER_DAY } from "./GameTime.ts";

/** One band: events at least this important last `days` game days (null: never lapse). */
export interface LifetimeBand {
  readonly atLeast: number;
  readonly days: number | null;
}

/** The engine config `worldEventLifetimes`. */
export interface WorldEventLifetimes {
  /** Bands, checked from the highest `atLeast` down; an importance below all lasts `belowDays`. */
  readonly bands: ReadonlyArray<LifetimeBand>;
  /** Days an event less important than every band lasts (null: never lapses). */
  readonly belowDays: number | null;
  /** World event ids (from the world file) that never lapse, whatever their importance. */
  readonly pinned: ReadonlyArray<string>;
}

/** The defaults: the most important events are permanent, small news fades in a week. */
export const defaultWorldEventLifetimes: WorldEventLifetimes = {
  bands: [
    { atLeast: 0.9, days: null },
    { atLeast: 0.7, days: 60 },
    { atLeast: 0.4, days: 21 },
  ],
  belowDays: 7,
  pinned: [],
};

/** Game days an event of `importance` stays current (null: it never lapses). */
export const worldEventLifetimeDays = (
  lifetimes: WorldEventLifetimes,
  importance: number,
): number | null => {
  let best: LifetimeBand | undefined;
  for (const b of lifetimes.bands)
    if (importance >= b.atLeast && (best === undefined || b.atLeast > best.atLeast)) best = b;
  return best === undefined ? lifetimes.belowDays : best.days;
};

/** When a world event recorded at `t` lapses (null: never). */
export const worldEventLapsesAt = (
  lifetimes: WorldEventLifetimes,
  event: { readonly id: string; readonly importance: number },
  t: GameTime,
): GameTime | null => {
  if (lifetimes.pinned.includes(event.id)) return null;
  const days = worldEventLifetimeDays(lifetimes, event.importance);
  return days === null ? null : ((t + Math.round(days * MINUTES_PER_DAY)) as GameTime);
};

/** Whether an event lapsing at `lapsesAt` is still current at `t`. */
export const worldEventCurrentAt = (lapsesAt: GameTime | number | null, t: GameTime | number) =>
  lapsesAt === null || lapsesAt > t;
