/**
 * The world clock: the one owner of "now", and the root of the run's one actor system —
 * every NPC actor and every debate is spawned as its child (SPAWN_NPC, SPAWN_DEBATE). Running, it advances one tick per ADVANCE;
 * paused, it refuses to; skipping, it has jumped or elided ahead and waits for the engine
 * to finish the skip's work. It stops (final) at the run's end time. Time is game minutes
 * and nothing here reads a wall clock.
 *
 *   running ──ADVANCE──▶ running (emits tick) … ──▶ finished
 *      │ ▲                 PAUSE/RESUME ⇄ paused
 *      └─SKIP──▶ skipping ──SKIP_DONE──▶ running
 */
import type { GameTime } from "@hearsay/core";
import { assign, emit, setup, spawnChild, stopChild } from "xstate";
import { type DebateInput, debateMachine } from "./debateMachine.ts";
import { type NpcInput, npcMachine } from "./npcMachine.ts";

export interface WorldClockInput {
  readonly t: GameTime;
  readonly tickMinutes: number;
  /** The run ends when the clock reaches this time. */
  readonly endAt: GameTime;
}

interface WorldClockContext extends WorldClockInput {
  readonly skipMode: "jump" | "elision" | null;
}

export type WorldClockEvent =
  | { readonly type: "ADVANCE" }
  | { readonly type: "PAUSE" }
  | { readonly type: "RESUME" }
  | { readonly type: "SKIP"; readonly mode: "jump" | "elision"; readonly to: GameTime }
  | { readonly type: "SKIP_DONE" }
  | { readonly type: "SPAWN_NPC"; readonly input: NpcInput }
  | { readonly type: "SPAWN_DEBATE"; readonly input: DebateInput }
  | { readonly type: "STOP_CHILD"; readonly id: string };

export type WorldClockEmitted =
  | { readonly type: "tick"; readonly from: GameTime; readonly to: GameTime }
  | {
      readonly type: "skip";
      readonly mode: "jump" | "elision";
      readonly from: GameTime;
      readonly to: GameTime;
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
    skipIsForward: ({ context, event }) => event.type === "SKIP" && event.to > context.t,
  },
  actions: {
    tick: emit(({ context }) => ({
      type: "tick" as const,
      from: context.t,
      to: Math.min(context.t + context.tickMinutes, context.endAt) as GameTime,
    })),
    advance: assign(({ context }) => ({
      t: Math.min(context.t + context.tickMinutes, context.endAt) as GameTime,
    })),
    skip: emit(({ context, event }) =>
      event.type === "SKIP"
        ? {
            type: "skip" as const,
            mode: event.mode,
            from: context.t,
            to: Math.min(event.to, context.endAt) as GameTime,
          }
        : ({ type: "skip", mode: "jump", from: context.t, to: context.t } as const),
    ),
    jump: assign(({ context, event }) =>
      event.type === "SKIP"
        ? { t: Math.min(event.to, context.endAt) as GameTime, skipMode: event.mode }
        : {},
    ),
    clearSkip: assign({ skipMode: null }),
  },
}).createMachine({
  id: "worldClock",
  context: ({ input }) => ({ ...input, skipMode: null }),
  initial: "running",
  on: {
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
        ADVANCE: { target: "running", reenter: true, actions: ["tick", "advance"] },
        PAUSE: "paused",
        SKIP: { guard: "skipIsForward", target: "skipping", actions: ["skip", "jump"] },
      },
    },
    paused: { on: { RESUME: "running" } },
    skipping: { on: { SKIP_DONE: { target: "running", actions: "clearSkip" } } },
    finished: { type: "final" },
  },
});

export type WorldClockMachine = typeof worldClockMachine;
