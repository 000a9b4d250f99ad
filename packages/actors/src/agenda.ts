/**
 * An NPC's agenda: the few steps one `act` answer planned after the action it took. At a
 * wake-up the dice call significant (company, an open task), the NPC takes its next step
 * instead of asking the brain again — so one answer covers a stretch of its time — and
 * asks only when there is no step to take: the agenda is done or stale (planned a day or
 * more ago), a task the plan works on ended other than completed, or no step left holds
 * here and now. A step that no longer holds (the one it meant to speak to is gone, it is
 * already where it meant to go) is passed over for the next one that does: the rest of
 * the plan still stands. Any other change to its tasks (one proposed to it, one it
 * proposed ended) only updates its facts: the plan does not rest on it, and its next
 * call's dossier holds it.
 * News that matters to it (`newsMatters`), once the plan is `NEWS_QUIET` old, asks the brain
 * without consulting the agenda at all.
 * Pure functions of the actor's facts and what it sees at the wake-up.
 */
import {
  AGENDA_MAX_STEPS,
  type AgendaStep,
  type GameTime,
  type LocationId,
  MINUTES_PER_DAY,
  type NpcId,
  type TaskId,
} from "@hearsay/core";
import type { Agenda } from "./NpcFacts.ts";

/** At most this many steps are kept from one answer (the `act` schema's own bound). */
export { AGENDA_MAX_STEPS };

/**
 * How long a plan holds: a day, a night included. A plan made in the evening carries into
 * the next morning (it was made for it); one older than a day was made for a day now past.
 */
export const AGENDA_LIFETIME = MINUTES_PER_DAY;

/** What a step is judged against: where the NPC is, what it can reach, see and work on, now. */
export interface StepScene {
  readonly self: NpcId;
  readonly locationId: LocationId;
  /** Whether it can set out for `to` from here (somewhere else, and a route there). */
  canReach(to: LocationId): boolean;
  /** Whether another NPC is here and awake. */
  sees(npc: NpcId): boolean;
  /** Whether `task` is open and assigned to it. */
  holds(task: TaskId): boolean;
  /** Whether `task` was completed: the end its work was for. */
  done(task: TaskId): boolean;
}

/** Whether a planned step can be taken in `scene`: every id it names is still there for it. */
export const stepHolds = (step: AgendaStep, scene: StepScene): boolean => {
  switch (step.action) {
    case "speak":
      return step.to !== scene.self && scene.sees(step.to);
    case "move":
      return scene.canReach(step.to);
    case "work":
      return scene.holds(step.taskId);
    case "propose_task":
      return step.assignee === null || step.assignee === scene.self || scene.sees(step.assignee);
    case "rest":
      return true;
  }
};

/** Why the agenda asks the brain rather than take a step. */
export type AskWhy = "none" | "stale" | "tasks" | "invalid";

/** Why an own turn asks the brain: news that matters to it (`newsMatters`), or its agenda's why. */
export type TurnAsk = "news" | AskWhy;

export type AgendaTurn =
  | { readonly kind: "step"; readonly step: AgendaStep; readonly rest: ReadonlyArray<AgendaStep> }
  | { readonly kind: "ask"; readonly why: AskWhy };

/**
 * Whether the tasks a plan rests on still stand: every task one of its steps works on is
 * open and its own, or completed — the end the plan worked towards, which leaves only its
 * work steps moot. One that failed, lapsed, was cancelled or given to another changes what
 * the plan was for. A change to any other task leaves the plan as it was.
 */
export const tasksStand = (steps: ReadonlyArray<AgendaStep>, scene: StepScene): boolean =>
  steps.every(
    (step) => step.action !== "work" || scene.holds(step.taskId) || scene.done(step.taskId),
  );

/**
 * What a significant wake-up at `t` does with the agenda: take the first step that holds,
 * those before it passed over (`rest`: the steps after it), or ask.
 */
export const agendaTurn = (agenda: Agenda | null, t: GameTime, scene: StepScene): AgendaTurn => {
  if (agenda === null || agenda.steps.length === 0) return { kind: "ask", why: "none" };
  if (liveSteps(agenda, t).length === 0) return { kind: "ask", why: "stale" };
  if (!tasksStand(agenda.steps, scene)) return { kind: "ask", why: "tasks" };
  const next = agenda.steps.findIndex((step) => stepHolds(step, scene));
  if (next < 0) return { kind: "ask", why: "invalid" };
  return { kind: "step", step: agenda.steps[next]!, rest: agenda.steps.slice(next + 1) };
};

/** The steps still planned at `t`: none once the plan is `AGENDA_LIFETIME` old. */
export const liveSteps = (agenda: Agenda | null, t: GameTime): ReadonlyArray<AgendaStep> =>
  agenda === null || agenda.plannedAt + AGENDA_LIFETIME <= t ? [] : agenda.steps;

/** The steps an answer planned, as the agenda keeps them (at most `AGENDA_MAX_STEPS`). */
export const plannedSteps = (
  steps: ReadonlyArray<AgendaStep> | undefined,
): ReadonlyArray<AgendaStep> => (steps === undefined ? [] : steps.slice(0, AGENDA_MAX_STEPS));

/**
 * Whether an answer's plan changes the agenda: it had one, or the answer brings one. An
 * NPC that never plans changes nothing, so a log recorded before agendas replays as it was.
 */
export const agendaChanges = (
  current: Agenda | null,
  planned: ReadonlyArray<AgendaStep>,
): boolean => current !== null || planned.length > 0;
