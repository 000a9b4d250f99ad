/**
 * Task lifecycles. The legal moves are one table:
 *
 *   proposed ──▶ active ──▶ completed | failed | cancelled | expired
 *       └──────▶ rejected | expired | cancelled
 *
 * Seeds from the world file are proposed at their hour; an assignee who works on a
 * proposed task takes it up (active); enough work sessions complete it; a passed
 * deadline expires it. Its parties may also call it off or move its deadline
 * (`TaskTerms.ts`). Each ending becomes a memory for those involved and, for a
 * completion, a local world event.
 */
import { type GameTime, gameTime, type NpcId, type TaskId, type TaskStatus } from "@hearsay/core";
import { announce } from "./Happenings.ts";
import { remember } from "./Memories.ts";
import type { TickContext } from "./TickContext.ts";

const legal: Readonly<Record<TaskStatus, ReadonlyArray<TaskStatus>>> = {
  proposed: ["active", "rejected", "expired", "cancelled"],
  active: ["completed", "failed", "cancelled", "expired"],
  completed: [],
  failed: [],
  cancelled: [],
  rejected: [],
  expired: [],
};

/** Whether a task may move from one status to another. */
export const canMove = (from: TaskStatus, to: TaskStatus): boolean => legal[from].includes(to);

/**
 * Moves a task if the move is legal; returns whether it moved. `by`: the party who chose
 * the move (null when no one did, as when a deadline passes). `told`, when given, is what
 * each party remembers of it instead of the plain account.
 */
export const moveTask = (
  ctx: TickContext,
  taskId: TaskId,
  to: TaskStatus,
  reason: string,
  by: NpcId | null,
  told?: (npc: NpcId) => string,
): boolean => {
  const task = ctx.actors.task(taskId);
  if (!task || !canMove(task.status, to)) return false;
  ctx.writer.emit("TaskStatusChanged", { taskId, from: task.status, to, reason, by });
  const involved = [
    ...new Set([task.assignee, task.proposedBy].filter((n): n is NpcId => n !== null)),
  ].sort();
  const verb: Partial<Record<TaskStatus, string>> = {
    active: "was taken up",
    completed: "was completed",
    failed: "failed",
    expired: "ran out of time",
    rejected: "was turned down",
    cancelled: "was called off",
  };
  if (verb[to]) {
    for (const npc of involved) {
      remember(ctx, npc, {
        text:
          told?.(npc) ??
          `The task "${task.title}" ${verb[to]}${task.assignee && task.assignee !== npc ? ` (${ctx.names.npcName(task.assignee)})` : ""}.`,
        category: "task",
        importance: to === "active" ? 0.5 : 0.7,
        lifetime: to === "active" ? "7d" : "30d",
        about: { kind: "task", id: taskId },
        locationId: task.locationId,
      });
    }
  }
  if (to === "completed" && task.locationId !== null) {
    announce(ctx, {
      kind: "task_completed",
      text: `${task.assignee ? ctx.names.npcName(task.assignee) : "Someone"} finished "${task.title}".`,
      locationId: task.locationId,
      factionId: null,
      visibility: "local",
      importance: 0.5,
      participants: involved,
      entities: task.assignee ? [ctx.names.npcName(task.assignee)] : [],
    });
  }
  return true;
};

/** Proposes the world file's task seeds whose hour falls in this tick. */
export const proposeSeeds = (ctx: TickContext): void => {
  const due = ctx.world.taskSeeds
    .filter((s) => {
      const at = gameTime(s.day, s.hour);
      return at > ctx.from && at <= ctx.t && ctx.actors.task(s.id) === undefined;
    })
    .sort((a, b) => a.day - b.day || a.hour - b.hour || (a.id < b.id ? -1 : 1));
  for (const seed of due) {
    propose(ctx, {
      taskId: seed.id,
      title: seed.title,
      description: seed.description,
      proposedBy: seed.proposedBy,
      assignee: seed.assignee,
      locationId: seed.locationId,
      factionId: seed.factionId,
      deadline: gameTime(seed.day + seed.deadlineDays, seed.hour),
    });
  }
};

export interface Proposal {
  readonly taskId?: TaskId;
  readonly title: string;
  readonly description: string;
  readonly proposedBy: NpcId | null;
  readonly assignee: NpcId | null;
  readonly locationId: TaskContextLocation;
  readonly factionId: string | null;
  readonly deadline: GameTime | null;
}
type TaskContextLocation = Parameters<typeof announce>[1]["locationId"];

/** Records a proposed task and tells its assignee. */
export const propose = (ctx: TickContext, p: Proposal): TaskId => {
  const taskId = p.taskId ?? (ctx.writer.mint("task") as TaskId);
  ctx.writer.emit("TaskProposed", {
    taskId,
    title: p.title,
    description: p.description,
    proposedBy: p.proposedBy,
    assignee: p.assignee,
    locationId: p.locationId,
    factionId: p.factionId as never,
    deadline: p.deadline,
  });
  if (p.assignee !== null) {
    remember(ctx, p.assignee, {
      text: `${p.proposedBy ? ctx.names.npcName(p.proposedBy) : "Someone"} asked me to see to "${p.title}": ${p.description}`,
      category: "task",
      importance: 0.6,
      lifetime: "7d",
      about: { kind: "task", id: taskId },
      locationId: p.locationId,
    });
  }
  return taskId;
};

/** Expires proposed or active tasks whose deadline has passed, in id order. */
export const expireTasks = (ctx: TickContext): void => {
  for (const id of ctx.actors.pastDeadline(ctx.t))
    moveTask(ctx, id, "expired", "the deadline passed", null);
};

/**
 * A finished work session: takes up a proposed task, and completes it when this session
 * makes enough (the state counts a session when the worker's activity next changes).
 */
export const workedOn = (ctx: TickContext, npc: NpcId, taskId: TaskId): void => {
  const task = ctx.actors.task(taskId);
  if (!task || task.assignee !== npc) return;
  if (task.status === "proposed") moveTask(ctx, taskId, "active", "work began", npc);
  if (task.status === "active" && task.sessions + 1 >= ctx.config.taskSessions) {
    moveTask(ctx, taskId, "completed", "the work is done", npc);
  }
};
