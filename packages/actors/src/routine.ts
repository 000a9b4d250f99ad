/**
 * The daily-routine arithmetic an NPC machine needs: whether an hour is night for its
 * schedule, and when its next waking or sleeping hour comes. Pure functions of game time.
 */
import { type GameTime, hourOf, MINUTES_PER_DAY, MINUTES_PER_HOUR } from "@hearsay/core";

/** True when `hour` falls in the sleep window [sleepHour, wakeHour), which may wrap midnight. */
export const isNight = (hour: number, wakeHour: number, sleepHour: number): boolean =>
  sleepHour > wakeHour
    ? hour >= sleepHour || hour < wakeHour
    : hour >= sleepHour && hour < wakeHour;

/** The first time strictly after `t` whose clock reads `hour`:00. */
export const nextHourAt = (t: GameTime, hour: number): GameTime => {
  const dayStart = t - (t % MINUTES_PER_DAY);
  let next = dayStart + hour * MINUTES_PER_HOUR;
  if (next <= t) next += MINUTES_PER_DAY;
  return next as GameTime;
};

/** Minutes left before the sleep hour, or `fallback` when it is already night. */
export const minutesUntilSleep = (t: GameTime, wakeHour: number, sleepHour: number): number =>
  isNight(hourOf(t), wakeHour, sleepHour) ? 0 : nextHourAt(t, sleepHour) - t;
