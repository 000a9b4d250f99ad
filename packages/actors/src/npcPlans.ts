/**
 * An NPC's plans: what its routine does when nothing significant calls for a decision,
 * what a brain's chosen action leads to, when a wake-up is significant enough to ask the
 * brain, and the context a plan leads to. Pure functions of the npc machine's context.
 */
import {
  type Activity,
  type GameTime,
  hourOf,
  type LocationId,
  MINUTES_PER_HOUR,
} from "@hearsay/core";
import type { NpcAction } from "./NpcAction.ts";
import type { NpcActivityState, NpcContext } from "./npcTypes.ts";
import { isNight, minutesUntilSleep, nextHourAt } from "./routine.ts";

const WORK_SHIFT_MINUTES = 4 * MINUTES_PER_HOUR;
const IDLE_MINUTES = 2 * MINUTES_PER_HOUR;
const TASK_WORK_MINUTES = 3 * MINUTES_PER_HOUR;

export type Plan = Partial<NpcActivityState> & {
  readonly activity: Activity;
  readonly note: string;
};

/**
 * What the routine can lead to, most common first: a WAKE's transitions test only these
 * (a conversation or a debate is only ever joined, or decided on).
 */
export const routineActivities = ["working", "idle", "travelling", "asleep"] as const;
export type RoutinePlan = Plan & { readonly activity: (typeof routineActivities)[number] };

/** Game time `minutes` after `t`, never sooner than one tick. */
export const later = (ctx: NpcContext, minutes: number): GameTime =>
  (ctx.t + Math.max(ctx.tickMinutes, Math.ceil(minutes))) as GameTime;

const night = (ctx: NpcContext) =>
  isNight(hourOf(ctx.t), ctx.schedule.wakeHour, ctx.schedule.sleepHour);

const travelTo = (ctx: NpcContext, to: LocationId, note: string): RoutinePlan | null => {
  if (to === ctx.locationId) return null;
  const minutes = ctx.routes.travelMinutes(ctx.locationId, to);
  if (minutes === null) return null;
  return { activity: "travelling", destination: to, until: later(ctx, minutes), note };
};

/** The routine: what an NPC does when nothing significant calls for a decision. */
export const routine = (ctx: NpcContext): RoutinePlan => {
  const { home, workplace, wakeHour, sleepHour } = ctx.schedule;
  if (night(ctx)) {
    return (
      travelTo(ctx, home, "heading home for the night") ?? {
        activity: "asleep",
        until: nextHourAt(ctx.t, wakeHour),
        note: "asleep",
      }
    );
  }
  const awake = minutesUntilSleep(ctx.t, wakeHour, sleepHour);
  if (workplace !== null && awake > MINUTES_PER_HOUR) {
    const go = travelTo(ctx, workplace, "off to work");
    if (go) return go;
    if (ctx.locationId === workplace) {
      return {
        activity: "working",
        until: later(ctx, Math.min(WORK_SHIFT_MINUTES, awake)),
        note: "at work",
      };
    }
  }
  return {
    activity: "idle",
    until: later(ctx, Math.min(IDLE_MINUTES, Math.max(awake, 1))),
    note: "passing the time",
  };
};

/** Turns the brain's chosen action into the next activity. */
export const planFor = (ctx: NpcContext, action: NpcAction): Plan => {
  switch (action.action) {
    case "speak":
      return {
        activity: "conversing",
        attendingTo: [action.to],
        until: later(ctx, 0),
        note: "talking",
      };
    case "move":
      return (
        travelTo(ctx, action.to, action.reason) ?? {
          activity: "idle",
          until: later(ctx, 0),
          note: "stayed put",
        }
      );
    case "work":
      return {
        activity: "working",
        taskId: action.taskId,
        until: later(ctx, TASK_WORK_MINUTES),
        note: action.note,
      };
    case "propose_task":
      return { activity: "idle", until: later(ctx, 0), note: `proposed: ${action.title}` };
    case "give_up":
    case "withdraw":
    case "move_deadline":
      return { activity: "idle", until: later(ctx, 0), note: action.reason };
    case "rest":
      return {
        activity: "idle",
        until: later(ctx, action.hours * MINUTES_PER_HOUR),
        note: "resting",
      };
  }
};

export const significant = (ctx: NpcContext): "company" | "concern" | "task" | null => {
  if (night(ctx)) return null;
  if (ctx.concerns > 0) return "concern";
  if (ctx.openTasks.length > 0 && ctx.roll < 0.5) return "task";
  if (ctx.company > 0 && ctx.roll < 0.3) return "company";
  return null;
};

/**
 * The whole context a plan leads to, its note and work shift included: its fields
 * written out, not spread, so a WAKE (the engine's most common send) builds one
 * object the fast way (a copy, then named stores) rather than merging two.
 */
export const withPlan = (ctx: NpcContext, plan: Plan): NpcContext => ({
  ...ctx,
  activity: plan.activity,
  destination: plan.destination ?? null,
  until: plan.until ?? null,
  taskId: plan.taskId ?? null,
  attendingTo: plan.attendingTo ?? [],
  locationId: plan.locationId ?? ctx.locationId,
  note: plan.note,
  workMinutes: shiftOf(ctx, plan),
});

/** The length of a work shift a plan starts (0 for anything else). */
const shiftOf = (ctx: NpcContext, plan: Plan): number =>
  plan.activity === "working" && plan.until !== undefined && plan.until !== null
    ? plan.until - ctx.t
    : 0;
