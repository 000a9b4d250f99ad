/**
 * A party changing a task's terms, as its brain asked: the assignee gives it up, the
 * proposer withdraws it, or either asks the other to move its deadline. The rules are
 * `TaskTerms.ts`; a move the rules refuse changes nothing. The parties remember what
 * happened; so do those awake in the same place, who saw it (and no one else: a scene's
 * witnesses are the only others who could know).
 */
import type { HeldTask } from "@hearsay/actors";
import { MINUTES_PER_DAY, type NpcId, type TaskId } from "@hearsay/core";
import { companyOf } from "./Glimpses.ts";
import { rememberKept } from "./Memories.ts";
import { moveTask } from "./Tasks.ts";
import { agreeingParty, agreesToMove, mayCancel, movedDeadline } from "./TaskTerms.ts";
import type { TickContext } from "./TickContext.ts";

/** The NPC's own reason after a colon, as its own sentence: its closing stop left to the caller. */
const clause = (reason: string): string => {
  const r = reason.trim().replace(/[.!?…]+$/, "");
  return r === "" ? "" : `: ${r}`;
};

/**
 * Someone else's reason, quoted as they gave it (it may say "I"): a quotation closing the
 * sentence, its own quotation marks made single so quotes never nest; "." when none.
 */
const saying = (reason: string): string => {
  const r = reason.trim().replaceAll('"', "'");
  if (r === "") return ".";
  return `, saying: "${/[.!?…]$/.test(r) ? r : `${r}.`}"`;
};

/** Those who saw it: awake in the asker's place, neither party. */
const witnessesOf = (ctx: TickContext, npc: NpcId, task: HeldTask): ReadonlyArray<NpcId> => {
  const here = ctx.state.npcs.get(npc)?.locationId;
  if (here === undefined) return [];
  return companyOf(ctx, npc, here).filter((id) => id !== task.assignee && id !== task.proposedBy);
};

const tellWitnesses = (ctx: TickContext, npc: NpcId, task: HeldTask, text: string): void => {
  const here = ctx.state.npcs.get(npc)?.locationId ?? null;
  for (const w of witnessesOf(ctx, npc, task))
    rememberKept(ctx, w, {
      text,
      category: "task",
      importance: 0.35,
      lifetime: "3d",
      about: { kind: "task", id: task.id },
      locationId: here,
      entities: [ctx.names.npcName(npc)],
    });
};

/** The assignee gives the task up, or its proposer withdraws it; returns whether it ended. */
export const cancelTask = (
  ctx: TickContext,
  npc: NpcId,
  taskId: TaskId,
  move: "give_up" | "withdraw",
  reason: string,
): boolean => {
  const task = ctx.actors.task(taskId);
  if (task === undefined || !mayCancel(task, npc, move)) return false;
  const name = ctx.names.npcName(npc);
  const why = clause(reason);
  const did = move === "give_up" ? "gave up" : "withdrew";
  const told = (party: NpcId): string =>
    party === npc
      ? `I ${did} the task "${task.title}"${why}.`
      : `${name} ${did} the task "${task.title}"${saying(reason)}`;
  const moved = moveTask(
    ctx,
    taskId,
    "cancelled",
    move === "give_up" ? `the assignee gave it up${why}` : `the proposer withdrew it${why}`,
    npc,
    told,
  );
  if (moved)
    tellWitnesses(
      ctx,
      npc,
      task,
      `I saw ${name} ${did === "gave up" ? "give up" : "withdraw"} the task "${task.title}".`,
    );
  return moved;
};

/**
 * `npc` asks to move the task's deadline `days` later. The agreeing party must be the
 * asker itself or awake in the same place, and agree (`agreesToMove`, from its own regard
 * for the asker); returns whether the deadline moved.
 */
export const askNewDeadline = (
  ctx: TickContext,
  npc: NpcId,
  taskId: TaskId,
  days: number,
  reason: string,
): boolean => {
  const task = ctx.actors.task(taskId);
  if (task === undefined) return false;
  const other = agreeingParty(task, npc);
  if (other === null || !ctx.state.npcs.has(other)) return false;
  const here = ctx.state.npcs.get(npc)!.locationId;
  const name = ctx.names.npcName(npc);
  const otherName = ctx.names.npcName(other);
  const memo = (owner: NpcId, text: string, importance: number) =>
    rememberKept(ctx, owner, {
      text,
      category: "task",
      importance,
      lifetime: "7d",
      about: { kind: "task", id: taskId },
      locationId: here,
      entities: owner === npc ? [otherName] : [name],
    });
  if (other !== npc && !companyOf(ctx, npc, here).includes(other)) {
    memo(
      npc,
      `I meant to ask ${otherName} for more time on "${task.title}", but they were not there.`,
      0.4,
    );
    return false;
  }
  if (other !== npc && !agreesToMove(ctx.actors.regard(other, npc))) {
    memo(npc, `I asked ${otherName} for more time on "${task.title}"; they said no.`, 0.55);
    memo(other, `${name} asked me for more time on "${task.title}"; I said no.`, 0.5);
    return false;
  }
  // Read before the event: emitting it folds the new deadline into `task`.
  const from = task.deadline;
  const to = movedDeadline(from, ctx.t, days);
  ctx.writer.emit("TaskDeadlineMoved", {
    taskId,
    from,
    to,
    askedBy: npc,
    agreedBy: other,
    reason: reason.trim().slice(0, 300) || "more time was needed",
  });
  const span = Math.round((to - Math.max(from ?? ctx.t, ctx.t)) / MINUTES_PER_DAY);
  const more = `${span} more day${span === 1 ? "" : "s"}`;
  if (other === npc) memo(npc, `I gave myself ${more} for "${task.title}"${clause(reason)}.`, 0.5);
  else {
    memo(npc, `${otherName} agreed to give me ${more} for "${task.title}"${clause(reason)}.`, 0.55);
    memo(
      other,
      `${name} asked me for more time on "${task.title}"${saying(reason)} I agreed to ${more}.`,
      0.5,
    );
  }
  tellWitnesses(ctx, npc, task, `I heard ${name} get ${more} for the task "${task.title}".`);
  return true;
};
