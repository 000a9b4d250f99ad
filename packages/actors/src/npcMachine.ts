/**
 * The npc machine: one NPC's activity lifecycle, a finite state machine written as one
 * transition function (`npcTransition`) and run as an XState actor (`fromTransition`). It
 * is pure behaviour — the engine sends it what concerns it (its wake-up came due, the
 * brain answered, someone drew it into a conversation or a debate) and listens to what
 * it emits (activity changes, moves, a request for a decision, words spoken). Every delay
 * is a game time in `until`, counted by the world clock: it has no timers and reads no
 * clock. Its states (`NpcState.value`) are the activities and `deciding`; an event a
 * state does not hear (`hears`) changes nothing.
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
import { type ActorSystem, fromTransition } from "xstate";
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
import type { NpcFacts } from "./NpcFacts.ts";
import { type Happening, type NewsReader, newsMatters, newsMayInterrupt } from "./newsMatters.ts";
import { type PlanAt, type Planned, planFor, planned, routine, significant } from "./npcPlans.ts";
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

/**
 * What a wake-up leads to: what it takes in (where it is now and, unless it asks the
 * brain, the plan: a `Planned` always names the activity, which is the state it enters),
 * why it is significant (null: it is not), and either the brain's question (`ask`: it
 * enters `deciding`) or the planned step it takes (`step`), or neither (its routine).
 */
