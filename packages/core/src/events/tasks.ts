/** Task events. A task's lifecycle: proposed → active → completed | failed | cancelled |
 * expired, or proposed → rejected | expired. The legal moves are in `Task.ts`. */
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

export const TaskStatusChanged = defineEvent("TaskStatusChanged", 1, {
  taskId: TaskId,
  from: TaskStatus,
  to: TaskStatus,
  reason: Schema.String,
});
