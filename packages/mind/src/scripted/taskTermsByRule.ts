/**
 * The scripted brain's rules for changing a task's terms, tried by day before it works:
 *
 * - an assignee with more open tasks than it can carry gives up the one due last, and one
 *   whose task lies where it cannot go gives it up before starting;
 * - a proposer whose task nobody took up, with half a day left, withdraws it (the need
 *   has passed, or found another answer);
 * - a party to a task under way whose deadline is about to lapse asks for a few more
 *   days, once, when the other party is here to agree (or the task is its own).
 *
 * Each rule draws from the seeded stream only when its condition holds, so an NPC with
 * nothing to renegotiate decides exactly as it did before these rules.
 */
import type { GameTime, NpcId, Prng } from "@hearsay/core";
import type { ActInput, ActOutput, OwnTask } from "../purposes/ActPurpose.ts";

/** More open tasks of its own than this, and an assignee drops one. */
export const OVERLOADED = 3;

const DAY = 1440;

/** Reasons say why, not what: the engine's account names the task. */
export const termsReasons = {
  overloaded: [
    "I have more on my hands than I can see through.",
    "Too many jobs at once, and this one would be done badly.",
  ],
  far: ["I cannot get to where it needs doing.", "The place is out of my reach these days."],
  unwanted: ["Nobody took it up, and the need has passed.", "We managed without it after all."],
  moreTime: [
    "The work is under way but needs a few more days.",
    "It is half done; a little more time will see it finished.",
  ],
} as const;

const byDeadline = (a: OwnTask, b: OwnTask): number =>
  (b.deadline ?? Number.MAX_SAFE_INTEGER) - (a.deadline ?? Number.MAX_SAFE_INTEGER) ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const isOpen = (task: OwnTask): boolean => task.status === "proposed" || task.status === "active";

const timeLeft = (task: OwnTask, t: GameTime): number =>
  task.deadline === null ? Number.POSITIVE_INFINITY : task.deadline - t;

/** Who must agree to move `task`'s deadline, as the engine reads it (null: no one can). */
const agreeing = (task: OwnTask, self: NpcId): NpcId | null =>
  task.assignee === self ? task.proposedBy : (task.assignee ?? self);

/** A change of terms the rules call for now, or null. */
export const taskTermsByRule = (input: ActInput, t: GameTime, prng: Prng): ActOutput | null => {
  const self = input.self.id;
  const open = input.tasks.filter(isOpen);
  if (open.length === 0) return null;
  const mine = open.filter((task) => task.assignee === self);

  const due = mine.find(
    (task) =>
      task.status === "active" &&
      task.sessions > 0 &&
      task.deadlineMoves === 0 &&
      timeLeft(task, t) < DAY,
  );
  if (due !== undefined) {
    const other = agreeing(due, self);
    const here = other === self || input.present.some((p) => p.id === other);
    if (other !== null && here && prng.chance(0.7))
      return {
        action: "move_deadline",
        taskId: due.id,
        days: prng.int(2, 4),
        reason: prng.pick(termsReasons.moreTime),
      };
  }

  if (mine.length > OVERLOADED && prng.chance(0.5)) {
    const last = [...mine].sort(byDeadline)[0]!;
    return {
      action: "give_up",
      taskId: last.id,
      reason: prng.pick(termsReasons.overloaded),
    };
  }

  const unreachable = mine.find(
    (task) =>
      task.status === "proposed" &&
      task.locationId !== null &&
      task.locationId !== input.location.id &&
      !input.reachable.some((p) => p.id === task.locationId),
  );
  if (unreachable !== undefined && prng.chance(0.3))
    return {
      action: "give_up",
      taskId: unreachable.id,
      reason: prng.pick(termsReasons.far),
    };

  const unwanted = open.find(
    (task) =>
      task.proposedBy === self &&
      task.assignee !== self &&
      task.status === "proposed" &&
      timeLeft(task, t) < DAY / 2,
  );
  if (unwanted !== undefined && prng.chance(0.5))
    return {
      action: "withdraw",
      taskId: unwanted.id,
      reason: prng.pick(termsReasons.unwanted),
    };
  return null;
};
