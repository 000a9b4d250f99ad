/**
 * The npc machine: one NPC's activity lifecycle. It is pure behaviour — the engine sends
 * it what concerns it (its wake-up came due, the brain answered, someone drew it into a
 * conversation or a debate) and listens to what it emits (activity changes, moves, a
 * request for a decision, words spoken). Every delay is a game time in `until`, counted
 * by the world clock: the machine has no `after` transitions and reads no clock.
 *
 *   asleep ──WAKE──▶ choosing ─┬─▶ travelling ──WAKE (arrived)──▶ choosing
 *                              ├─▶ working ──WAKE (shift over)──▶ choosing
 *                              ├─▶ idle ──WAKE──▶ choosing
 *                              ├─▶ asleep (night, at home)
 *                              └─▶ deciding ──DECIDED──▶ conversing | travelling | working | idle
 *   idle | working | deciding ──CONVERSE──▶ conversing;  awake, not travelling ──DEBATE──▶ debating
 *
 * Significance gating lives here: only a wake-up with company, a concern or an open task
 * asks the brain; the rest of a day is routine (sleep, go to work, work, go home). An
 * answer may plan a few steps beyond its action (its agenda, kept in its facts): a wake-up
 * the dice call significant takes a step instead of asking again, and only news that
 * matters to it once the plan is a few hours old (`newsMatters`) or an agenda with no step
 * to take asks the brain (`agenda.ts`).
 *
 * Its context owns what the NPC knows of itself (`NpcFacts`: profile, memories, rumours,
 * regard), and it decides what it forgets: EXPIRE and CAP answer with the memories that
 * go (`MemoryPolicy`), which the engine logs as MemoryExpired.
 */
import type { Activity, AgendaStep, GameTime, LocationId, NpcId, TaskId } from "@hearsay/core";
import { assign, emit, enqueueActions, setup } from "xstate";
import {
  type AgendaTurn,
  agendaChanges,
  agendaTurn,
  plannedSteps,
  type StepScene,
  type TurnAsk,
} from "./agenda.ts";
import { forgetting } from "./MemoryPolicy.ts";
import type { NpcAction } from "./NpcAction.ts";
import { openTasksOf } from "./NpcFacts.ts";
import { type Happening, type NewsReader, newsMatters, newsMayInterrupt } from "./newsMatters.ts";
import {
  type Plan,
  planFor,
  routine,
  routineActivities,
  significant,
  withPlan,
} from "./npcPlans.ts";
import type { NpcContext, NpcEmitted, NpcEvent, NpcInput } from "./npcTypes.ts";

/**
 * The context of an NPC drawn into a conversation or a debate: the plan's activity from
 * `t`, its work shift kept for the `workDone` its leaving work still reports.
 */
const joined = (
  ctx: NpcContext,
  e: { readonly t: GameTime; readonly with: ReadonlyArray<NpcId>; readonly until: GameTime },
  activity: "conversing" | "debating",
  note: string,
): NpcContext => ({
  ...withPlan(ctx, { activity, attendingTo: e.with, until: e.until, note }),
  workMinutes: ctx.workMinutes,
  t: e.t,
});

const activityOf = (ctx: NpcContext, note: string): NpcEmitted => ({
  type: "activity",
  activity: ctx.activity,
  locationId: ctx.locationId,
  destination: ctx.destination,
  until: ctx.until,
  taskId: ctx.taskId,
  attendingTo: ctx.attendingTo,
  note,
});

/** Most NPCs hold no task: they share one empty list rather than make one per WAKE. */
const NO_TASKS: ReadonlyArray<TaskId> = [];

/**
 * The context a WAKE leads to, before any plan: its news (what it learnt since it last
 * changed activity, and its open tasks — both from its own facts) noted, a journey ended.
 */
const woken = (
  ctx: NpcContext,
  e: Extract<NpcEvent, { type: "WAKE" }>,
  arriving: boolean,
): NpcContext => ({
  ...ctx,
  t: e.t,
  company: e.company,
  concerns: ctx.facts.concerns,
  roll: e.roll,
  openTasks: ctx.facts.open.size === 0 ? NO_TASKS : openTasksOf(ctx.facts).map((task) => task.id),
  locationId: arriving ? (ctx.destination ?? ctx.locationId) : ctx.locationId,
  destination: arriving ? null : ctx.destination,
});

/**
 * A value computed once per event an actor takes: the guards of its transitions and the
 * assignment of the one taken all ask for it with the same event object and the same
 * context, synchronously, within one macrostep. So one slot, keyed by both identities,
 * is enough: a different event (another NPC's, or the next one) or context recomputes.
 * (A WeakMap keyed by the event did the same, at the cost of an ephemeron entry per
 * event — the engine's most common send.)
 */
