/**
 * An NPC's plans: what its routine does when nothing significant calls for a decision,
 * what a brain's chosen action leads to, when a wake-up is significant enough to ask the
 * brain, and what a plan changes in the machine's context. Pure functions of where and
 * when the NPC plans (`PlanAt`) and, for gating, of its facts and its wake-up.
 */
import {
  type Activity,
  type GameTime,
  hourOf,
  type LocationId,
  MINUTES_PER_HOUR,
} from "@hearsay/core";
import type { NpcAction } from "./NpcAction.ts";
import type { NpcFacts } from "./NpcFacts.ts";
import type { NpcActivityState, NpcContext, NpcFixed } from "./npcTypes.ts";
import { isNight, minutesUntilSleep, nextHourAt } from "./routine.ts";

const WORK_SHIFT_MINUTES = 4 * MINUTES_PER_HOUR;
const IDLE_MINUTES = 2 * MINUTES_PER_HOUR;
const TASK_WORK_MINUTES = 3 * MINUTES_PER_HOUR;

export type Plan = Partial<NpcActivityState> & {
  readonly activity: Activity;
  readonly note: string;
};

/** What the routine can lead to (a conversation or a debate is only ever joined, or decided on). */
export type RoutinePlan = Plan & {
  readonly activity: "working" | "idle" | "travelling" | "asleep";
};

/**
 * Whose plan, when and where it is made: all the routine and a chosen action read. A
 * context is one (`NpcContext`); a wake-up's is where it ends a journey, at its time.
 */
export interface PlanAt {
  readonly fixed: NpcFixed;
  readonly t: GameTime;
  readonly locationId: LocationId;
}

/** Game time `minutes` after `t`, never sooner than one tick. */
export const later = (ctx: PlanAt, minutes: number): GameTime =>
  (ctx.t + Math.max(ctx.fixed.tickMinutes, Math.ceil(minutes))) as GameTime;

const night = (ctx: PlanAt) =>
  isNight(hourOf(ctx.t), ctx.fixed.schedule.wakeHour, ctx.fixed.schedule.sleepHour);

const travelTo = (ctx: PlanAt, to: LocationId, note: string): RoutinePlan | null => {
  if (to === ctx.locationId) return null;
  const minutes = ctx.fixed.routes.travelMinutes(ctx.locationId, to);
  if (minutes === null) return null;
  return { activity: "travelling", destination: to, until: later(ctx, minutes), note };
};

/** The routine: what an NPC does when nothing significant calls for a decision. */
export const routine = (ctx: PlanAt): RoutinePlan => {
  const { home, workplace, wakeHour, sleepHour } = ctx.fixed.schedule;
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
export const planFor = (ctx: PlanAt, action: NpcAction): Plan => {
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

/** Whether an open task is assigned to it: one it could work on. */
const holdsOpenTask = (facts: NpcFacts): boolean => {
  for (const task of facts.open.values()) if (task.assignee === facts.npcId) return true;
  return false;
};

/**
 * Whether a wake-up at `ctx` calls for the brain, and why: something learnt since it last
 * changed activity, else an open task or company when its roll says so; never at night.
 */
export const significant = (
  ctx: PlanAt,
  facts: NpcFacts,
  wake: { readonly company: number; readonly roll: number },
): "company" | "concern" | "task" | null => {
  if (night(ctx)) return null;
  if (facts.concerns > 0) return "concern";
  if (wake.roll < 0.5 && facts.open.size > 0 && holdsOpenTask(facts)) return "task";
  if (wake.company > 0 && wake.roll < 0.3) return "company";
  return null;
};

/** What a plan changes in the context: the activity it leads to, its note and work shift. */
export type Planned = Pick<
  NpcContext,
  | "t"
  | "activity"
  | "locationId"
  | "destination"
  | "until"
  | "taskId"
  | "attendingTo"
  | "note"
  | "workMinutes"
>;

/**
 * What a plan made at `at` assigns: its fields written out, always the same ones, so each
 * context the machine holds has one shape and a WAKE (the engine's most common send)
 * copies the context once (the assignment's own merge) rather than building it twice.
 */
export const planned = (at: PlanAt, plan: Plan): Planned => ({
  t: at.t,
  activity: plan.activity,
  locationId: plan.locationId ?? at.locationId,
  destination: plan.destination ?? null,
  until: plan.until ?? null,
  taskId: plan.taskId ?? null,
  attendingTo: plan.attendingTo ?? [],
  note: plan.note,
  workMinutes: shiftOf(at, plan),
});

/** The length of a work shift a plan starts (0 for anything else). */
const shiftOf = (at: PlanAt, plan: Plan): number =>
  plan.activity === "working" && plan.until !== undefined && plan.until !== null
    ? plan.until - at.t
    : 0;
