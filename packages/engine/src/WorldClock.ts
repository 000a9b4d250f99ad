/**
 * The engine's handle on the world clock actor: it asks the clock what is due and hands
 * it the events the clock folds. Every event a tick writes reaches the clock (`observe`,
 * the tick writer's tap) before the clock answers its next question, so the clock's
 * schedule is the fold of everything written so far — the same fold a resume runs over
 * the log (`foldSchedule`).
 */
import {
  type ClockSchedule,
  childrenHear,
  type DueDebate,
  type DueJob,
  type SkipMode,
  type SkipRequest,
  type WorldClockEmitted,
  type WorldClockEvent,
  type WorldClockInput,
  worldClockMachine,
} from "@hearsay/actors";
import type { Event, GameTime, NpcId } from "@hearsay/core";
import { type Actor, createActor } from "xstate";

export interface Span {
  readonly from: GameTime;
  readonly to: GameTime;
}

/** What the clock does next: a tick, or a skip it has started. */
export type Next =
  | { readonly kind: "tick"; readonly from: GameTime; readonly to: GameTime }
  | {
      readonly kind: "skip";
      readonly mode: SkipMode;
      readonly from: GameTime;
      readonly to: GameTime;
    };

export class WorldClock {
  readonly actor: Actor<typeof worldClockMachine>;
  private readonly out: Array<WorldClockEmitted> = [];
  private readonly inbox: Array<Event> = [];

  constructor(input: WorldClockInput) {
    this.actor = createActor(worldClockMachine, { input });
    this.actor.on("*", (e) => this.out.push(e as WorldClockEmitted));
    this.actor.start();
  }

  /** Hands the clock an event as it is written (it folds them before its next answer). */
  readonly observe = (event: Event): void => {
    this.inbox.push(event);
  };

  /** Whether the clock is running (or paused, or skipping): not done, not in its last tick. */
  get active(): boolean {
    return this.actor.getSnapshot().status === "active";
  }

  /** Whether its NPC actors still hear events (not once the last tick has begun). */
  get childrenHear(): boolean {
    return childrenHear(this.actor.getSnapshot());
  }

  /**
   * Moves on: one tick, or the skip planned for now (then `step` through it and end it
   * with `skipDone`); null once the run is over.
   */
  advance(): Next | null {
    const next = this.ask({ type: "ADVANCE" }, "tick", "skip");
    if (next?.type === "skip")
      return { kind: "skip", mode: next.mode, from: next.from, to: next.to };
    return next ? { kind: "tick", from: next.from, to: next.to } : null;
  }

  /** The debates due in the current tick (or skip step), not yet held. */
  debatesDue(): ReadonlyArray<DueDebate> {
    return this.ask({ type: "DEBATES_DUE" }, "debates")?.due ?? [];
  }

  /** The maintenance jobs due in the current tick (or skip step), not yet run. */
  jobsDue(): ReadonlyArray<DueJob> {
    return this.ask({ type: "JOBS_DUE" }, "jobs")?.due ?? [];
  }

  /** The NPCs due to wake by now, in id order; each is taken off the schedule. */
  wakesDue(): ReadonlyArray<NpcId> {
    return this.ask({ type: "WAKES_DUE" }, "wakes")?.due ?? [];
  }

  /** The NPCs due to wake by `t`, in id order, left on the schedule (a tick's forecast). */
  wakesPending(t: GameTime): ReadonlyArray<NpcId> {
    return this.active ? this.schedule().wakes.peekDue(t) : [];
  }

  /** Starts a skip; its span, or null when nothing would move (then no skip is made). */
  skip(request: SkipRequest): Span | null {
    const skip = this.ask({ type: "SKIP", ...request }, "skip");
    return skip ? { from: skip.from, to: skip.to } : null;
  }

  /** The skip's next step, or null when it has reached its end. */
  step(): Span | null {
    const step = this.ask({ type: "STEP" }, "step");
    return step ? { from: step.from, to: step.to } : null;
  }

  /** Ends the skip (its world steps and its NPCs' catching up are written). */
  skipDone(): void {
    this.ask({ type: "SKIP_DONE" }, "tick");
  }

  /** The clock's schedule with everything written so far folded in (a snapshot takes it). */
  schedule(): ClockSchedule {
    this.flush();
    return this.actor.getSnapshot().context.schedule;
  }

  /** How many debates the run has held. */
  get debatesHeld(): number {
    return this.actor.getSnapshot().context.schedule.debatesHeld.size;
  }

  /** Stops the clock, folding what it has not yet seen (its counts stay readable). */
  stop(): void {
    this.flush();
    this.actor.stop();
  }

  private flush(): void {
    if (this.inbox.length > 0 && this.active)
      this.actor.send({ type: "OBSERVE", events: this.inbox.splice(0, this.inbox.length) });
  }

  private ask<T extends WorldClockEmitted["type"]>(
    event: WorldClockEvent,
    ...answers: ReadonlyArray<T>
  ): Extract<WorldClockEmitted, { type: T }> | undefined {
    if (!this.active) return undefined;
    this.flush();
    this.actor.send(event);
    const out = this.out.splice(0, this.out.length);
    return out.find((e): e is Extract<WorldClockEmitted, { type: T }> =>
      answers.includes(e.type as T),
    );
  }
}
