/**
 * Game time. One number, whole game minutes since the world began (minute 0 of day 0),
 * so time is totally ordered, cheap to compare and exact to store. Days and hours are
 * views of it. Nothing here reads the wall clock: the world clock actor owns "now".
 */
import { Schema } from "effect";

export const GameTime = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).pipe(
  Schema.brand("GameTime"),
);
/** Whole game minutes since day 0, 00:00. */
export type GameTime = typeof GameTime.Type;

export const MINUTES_PER_HOUR = 60;
export const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;

/** Builds a time from a day number (0-based) and an hour of that day. */
export const gameTime = (day: number, hour = 0, minute = 0): GameTime =>
  (day * MINUTES_PER_DAY + hour * MINUTES_PER_HOUR + minute) as GameTime;

/** The day (0-based) a time falls on. */
export const dayOf = (t: GameTime): number => Math.floor(t / MINUTES_PER_DAY);

/** The hour of its day (0–23) a time falls on. */
export const hourOf = (t: GameTime): number => Math.floor((t % MINUTES_PER_DAY) / MINUTES_PER_HOUR);

/** The first minute of a day. */
export const startOfDay = (day: number): GameTime => gameTime(day);

/** Adds game minutes (negative clamps at 0). */
export const addMinutes = (t: GameTime, minutes: number): GameTime =>
  Math.max(0, t + Math.trunc(minutes)) as GameTime;

/** Adds whole game days. */
export const addDays = (t: GameTime, days: number): GameTime =>
  addMinutes(t, days * MINUTES_PER_DAY);

/** `day 3, 14:05` — for logs and prompts. */
export const formatGameTime = (t: GameTime): string => {
  const m = t % MINUTES_PER_HOUR;
  return `day ${dayOf(t)}, ${String(hourOf(t)).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
};

/** Memory lifetimes as the brain names them, in game minutes (null: permanent). */
export const Lifetime = Schema.Literals(["1d", "3d", "7d", "30d", "permanent"]);
export type Lifetime = typeof Lifetime.Type;

export const lifetimeMinutes = (l: Lifetime): number | null =>
  l === "permanent" ? null : Number.parseInt(l, 10) * MINUTES_PER_DAY;
