/**
 * Where a time skip ends and the steps it is carried out in.
 *
 * - A `jump` of N days ends exactly N days on.
 * - An `elision` asked for a span of days ends exactly that far on; one without a span
 *   finishes what every awake NPC is in the middle of: it ends when the last of those
 *   activities would (at most a day on; sleepers are not waited for).
 *
 * Either way it stops at the run's end, and the world's steps run tick by tick over it.
 */
import { type GameTime, MINUTES_PER_DAY } from "@hearsay/core";
import type { ClockSchedule } from "./ClockSchedule.ts";

export type SkipMode = "elision" | "jump";

export type SkipRequest =
  | { readonly mode: "jump"; readonly days: number }
  | { readonly mode: "elision"; readonly days?: number };

/** When an elision from `t` ends: the latest end of an awake activity, within a day. */
export const elisionEnd = (schedule: ClockSchedule, t: GameTime): GameTime => {
  let end: number = t;
  for (const [id, until] of schedule.wakes.entries()) {
    if (until > end && !schedule.asleep.has(id)) end = until;
  }
  return Math.min(end, t + MINUTES_PER_DAY) as GameTime;
};

/** Where a skip from `t` ends, never past `endAt`. */
export const skipEnd = (
  schedule: ClockSchedule,
  t: GameTime,
  request: SkipRequest,
  endAt: GameTime,
): GameTime => {
  // A span in days (whole or not) is exact to the minute; an elision without one lasts
  // until every awake NPC has finished what it is doing.
  const to =
    request.mode === "jump" || request.days !== undefined
      ? t + Math.round((request.days ?? 1) * MINUTES_PER_DAY)
      : elisionEnd(schedule, t);
  return Math.min(to, endAt) as GameTime;
};

/** The step after `t` on the way to `to`: one tick long, the last one cut short. */
export const nextStep = (t: GameTime, to: GameTime, tickMinutes: number): GameTime =>
  Math.min(t + tickMinutes, to) as GameTime;