const oncePerEvent = <E extends object, V>(
  compute: (ctx: NpcContext, e: E) => V,
): ((ctx: NpcContext, e: E) => V) => {
  let lastEvent: E | null = null;
  let lastContext: NpcContext | null = null;
  let last: V | undefined;
  return (ctx, e) => {
    if (e !== lastEvent || ctx !== lastContext) {
      last = compute(ctx, e);
      lastEvent = e;
      lastContext = ctx;
    }
    return last as V;
  };
};

/**
 * What a planned step is judged against, and what its news is judged by, at a wake-up
 * (`ctx` is the woken context). One object whose methods read the wake-up, rather than
 * a closure per question: a significant wake-up builds it whether or not it is asked.
 */
class WakeView implements StepScene, NewsReader {
  readonly self: NpcId;
  readonly locationId: LocationId;
  constructor(
    private readonly ctx: NpcContext,
    private readonly e: Extract<NpcEvent, { type: "WAKE" }>,
  ) {
    this.self = ctx.npcId;
    this.locationId = ctx.locationId;
  }
  canReach(to: LocationId): boolean {
    const { ctx } = this;
    return to !== ctx.locationId && ctx.routes.travelMinutes(ctx.locationId, to) !== null;
  }
  sees(npc: NpcId): boolean {
    return this.e.sees?.(npc) ?? false;
  }
  holds(id: TaskId): boolean {
    const task = this.ctx.facts.open.get(id);
    return task !== undefined && task.assignee === this.ctx.npcId;
  }
  done(id: TaskId): boolean {
    return this.ctx.facts.tasks.get(id)?.status === "completed";
  }
  regardFor(other: NpcId): number {
    const r = this.ctx.facts.regard.get(other);
    return r === undefined
      ? 0
      : Math.max(Math.abs(r.trust), Math.abs(r.respect), Math.abs(r.suspicion));
  }
  happening(id: string): Happening | null {
    return this.e.happening?.(id) ?? null;
  }
}

/**
 * What a wake-up leads to: the woken context, and a decision (`ask` says why), a planned
 * step (`step`) or the routine's next activity.
 */
interface Waking {
  readonly next: NpcContext;
  readonly plan: Plan | "decide";
  readonly step: Extract<AgendaTurn, { kind: "step" }> | null;
  readonly ask: TurnAsk | null;
}
const waking = oncePerEvent((ctx: NpcContext, e: Extract<NpcEvent, { type: "WAKE" }>): Waking => {
  const next = woken(ctx, e, ctx.activity === "travelling");
  const why = significant(next);
  if (why === null) return { next, plan: routine(next), step: null, ask: null };
  const view = new WakeView(next, e);
  // News that matters to it asks the brain once its plan is a few hours old; a wake-up the
  // dice chose, or one with nothing learnt that may set the plan aside, takes a planned
  // step if one holds.
  if (
    why === "concern" &&
    next.facts.news.length > 0 &&
    newsMayInterrupt(next.facts.agenda?.plannedAt ?? null, next.t)
  ) {
    if (next.facts.news.some((item) => newsMatters(item, view)))
      return { next, plan: "decide", step: null, ask: "news" };
  }
  const turn = agendaTurn(next.facts.agenda, next.t, view);
  if (turn.kind === "ask") return { next, plan: "decide", step: null, ask: turn.why };
  return { next, plan: planFor(next, turn.step), step: turn, ask: null };
});
const wakePlan = (ctx: NpcContext, e: NpcEvent): Plan | "decide" =>
  e.type === "WAKE" ? waking(ctx, e).plan : { activity: ctx.activity, note: "" };
const wakeStep = (ctx: NpcContext, e: NpcEvent): Waking["step"] =>
  e.type === "WAKE" ? waking(ctx, e).step : null;

/** What saying, proposing or planning an action or a step emits, in that order. */
const voiced = (
  action: NpcAction,
  agenda: { readonly steps: ReadonlyArray<AgendaStep>; readonly plannedAt: GameTime } | null,
): Array<NpcEmitted> => {
  const out: Array<NpcEmitted> = [];
  const a = action;
  if (a.action === "speak")
    out.push({
      type: "speak",
      to: a.to,
      text: a.text,
      regard: a.regard,
      memories: a.memories,
      ends: a.ends,
    });
  if (a.action === "propose_task")
    out.push({
      type: "proposeTask",
      title: a.title,
      description: a.description,
      assignee: a.assignee,
      deadlineDays: a.deadlineDays,
    });
  if (a.action === "give_up" || a.action === "withdraw" || a.action === "move_deadline")
    out.push({
      type: "taskTerms",
      move: a.action,
      taskId: a.taskId,
      days: a.action === "move_deadline" ? a.days : 0,
      reason: a.reason,
    });
  if (agenda !== null) out.push({ type: "agenda", ...agenda });
  return out;
};

