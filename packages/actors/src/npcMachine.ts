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
import { type ForgetAsk, forgetting } from "./MemoryPolicy.ts";
import type { NpcAction } from "./NpcAction.ts";
import type { NpcFacts } from "./NpcFacts.ts";
import { type Happening, type NewsReader, newsMatters, newsMayInterrupt } from "./newsMatters.ts";
import {
  type Plan,
  type PlanAt,
  type Planned,
  planFor,
  planned,
  type RoutinePlan,
  routine,
  significant,
} from "./npcPlans.ts";
import type { NpcContext, NpcEmitted, NpcEvent, NpcInput } from "./npcTypes.ts";

/**
 * What drawing an NPC into a conversation or a debate assigns: the activity from `t`, its
 * work shift kept for the `workDone` its leaving work still reports.
 */
const joined = (
  ctx: NpcContext,
  e: { readonly t: GameTime; readonly with: ReadonlyArray<NpcId>; readonly until: GameTime },
  activity: "conversing" | "debating",
  note: string,
): Planned => ({
  ...planned(
    { fixed: ctx.fixed, t: e.t, locationId: ctx.locationId },
    { activity, attendingTo: e.with, until: e.until, note },
  ),
  workMinutes: ctx.workMinutes,
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
 * (`at`: where it is once the wake-up ends a journey). One object whose methods read the
 * wake-up, rather than a closure per question: a significant wake-up builds it whether
 * or not it is asked.
 */
class WakeView implements StepScene, NewsReader {
  readonly self: NpcId;
  readonly locationId: LocationId;
  constructor(
    private readonly facts: NpcFacts,
    private readonly at: PlanAt,
    private readonly e: Extract<NpcEvent, { type: "WAKE" }>,
  ) {
    this.self = at.fixed.npcId;
    this.locationId = at.locationId;
  }
  canReach(to: LocationId): boolean {
    const { at } = this;
    return to !== at.locationId && at.fixed.routes.travelMinutes(at.locationId, to) !== null;
  }
  sees(npc: NpcId): boolean {
    return this.e.sees?.(npc) ?? false;
  }
  holds(id: TaskId): boolean {
    const task = this.facts.open.get(id);
    return task !== undefined && task.assignee === this.self;
  }
  done(id: TaskId): boolean {
    return this.facts.tasks.get(id)?.status === "completed";
  }
  regardFor(other: NpcId): number {
    const r = this.facts.regard.get(other);
    return r === undefined
      ? 0
      : Math.max(Math.abs(r.trust), Math.abs(r.respect), Math.abs(r.suspicion));
  }
  happening(id: string): Happening | null {
    return this.e.happening?.(id) ?? null;
  }
}

/** Which of a WAKE's transitions it takes: ask the brain, the routine's activity, or a step's. */
type WakeOutcome = "decide" | `routine ${Activity}` | `step ${Activity}`;
const ROUTINE: Readonly<Record<RoutinePlan["activity"], WakeOutcome>> = {
  asleep: "routine asleep",
  travelling: "routine travelling",
  working: "routine working",
  idle: "routine idle",
};
const STEP: Readonly<Record<Activity, WakeOutcome>> = {
  asleep: "step asleep",
  travelling: "step travelling",
  working: "step working",
  conversing: "step conversing",
  debating: "step debating",
  idle: "step idle",
};

/**
 * What a wake-up leads to: its transition (`outcome`), what it assigns (where it is now
 * and, unless it asks the brain, the plan's activity), why it is significant (null: it is
 * not), and the brain's question (`ask`) or the planned step it takes (`step`).
 */
interface Waking {
  readonly outcome: WakeOutcome;
  readonly update: Partial<NpcContext>;
  readonly why: "company" | "concern" | "task" | null;
  readonly step: Extract<AgendaTurn, { kind: "step" }> | null;
  readonly ask: TurnAsk | null;
}
const waking = oncePerEvent((ctx: NpcContext, e: Extract<NpcEvent, { type: "WAKE" }>): Waking => {
  // A journey ends at the wake-up: its plan is made at the destination.
  const arriving = ctx.activity === "travelling";
  const at: PlanAt = {
    fixed: ctx.fixed,
    t: e.t,
    locationId: arriving ? (ctx.destination ?? ctx.locationId) : ctx.locationId,
  };
  const facts = ctx.facts;
  const why = significant(at, facts, e);
  if (why === null) {
    const plan = routine(at);
    return {
      outcome: ROUTINE[plan.activity],
      update: planned(at, plan),
      why,
      step: null,
      ask: null,
    };
  }
  const view = new WakeView(facts, at, e);
  const asking = (ask: TurnAsk): Waking => ({
    outcome: "decide",
    update: { t: at.t, locationId: at.locationId, destination: arriving ? null : ctx.destination },
    why,
    step: null,
    ask,
  });
  // News that matters to it asks the brain once its plan is a few hours old; a wake-up the
  // dice chose, or one with nothing learnt that may set the plan aside, takes a planned
  // step if one holds.
  if (
    why === "concern" &&
    facts.news.length > 0 &&
    newsMayInterrupt(facts.agenda?.plannedAt ?? null, at.t)
  ) {
    if (facts.news.some((item) => newsMatters(item, view))) return asking("news");
  }
  const turn = agendaTurn(facts.agenda, at.t, view);
  if (turn.kind === "ask") return asking(turn.why);
  const plan = planFor(at, turn.step);
  return { outcome: STEP[plan.activity], update: planned(at, plan), why, step: turn, ask: null };
});
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

/** What an answer (or a refusal, which falls back to the routine) assigns: its plan, from now. */
const decisionOf = oncePerEvent((ctx: NpcContext, e: NpcEvent): Planned => {
  const at: PlanAt = { fixed: ctx.fixed, t: e.t, locationId: ctx.locationId };
  const plan: Plan =
    e.type === "DECLINED"
      ? routine(at)
      : e.type === "DECIDED"
        ? planFor(at, e.action)
        : { activity: ctx.activity, note: "" };
  return planned(at, plan);
});

/** Every activity, in the order an answer most often leads to it (its transitions are tried so). */
const activities: ReadonlyArray<Activity> = [
  "idle",
  "conversing",
  "travelling",
  "working",
  "asleep",
  "debating",
];

// XState's config types cannot follow transitions built by a function, so these two
// helpers are cast at their use; the machine's own tests exercise every transition.

/**
 * A WAKE's outcomes, most common first (as a run of a thousand NPCs takes them): its
 * transitions are tried in this order, so the usual one is found at the first guard or
 * two. A step never leads to sleep or a debate; those two are kept last for completeness.
 */
const wakeOutcomes: ReadonlyArray<WakeOutcome> = [
  ROUTINE.working,
  STEP.idle,
  "decide",
  ROUTINE.asleep,
  ROUTINE.travelling,
  ROUTINE.idle,
  STEP.conversing,
  STEP.working,
  STEP.travelling,
  STEP.asleep,
  STEP.debating,
];
const wakeTarget = (outcome: WakeOutcome): string =>
  outcome === "decide" ? "deciding" : outcome.slice(outcome.indexOf(" ") + 1);

/**
 * A WAKE's transitions out of a state: decide, go straight into the routine's activity,
 * or take the next planned step. `before` emits what ending the current activity says (an
 * arrival, a finished shift); then one assignment takes the whole wake-up in (a routine
 * wake-up is the engine's most common event, so it pays for one context copy, not three).
 * A step is voiced before that assignment, while the context is the one it was chosen in;
 * the brain is asked before it too: why it asks is the wake-up's, not the context's after.
 */
const onWake = (before: ReadonlyArray<string>): never =>
  wakeOutcomes.map((outcome) => ({
    guard: { type: "wakeIs" as const, params: { outcome } },
    target: wakeTarget(outcome),
    actions:
      outcome === "decide"
        ? [...before, "askBrain", "takeWake"]
        : outcome.startsWith("step ")
          ? [...before, "voiceStep", "takeWake", "announce"]
          : [...before, "takeWake", "announce"],
  })) as never;

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
    wakeIs: ({ context, event }, params: { outcome: WakeOutcome }) =>
      event.type === "WAKE" && waking(context, event).outcome === params.outcome,
    decisionPlanIs: ({ context, event }, params: { activity: Activity }) =>
      decisionOf(context, event).activity === params.activity,
  },
  actions: {
    takeWake: assign(({ context, event }) =>
      event.type === "WAKE" ? waking(context, event).update : {},
    ),
    // Only a WAKE's transition into `deciding` runs it: one emit, not an enqueue.
    askBrain: emit(({ context, event }) => {
      const { why, ask } = waking(context, event as Extract<NpcEvent, { type: "WAKE" }>);
      return { type: "decide" as const, reason: why ?? "company", why: ask ?? "none" };
    }),
    applyDecisionPlan: assign(({ context, event }) => decisionOf(context, event)),
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
    // Only EXPIRE and CAP run it, and each has one answer: one emit, not an enqueue.
    forget: emit(({ context, event }) => forgetting(context.facts, event as ForgetAsk)),
  },
}).createMachine({
  id: "npc",
  context: ({ input }) => ({
    activity: input.state.activity,
    locationId: input.state.locationId,
    destination: input.state.destination,
    until: input.state.until,
    taskId: input.state.taskId,
    attendingTo: input.state.attendingTo,
    fixed: {
      npcId: input.npcId,
      schedule: input.schedule,
      routes: input.routes,
      tickMinutes: input.tickMinutes,
    },
    t: input.t,
    note: "",
    // Rebuilt from the log, `t` is when the current activity began.
    workMinutes:
      input.state.activity === "working" && input.state.until !== null
        ? input.state.until - input.t
        : 0,
    facts: input.facts,
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
  NpcFixed,
  NpcInput,
  NpcSchedule,
  Routes,
} from "./npcTypes.ts";
