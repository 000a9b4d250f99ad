/**
 * A time skip of a stored run, headless: the run resumes from its log, makes the skip
 * through the engine's own `skips` (Skips.ts does the work, every step recorded) and
 * stops where the skip ends. Two modes:
 *
 * - `jump`: the clock moves on a day at a time, applying only what time alone decides
 *   (task deadlines, memory expiry and forgetting by decay, caps, stale threads: see
 *   Skips.ts); nothing happens and no NPC takes a turn or moves. Each day is one
 *   `ClockAdvanced` of mode `jump`.
 * - `elision`: the days pass at coarse ticks: every `elisionStepMinutes` of game time,
 *   the world-level rules run for the span and everyone finishes what they
 *   were doing (a `ClockAdvanced` of mode `elision`), then one ordinary tick lets every
 *   NPC due take its turn. Slower than a jump; NPCs go on living, a few times a day.
 *
 * A skip that reaches the run's end day extends the run to the day after the skip ends,
 * recorded as a `RunResumed` with the new end day, as `chat`'s `/skip` does: the world
 * clock stops at the run's end, and the skip's last day still has to be run after the
 * clock has moved. `run --resume` then plays that last day. `replay --verify` reads
 * every step back off the log (RunPlan.ts) and makes it again.
 */
import { dayOf, type GameTime, MINUTES_PER_DAY, MINUTES_PER_HOUR } from "@hearsay/core";
import { RunRefused } from "./EngineError.ts";
import { type RunSummary, runSimulation, type SimulationSpec } from "./Simulation.ts";
import type { SkipMode } from "./Skips.ts";

/** How often NPCs take a turn during an elision: four times a game day. */
export const ELISION_STEP_MINUTES = 6 * MINUTES_PER_HOUR;

export interface SkipSpec
  extends Omit<SimulationSpec, "days" | "seed" | "resume" | "skips" | "maxTicks" | "onProgress"> {
  /** Game days to skip (a whole number, 1 or more). */
  readonly skipDays: number;
  readonly mode: SkipMode;
  /** After each step: game days skipped so far (fractional) and events written. */
  readonly onProgress?: (skipped: number, events: number) => void;
}

export interface SkipSummary extends RunSummary {
  /** When the skip began and ended, and the run's end day before and after. */
  readonly from: GameTime;
  readonly to: GameTime;
  readonly endDayBefore: number;
  readonly endDay: number;
}

type Planned = NonNullable<SimulationSpec["skips"]>[number];

/** The run's clock and end day, as its read model holds them. */
const clockOf = (spec: SkipSpec): { readonly t: GameTime; readonly endDay: number } => {
  const row = spec.log.db
    .prepare("SELECT t, end_day AS endDay FROM world_state WHERE save_id = ?")
    .get(spec.saveId) as { t: number; endDay: number } | undefined;
  if (row === undefined) {
    throw new RunRefused({
      reason: `save "${spec.saveId}" holds no started run`,
      fix: "run a simulation into it first (hearsay run), then skip",
    });
  }
  return { t: row.t as GameTime, endDay: row.endDay };
};

/**
 * The steps of a skip of `days` days from `t` on a world ticking every `tick` minutes:
 * the skips to make, and how many engine steps (ticks and skips) that takes. Skips start
 * on the hour, so a clock between hours first ticks up to the next one.
 */
export const planSkip = (
  t: number,
  days: number,
  mode: SkipMode,
  tick: number,
): { readonly skips: ReadonlyArray<Planned>; readonly steps: number; readonly end: number } => {
  const aligned = Math.ceil(t / MINUTES_PER_HOUR) * MINUTES_PER_HOUR;
  let steps = Math.ceil((aligned - t) / tick);
  const start = t + steps * tick;
  const end = start + days * MINUTES_PER_DAY;
  const at = (from: number) => ({
    atDay: dayOf(from as GameTime),
    atHour: (from % MINUTES_PER_DAY) / MINUTES_PER_HOUR,
  });
  const skips: Array<Planned> = [];
  if (mode === "jump") {
    for (let from = start; from < end; from += MINUTES_PER_DAY) {
      skips.push({ ...at(from), mode, days: 1 });
      steps += 1;
    }
    return { skips, steps, end };
  }
  // A step is an elision and then one ordinary tick; never shorter than two ticks.
  const step = Math.max(2, Math.round(ELISION_STEP_MINUTES / tick)) * tick;
  for (let from = start; from < end; ) {
    const span = Math.min(step, end - from);
    if (span > tick) {
      skips.push({ ...at(from), mode, days: (span - tick) / MINUTES_PER_DAY });
      steps += 2;
    } else steps += Math.ceil(span / tick);
    from += span;
  }
  return { skips, steps, end };
};

/** Skips a stored run `skipDays` days on. The caller holds the save's writer lock. */
export const skipSave = async (spec: SkipSpec): Promise<SkipSummary> => {
  const { skipDays, mode, onProgress, ...base } = spec;
  if (!Number.isInteger(skipDays) || skipDays < 1) {
    throw new RunRefused({
      reason: `cannot skip ${skipDays} days`,
      fix: "skip a whole number of days, 1 or more",
    });
  }
  const before = clockOf(spec);
  const startDay = spec.world.meta.start.day;
  const plan = planSkip(before.t, skipDays, mode, spec.world.meta.tickMinutes);
  // The run must end after the skip: the world clock stops at the run's end, and the
  // skip's last day (its debates among them) is run after the clock has moved.
  const endDay =
    before.endDay * MINUTES_PER_DAY > plan.end
      ? before.endDay
      : Math.floor(plan.end / MINUTES_PER_DAY) + 1;
  const summary = await runSimulation({
    ...base,
    resume: true,
    days: endDay - startDay,
    skips: plan.skips,
    maxTicks: plan.steps,
    ...(onProgress === undefined
      ? {}
      : { onProgress: (p) => onProgress((p.t - before.t) / MINUTES_PER_DAY, p.events) }),
  });
  return {
    ...summary,
    from: before.t,
    to: summary.t,
    endDayBefore: before.endDay,
    endDay,
  };
};