/** The agenda an answer given at `t` leaves, or null when it changes nothing. */
const replanned = (
  ctx: NpcContext,
  steps: ReadonlyArray<AgendaStep> | undefined,
  t: GameTime,
): { readonly steps: ReadonlyArray<AgendaStep>; readonly plannedAt: GameTime } | null => {
  const planned = plannedSteps(steps);
  return agendaChanges(ctx.facts.agenda, planned) ? { steps: planned, plannedAt: t } : null;
};

const decisionPlanOf = oncePerEvent((ctx: NpcContext, e: NpcEvent): Plan => {
  if (e.type === "DECLINED")
    return routine({ ...ctx, t: e.t, concerns: 0, company: 0, openTasks: [] });
  if (e.type !== "DECIDED") return { activity: ctx.activity, note: "" };
  return planFor({ ...ctx, t: e.t }, e.action);
});
const decisionPlan = (ctx: NpcContext, e: NpcEvent): Plan => decisionPlanOf(ctx, e);

const activities: ReadonlyArray<Activity> = [
  "asleep",
  "travelling",
  "working",
  "conversing",
  "debating",
  "idle",
];

// XState's config types cannot follow transitions built by a function, so these two
// helpers are cast at their use; the machine's own tests exercise every transition.

/**
 * A WAKE's transitions out of a state: decide, go straight into the routine's activity,
 * or take the next planned step. `before` emits what ending the current activity says (an
 * arrival, a finished shift); then one assignment takes the whole wake-up in (a routine
 * wake-up is the engine's most common event, so it pays for one context copy, not three).
 * A step is voiced before that assignment, while the context is the one it was chosen in.
 */
const onWake = (before: ReadonlyArray<string>): never =>
  [
    {
      guard: "wakeWantsDecision",
      target: "deciding",
      // Asked before the wake-up is taken in: why it asks is the wake-up's, not the context's after.
      actions: [...before, "askBrain", "takeWake"],
    },
    ...routineActivities.map((activity) => ({
      guard: { type: "wakePlanIs" as const, params: { activity } },
      target: activity,
      actions: [...before, "takeWake", "announce"],
    })),
    ...activities.map((activity) => ({
      guard: { type: "wakeStepIs" as const, params: { activity } },
      target: activity,
      actions: [...before, "voiceStep", "takeWake", "announce"],
    })),
  ] as never;

/** The transitions of a decision (or a refusal to decide) into its activity. */
const onDecision = (extra: ReadonlyArray<string>): never =>
  activities.map((activity) => ({
    guard: { type: "decisionPlanIs" as const, params: { activity } },
    target: activity,
    actions: ["applyDecisionPlan", ...extra, "announce"],
  })) as never;

