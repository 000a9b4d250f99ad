/**
 * The world clock: the one owner of time, and the root of the run's one actor system —
 * every NPC actor and every debate is spawned as its child (SPAWN_NPC, SPAWN_DEBATE).
 *
 * It owns the wake-up schedule, the debate calendar and the maintenance jobs' calendar (a
 * `ClockSchedule`, folded from the events the engine lets it OBSERVE) and carries out time skips, those planned in
 * its input and those asked for (SKIP). The engine asks it what to do and does it:
 * ADVANCE answers with the next tick — or, when a planned skip starts now, with that
 * skip — DEBATES_DUE with the debates due in the current tick or skip step, WAKES_DUE
 * with the NPCs due to wake, STEP with the skip's next step. Time is game minutes and
 * nothing here reads a wall clock.
 *
 *   running ──ADVANCE──▶ running (emits tick) … ──last tick──▶ ending ──ADVANCE──▶ finished
 *      │ ▲  PAUSE/RESUME ⇄ paused
 *      └─SKIP──▶ skipping ──STEP (emits step)…── SKIP_DONE ──▶ running (or finished at the end)
 *
 * In `ending` the last tick's steps still run (the clock answers what is due) but its
 * NPC actors are done: they hear nothing more (`childrenHear`).
 */
import type { DebateTopic, Event, GameTime, NpcId } from "@hearsay/core";
import { assign, emit, setup, spawnChild, stopChild } from "xstate";
import { type ClockSchedule, emptySchedule, foldSchedule, takeWakes } from "./ClockSchedule.ts";
import { type DueDebate, dueDebates } from "./debateCalendar.ts";
import { type DebateInput, debateMachine } from "./debateMachine.ts";
import { type DueJob, dueJobs, type JobSpec } from "./jobCalendar.ts";
import { type NpcInput, npcMachine } from "./npcMachine.ts";
import { nextStep, type SkipMode, type SkipRequest, skipEnd } from "./skipSpan.ts";

export interface WorldClockInput {
  readonly t: GameTime;
  readonly tickMinutes: number;
  /** The run ends when the clock reaches this time. */
  readonly endAt: GameTime;
  /** The schedule folded from the log so far (empty for a clock that starts afresh). */
  readonly schedule?: ClockSchedule;
  readonly debateTopics?: ReadonlyArray<DebateTopic>;
  /** The maintenance jobs it schedules, each once per game day (none: no jobs). */
  readonly jobs?: ReadonlyArray<JobSpec>;
  /** Skips to make on the way: the first planned at the clock's time starts there. */
  readonly skips?: ReadonlyArray<PlannedSkip>;
}

export type PlannedSkip = SkipRequest & { readonly at: GameTime };

interface WorldClockContext {
  /** The current tick (or skip step) is (from, t]. */
  readonly from: GameTime;
  readonly t: GameTime;
  readonly tickMinutes: number;
  readonly endAt: GameTime;
  readonly schedule: ClockSchedule;
  readonly debateTopics: ReadonlyArray<DebateTopic>;
  readonly jobs: ReadonlyArray<JobSpec>;
  readonly skips: ReadonlyArray<PlannedSkip>;
  readonly skip: { readonly mode: SkipMode; readonly from: GameTime; readonly to: GameTime } | null;
}

export type WorldClockEvent =
  | { readonly type: "ADVANCE" }
  | { readonly type: "PAUSE" }
  | { readonly type: "RESUME" }
  | ({ readonly type: "SKIP" } & SkipRequest)
  | { readonly type: "STEP" }
  | { readonly type: "SKIP_DONE" }
  | { readonly type: "OBSERVE"; readonly events: ReadonlyArray<Event> }
  | { readonly type: "DEBATES_DUE" }
  | { readonly type: "JOBS_DUE" }
  | { readonly type: "WAKES_DUE" }
  | { readonly type: "SPAWN_NPC"; readonly input: NpcInput }
  | { readonly type: "SPAWN_DEBATE"; readonly input: DebateInput }
  | { readonly type: "STOP_CHILD"; readonly id: string };

export type WorldClockEmitted =
  | { readonly type: "tick"; readonly from: GameTime; readonly to: GameTime }
  | {
      readonly type: "skip";
      readonly mode: SkipMode;
      readonly from: GameTime;
      readonly to: GameTime;
    }
  | { readonly type: "step"; readonly from: GameTime; readonly to: GameTime }
  | { readonly type: "debates"; readonly due: ReadonlyArray<DueDebate> }
  | { readonly type: "jobs"; readonly due: ReadonlyArray<DueJob> }
  | { readonly type: "wakes"; readonly due: ReadonlyArray<NpcId> };

/** The skip an event starts: the one it asks for, or on ADVANCE the one planned now. */
const requested = (context: WorldClockContext, event: WorldClockEvent): SkipRequest | undefined =>
  event.type === "SKIP" ? event : context.skips.find((k) => k.at === context.t);

const skipTo = (context: WorldClockContext, event: WorldClockEvent): GameTime => {
  const request = requested(context, event);
  return request ? skipEnd(context.schedule, context.t, request, context.endAt) : context.t;
};