interface Waking {
  readonly update: Partial<NpcContext>;
  readonly why: "company" | "concern" | "task" | null;
  readonly step: Extract<AgendaTurn, { kind: "step" }> | null;
  readonly ask: TurnAsk | null;
}
const waking = (ctx: NpcContext, e: Extract<NpcEvent, { type: "WAKE" }>): Waking => {
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
    return { update: planned(at, plan), why, step: null, ask: null };
  }
  const view = new WakeView(facts, at, e);
  const asking = (ask: TurnAsk): Waking => ({
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
  return { update: planned(at, plan), why, step: turn, ask: null };
};

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
const decisionOf = (
  ctx: NpcContext,
  e: Extract<NpcEvent, { type: "DECIDED" | "DECLINED" }>,
): Planned => {
  const at: PlanAt = { fixed: ctx.fixed, t: e.t, locationId: ctx.locationId };
  return planned(at, e.type === "DECLINED" ? routine(at) : planFor(at, e.action));
};

/** The states of an NPC's lifecycle: one per activity, and `deciding` while the brain is asked. */
export type NpcStateName = Activity | "deciding";

/** What an NPC's actor holds: its context, and the state of its lifecycle it is in (`value`). */
export interface NpcState extends NpcContext {
  readonly value: NpcStateName;
}

type Emit = (e: NpcEmitted) => void;
type Wake = Extract<NpcEvent, { type: "WAKE" }>;

/** The state entered, its activity announced (the last thing each transition into one emits). */
const announced = (next: NpcState, emit: Emit): NpcState => {
  emit(activityOf(next, next.note));
  return next;
};

/** `state` with `update` taken in and `value` the state entered (one copy, as an assignment makes). */
const enter = (state: NpcState, value: NpcStateName, update: Partial<NpcContext>): NpcState => ({
  ...state,
  ...update,
  value,
});

/**
 * A wake-up in a state that hears one. `ending` says what ending the current activity
 * emits first (an arrival, a finished shift); then the wake-up is taken in whole (its
 * outcome computed once, on the state before it). A step is voiced before that, in the
 * state it was chosen in; the brain is asked before it too: why it asks is the
 * wake-up's, not the state's after.
 */
const wake = (
  state: NpcState,
  e: Wake,
  emit: Emit,
  ending: "arrive" | "finishWork" | null,
): NpcState => {
  const w = waking(state, e);
  if (ending === "arrive") emit(arrival(state));
  else if (ending === "finishWork") emit(workDone(state));
  if (w.ask !== null) {
    emit({ type: "decide", reason: w.why ?? "company", why: w.ask });
    return enter(state, "deciding", w.update);
  }
  if (w.step !== null) {
    const agenda = state.facts.agenda;
    if (agenda !== null)
      for (const out of voiced(w.step.step, { steps: w.step.rest, plannedAt: agenda.plannedAt }))
        emit(out);
  }
  return announced(enter(state, w.update.activity ?? state.activity, w.update), emit);
};

/** A decision (or a refusal to decide) taken in: its plan, then what it says, then the activity. */
const decide = (
  state: NpcState,
  e: Extract<NpcEvent, { type: "DECIDED" | "DECLINED" }>,
  emit: Emit,
): NpcState => {
  const plan = decisionOf(state, e);
  const next = enter(state, plan.activity, plan);
  if (e.type === "DECIDED")
    for (const out of voiced(e.action, replanned(next, e.action.agenda, e.t))) emit(out);
  return announced(next, emit);
};

/** Drawn into a conversation or a debate: the activity from `t`, announced. */
const drawnIn = (
  state: NpcState,
  e: Extract<NpcEvent, { type: "CONVERSE" | "DEBATE" }>,
  emit: Emit,
): NpcState => {
  const [value, note] =
    e.type === "CONVERSE"
      ? (["conversing", "in conversation"] as const)
      : (["debating", "debating"] as const);
  return announced(enter(state, value, joined(state, e, value, note)), emit);
};

/** A time skip ends what it is doing (a journey at its destination, a shift reported): idle. */
const elide = (state: NpcState, e: Extract<NpcEvent, { type: "ELIDE" }>, emit: Emit): NpcState => {
  let at = state;
  if (state.value === "travelling") {
    emit(arrival(state));
    at = { ...state, locationId: state.destination ?? state.locationId, destination: null };
  } else if (state.value === "working") emit(workDone(state));
  const stopped = {
    t: e.t,
    activity: "idle",
    destination: null,
    until: e.t,
    taskId: null,
    attendingTo: [],
    note: "finished what it was doing",
  } as const;
  return announced(enter(at, "idle", stopped), emit);
};

const arrival = (ctx: NpcContext): NpcEmitted => ({
  type: "moved",
  from: ctx.locationId,
  to: ctx.destination ?? ctx.locationId,
});

const workDone = (ctx: NpcContext): NpcEmitted => ({
  type: "workDone",
  taskId: ctx.taskId,
  minutes: ctx.workMinutes,
});

/** Which events each state hears (besides EXPIRE, CAP and PLAN, heard in every state). */
const hears: Readonly<Record<NpcStateName, ReadonlySet<NpcEvent["type"]>>> = {
  deciding: new Set(["DECIDED", "DECLINED", "CONVERSE", "DEBATE"]),
  asleep: new Set(["WAKE"]),
  idle: new Set(["WAKE", "CONVERSE", "DEBATE"]),
  travelling: new Set(["WAKE", "ELIDE"]),
  working: new Set(["WAKE", "ELIDE", "CONVERSE", "DEBATE"]),
  conversing: new Set(["WAKE", "ELIDE", "DEBATE"]),
  debating: new Set(["WAKE", "ELIDE"]),
};

/**
 * One NPC's lifecycle as a transition function: the state it is in and the event give
 * the next state, and what it emits on the way, in order. An event its state does not
 * hear changes nothing and emits nothing.
 */
export const npcTransition = (state: NpcState, e: NpcEvent, emit: Emit): NpcState => {
  switch (e.type) {
    // Forgetting and a plan change nothing the activity depends on: heard in every state.
    case "EXPIRE":
    case "CAP":
      emit(forgetting(state.facts, e));
      return state;
    case "PLAN": {
      const plan = replanned(state, e.steps, e.t);
      if (plan !== null) emit({ type: "agenda", ...plan });
      return state;
    }
  }
  if (!hears[state.value].has(e.type)) return state;
  switch (e.type) {
    case "WAKE":
      return wake(
        state,
        e,
        emit,
        state.value === "travelling" ? "arrive" : state.value === "working" ? "finishWork" : null,
      );
    case "DECIDED":
    case "DECLINED":
      return decide(state, e, emit);
    case "CONVERSE":
    case "DEBATE":
      return drawnIn(state, e, emit);
    case "ELIDE":
      return elide(state, e, emit);
  }
};

/**
 * An NPC's state as its input names it: in the activity it was doing, emitting nothing
 * (rebuilding is not acting).
 */
export const npcStateOf = (input: NpcInput): NpcState => ({
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
  value: input.state.activity,
});

/**
 * The npc actor's logic: `npcTransition` as XState actor logic (`fromTransition`), so an
 * NPC is an actor of the run's system like the clock and the debates, and its snapshot's
 * `context` is its `NpcState`. Not a statechart: a send to a statechart actor costs
 * XState's interpreter ~6 µs (state sets, snapshot clones; a quarter of a large run's
 * allocations), and a lively world sends each NPC about eleven events a day; a transition
 * function's send costs well under one (docs/ARCHITECTURE.md).
 */
export const npcMachine = fromTransition<
  NpcState,
  NpcEvent,
  ActorSystem<never>,
  NpcInput,
  NpcEmitted
>(
  (state, e, scope) => npcTransition(state, e, (out) => scope.emit(out)),
  ({ input }) => npcStateOf(input),
);

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
