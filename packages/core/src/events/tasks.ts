/** Task events. A task's lifecycle: proposed → active → completed | failed | cancelled |
 * expired, or proposed → rejected | expired | cancelled; an open task's deadline may be
 * moved by its parties' agreement. The legal moves are in the engine's `Tasks.ts`. */
import { Schema } from "effect";
import { GameTime } from "../GameTime.ts";
import { FactionId, LocationId, NpcId, TaskId } from "../ids.ts";
import { defineEvent, Text } from "./defineEvent.ts";

export const TaskStatus = Schema.Literals([
  "proposed",
  "active",
  "completed",
  "failed",
  "cancelled",
  "rejected",
  "expired",
]);
export type TaskStatus = typeof TaskStatus.Type;

export const TaskProposed = defineEvent("TaskProposed", 1, {
  taskId: TaskId,
  title: Schema.String,
  description: Text,
  proposedBy: Schema.NullOr(NpcId),
  assignee: Schema.NullOr(NpcId),
  locationId: Schema.NullOr(LocationId),
  factionId: Schema.NullOr(FactionId),
  deadline: Schema.NullOr(GameTime),
});

/**
 * `by`: the party who moved it — the assignee giving a task up, the proposer withdrawing
 * it, the worker taking it up or finishing it — or null when no one chose it (a deadline
 * passed, the game reported the player's answer, or the log predates `by`).
 */
export const TaskStatusChanged = defineEvent("TaskStatusChanged", 2, {
  taskId: TaskId,
  from: TaskStatus,
  to: TaskStatus,
  reason: Schema.String,
  by: Schema.NullOr(NpcId),
});

/**
 * An open task's deadline moved by agreement: `askedBy` asked (a party to the task) and
 * `agreedBy` (the other party, or the asker itself when it set the task for itself)
 * agreed. `to` is always later than the time it was moved at and than `from`.
 */
export const TaskDeadlineMoved = defineEvent("TaskDeadlineMoved", 1, {
  taskId: TaskId,
  from: Schema.NullOr(GameTime),
  to: GameTime,
  askedBy: NpcId,
  agreedBy: NpcId,
  reason: Schema.String,
});