export const worldClockMachine = setup({
  types: {
    context: {} as WorldClockContext,
    events: {} as WorldClockEvent,
    input: {} as WorldClockInput,
    emitted: {} as WorldClockEmitted,
  },
  actors: { npc: npcMachine, debate: debateMachine },
  guards: {
    atEnd: ({ context }) => context.t >= context.endAt,
    lastTick: ({ context }) => context.t + context.tickMinutes >= context.endAt,
    skipIsForward: ({ context, event }) => skipTo(context, event) > context.t,
    stepsLeft: ({ context }) => context.skip !== null && context.t < context.skip.to,
  },
  actions: {
    // The schedule is mutated in place (it is the clock's own, and a run folds millions
    // of events into it); assign runs in order within a transition, so a fold is seen
    // by whatever the same event answers.
    observe: assign(({ context, event }) => {
      if (event.type === "OBSERVE") for (const e of event.events) foldSchedule(context.schedule, e);
      return {};
    }),
    advance: assign(({ context }) => ({
      from: context.t,
      t: Math.min(context.t + context.tickMinutes, context.endAt) as GameTime,
    })),
    tick: emit(({ context }) => ({ type: "tick" as const, from: context.from, to: context.t })),
    startSkip: assign(({ context, event }) => ({
      skip: {
        mode: requested(context, event)?.mode ?? ("jump" as const),
        from: context.t,
        to: skipTo(context, event),
      },
    })),
    announceSkip: emit(({ context }) => ({
      type: "skip" as const,
      mode: context.skip!.mode,
      from: context.skip!.from,
      to: context.skip!.to,
    })),
    step: assign(({ context }) => ({
      from: context.t,
      t: nextStep(context.t, context.skip!.to, context.tickMinutes),
    })),
    announceStep: emit(({ context }) => ({
      type: "step" as const,
      from: context.from,
      to: context.t,
    })),
    endSkip: assign({ skip: null }),
    debates: emit(({ context }) => ({
      type: "debates" as const,
      due: dueDebates(context.debateTopics, context.from, context.t, context.schedule.debatesHeld),
    })),
    // Like debates, a job stays due until its MaintenanceRan is observed.
    jobs: emit(({ context }) => ({
      type: "jobs" as const,
      due: dueJobs(context.jobs, context.from, context.t, context.schedule.jobsRun),
    })),
    // Taking is the one answer that changes the schedule: a woken NPC is not due again
    // until an activity change schedules it.
    wakes: emit(({ context }) => ({
      type: "wakes" as const,
      due: takeWakes(context.schedule, context.t),
    })),
  },
}).createMachine({
  id: "worldClock",
  context: ({ input }) => ({
    from: input.t,
    t: input.t,
    tickMinutes: input.tickMinutes,
    endAt: input.endAt,
    schedule: input.schedule ?? emptySchedule(),
    debateTopics: input.debateTopics ?? [],
    jobs: input.jobs ?? [],
    skips: input.skips ?? [],
    skip: null,
  }),
  initial: "running",
  on: {
    OBSERVE: { actions: "observe" },
    DEBATES_DUE: { actions: "debates" },
    JOBS_DUE: { actions: "jobs" },
    WAKES_DUE: { actions: "wakes" },
    SPAWN_NPC: {
      actions: spawnChild("npc", {
        id: ({ event }) => (event as { input: NpcInput }).input.npcId,
        input: ({ event }) => (event as { input: NpcInput }).input,
      }),
    },
    SPAWN_DEBATE: {
      actions: spawnChild("debate", {
        id: ({ event }) => `debate:${(event as { input: DebateInput }).input.debateId}`,
        input: ({ event }) => (event as { input: DebateInput }).input,
      }),
    },
    STOP_CHILD: { actions: stopChild(({ event }) => event.id) },
  },
  states: {
    running: {
      always: { guard: "atEnd", target: "finished" },
      on: {
        ADVANCE: [
          { guard: "skipIsForward", target: "skipping", actions: ["startSkip", "announceSkip"] },
          { guard: "lastTick", target: "ending", actions: ["advance", "tick"] },
          { target: "running", reenter: true, actions: ["advance", "tick"] },
        ],
        PAUSE: "paused",
        SKIP: {
          guard: "skipIsForward",
          target: "skipping",
          actions: ["startSkip", "announceSkip"],
        },
      },
    },
    paused: { on: { RESUME: "running" } },
    skipping: {
      on: {
        STEP: { guard: "stepsLeft", actions: ["step", "announceStep"] },
        SKIP_DONE: { target: "running", actions: "endSkip" },
      },
    },
    ending: { on: { ADVANCE: "finished" } },
    finished: { type: "final" },
  },
});

export type WorldClockMachine = typeof worldClockMachine;

/** Whether the clock's NPC actors still hear events: not once its last tick has begun. */
export const childrenHear = (snapshot: {
  readonly status: string;
  readonly value: unknown;
}): boolean => snapshot.status === "active" && snapshot.value !== "ending";