export const npcMachine = setup({
  types: {
    context: {} as NpcContext,
    events: {} as NpcEvent,
    input: {} as NpcInput,
    emitted: {} as NpcEmitted,
  },
  guards: {
    isActivity: ({ context }, params: { activity: Activity }) =>
      context.activity === params.activity,
    wakeWantsDecision: ({ context, event }) => wakePlan(context, event) === "decide",
    wakePlanIs: ({ context, event }, params: { activity: Activity }) => {
      const plan = wakePlan(context, event);
      return plan !== "decide" && plan.activity === params.activity && !wakeStep(context, event);
    },
    wakeStepIs: ({ context, event }, params: { activity: Activity }) => {
      const plan = wakePlan(context, event);
      return plan !== "decide" && plan.activity === params.activity && !!wakeStep(context, event);
    },
    decisionPlanIs: ({ context, event }, params: { activity: Activity }) =>
      decisionPlan(context, event).activity === params.activity,
  },
  actions: {
    takeWake: assign(({ context, event }) => {
      if (event.type !== "WAKE") return {};
      // Its news noted and a journey ended (`woken`), then the routine's plan, if any.
      const { next, plan } = waking(context, event);
      return plan === "decide" ? next : withPlan(next, plan);
    }),
    // Only a WAKE's transition into `deciding` runs it: one emit, not an enqueue.
    askBrain: emit(({ context, event }) => {
      const { next, ask } = waking(context, event as Extract<NpcEvent, { type: "WAKE" }>);
      return {
        type: "decide" as const,
        reason: significant(next) ?? "company",
        why: ask ?? "none",
      };
    }),
    applyDecisionPlan: assign(({ context, event }) => {
      const at = { ...context, t: event.t };
      return withPlan(at, decisionPlan(context, event));
    }),
    voiceDecision: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== "DECIDED") return;
      const plan = replanned(context, event.action.agenda, event.t);
      for (const out of voiced(event.action, plan)) enqueue.emit(out);
    }),
    voiceStep: enqueueActions(({ context, event, enqueue }) => {
      const taken = wakeStep(context, event);
      const agenda = context.facts.agenda;
      if (taken === null || agenda === null) return;
      const left = { steps: taken.rest, plannedAt: agenda.plannedAt };
      for (const out of voiced(taken.step, left)) enqueue.emit(out);
    }),
    plan: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== "PLAN") return;
      const plan = replanned(context, event.steps, event.t);
      if (plan !== null) enqueue.emit({ type: "agenda", ...plan });
    }),
    joinConversation: assign(({ context, event }) =>
      event.type === "CONVERSE" ? joined(context, event, "conversing", "in conversation") : {},
    ),
    joinDebate: assign(({ context, event }) =>
      event.type === "DEBATE" ? joined(context, event, "debating", "debating") : {},
    ),
    arrive: emit(({ context }) => ({
      type: "moved" as const,
      from: context.locationId,
      to: context.destination ?? context.locationId,
    })),
    settle: assign(({ context }) => ({
      locationId: context.destination ?? context.locationId,
      destination: null,
    })),
    finishWork: emit(({ context }) => ({
      type: "workDone" as const,
      taskId: context.taskId,
      minutes: context.workMinutes,
    })),
    stopHere: assign(({ event }) => ({
      t: event.t,
      activity: "idle" as const,
      destination: null,
      until: event.t,
      taskId: null,
      attendingTo: [],
      note: "finished what it was doing",
    })),
    announce: emit(({ context }) => activityOf(context, context.note)),
    forget: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === "EXPIRE" || event.type === "CAP")
        enqueue.emit(forgetting(context.facts, event));
    }),
  },
}).createMachine({
  id: "npc",
  context: ({ input }) => ({
    ...input.state,
    npcId: input.npcId,
    schedule: input.schedule,
    routes: input.routes,
    tickMinutes: input.tickMinutes,
    t: input.t,
    note: "",
    // Rebuilt from the log, `t` is when the current activity began.
    workMinutes:
      input.state.activity === "working" && input.state.until !== null
        ? input.state.until - input.t
        : 0,
    facts: input.facts,
    company: 0,
    concerns: 0,
    roll: 1,
    openTasks: [],
  }),
  initial: "restoring",
  // Forgetting and a plan change nothing the activity depends on, so they are heard in every state.
  on: {
    EXPIRE: { actions: "forget" },
    CAP: { actions: "forget" },
    PLAN: { actions: "plan" },
  },
  states: {
    /** Enters the state the input names and emits nothing: rebuilding is not acting. */
    restoring: {
      always: [
        ...activities
          .filter((a) => a !== "idle")
          .map((activity) => ({
            guard: { type: "isActivity" as const, params: { activity } },
            target: activity,
          })),
        { target: "idle" },
      ],
    },
    deciding: {
      on: {
        DECIDED: onDecision(["voiceDecision"]),
        DECLINED: onDecision([]),
        CONVERSE: { target: "conversing", actions: ["joinConversation", "announce"] },
        DEBATE: { target: "debating", actions: ["joinDebate", "announce"] },
      },
    },
    asleep: { on: { WAKE: onWake([]) } },
    idle: {
      on: {
        WAKE: onWake([]),
        CONVERSE: { target: "conversing", actions: ["joinConversation", "announce"] },
        DEBATE: { target: "debating", actions: ["joinDebate", "announce"] },
      },
    },
    travelling: {
      on: {
        WAKE: onWake(["arrive"]),
        ELIDE: { target: "idle", actions: ["arrive", "settle", "stopHere", "announce"] },
      },
    },
    working: {
      on: {
        WAKE: onWake(["finishWork"]),
        ELIDE: { target: "idle", actions: ["finishWork", "stopHere", "announce"] },
        CONVERSE: { target: "conversing", actions: ["joinConversation", "announce"] },
        DEBATE: { target: "debating", actions: ["joinDebate", "announce"] },
      },
    },
    conversing: {
      on: {
        WAKE: onWake([]),
        ELIDE: { target: "idle", actions: ["stopHere", "announce"] },
        DEBATE: { target: "debating", actions: ["joinDebate", "announce"] },
      },
    },
    debating: {
      on: {
        WAKE: onWake([]),
        ELIDE: { target: "idle", actions: ["stopHere", "announce"] },
      },
    },
  },
});

export type NpcMachine = typeof npcMachine;
export type {
  NpcActivityState,
  NpcContext,
  NpcEmitted,
  NpcEvent,
  NpcInput,
  NpcSchedule,
  Routes,
} from "./npcTypes.ts";
