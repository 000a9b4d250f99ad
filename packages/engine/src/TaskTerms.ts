/**
 * The terms of a task its parties may change, as pure rules: who may give it up or
 * withdraw it, who must agree to a new deadline and whether they do, and what the new
 * deadline is. `Renegotiation.ts` applies them; the brain (or the scripted rules) only
 * asks.
 */
import type { HeldTask, Regard } from "@hearsay/actors";
import { type GameTime, MINUTES_PER_DAY, type NpcId } from "@hearsay/core";
import { canMove } from "./Tasks.ts";

/** How often one task's deadline may be moved: enough for a setback, not an excuse forever. */
export const MAX_DEADLINE_MOVES = 2;

/** How many days one move may add at most. */
export const MAX_DEADLINE_DAYS = 14;

/** What a party may ask of a task it is a party to. */
export type TermsMove = "give_up" | "withdraw" | "move_deadline";

type TaskTerms = Pick<
  HeldTask,
  "status" | "assignee" | "proposedBy" | "deadline" | "deadlineMoves"
>;

/** Whether `npc` may call the task off: its assignee gives it up, its proposer withdraws it. */
export const mayCancel = (task: TaskTerms, npc: NpcId, move: "give_up" | "withdraw"): boolean =>
  canMove(task.status, "cancelled") &&
  (move === "give_up" ? task.assignee === npc : task.proposedBy === npc);

/**
 * Who must agree when `npc` asks to move the deadline: the other party; the asker itself
 * when it set the task for itself or for nobody in particular; null when no one can (the
 * asker is no party, the task is not open, has no deadline, was moved enough, or its
 * assignee has no one to ask).
 */
export const agreeingParty = (task: TaskTerms, npc: NpcId): NpcId | null => {
  if (task.status !== "proposed" && task.status !== "active") return null;
  if (task.deadline === null || task.deadlineMoves >= MAX_DEADLINE_MOVES) return null;
  if (task.assignee === npc) return task.proposedBy;
  if (task.proposedBy === npc) return task.assignee ?? npc;
  return null;
};

/**
 * The deadline `days` after the later of the old one and now: always later than both,
 * so a moved task never expires on the tick it was moved.
 */
export const movedDeadline = (deadline: GameTime | null, now: GameTime, days: number): GameTime => {
  const whole = Math.min(MAX_DEADLINE_DAYS, Math.max(1, Math.floor(days)));
  return (Math.max(deadline ?? now, now) + whole * MINUTES_PER_DAY) as GameTime;
};

/**
 * Whether a party agrees to move the deadline, from its regard for the asker (its own
 * edge): it agrees unless it distrusts them. No edge is a stranger's benefit of the doubt.
 */
export const agreesToMove = (regard: Regard | undefined): boolean =>
  regard === undefined || regard.trust - regard.suspicion / 2 >= -0.1;
