/**
 * Turning what an NPC actor emits into events: activity changes, moves, finished work,
 * proposed tasks, tasks given up, withdrawn or given a new deadline, its agenda. Requests for a decision and words spoken are returned to the caller,
 * which batches them (brain calls and conversations happen in later phases of the tick).
 */
import type { NpcEmitted } from "@hearsay/actors";
import type { GameTime, NpcId, RegardShift, SpokenMemory } from "@hearsay/core";
import { askNewDeadline, cancelTask } from "./Renegotiation.ts";
import { propose, workedOn } from "./Tasks.ts";
import type { TickContext } from "./TickContext.ts";

export interface Spoken {
  readonly speaker: NpcId;
  readonly to: NpcId;
  readonly text: string;
  /** How the speaker's regard for `to` moves by saying it (from its brain's answer). */
  readonly regard: RegardShift | undefined;
  /** What the speaker will remember of saying it, if its answer said (kept if unanswered). */
  readonly memories?: ReadonlyArray<SpokenMemory> | undefined;
  /** The line closes the talk: its listener hears it and is not asked to answer. */
  readonly ends?: boolean | undefined;
}

export interface Reactions {
  readonly decide: Array<NpcId>;
  readonly spoken: Array<Spoken>;
}

export const noReactions = (): Reactions => ({ decide: [], spoken: [] });

export const react = (
  ctx: TickContext,
  npcId: NpcId,
  emitted: ReadonlyArray<NpcEmitted>,
  into: Reactions,
): void => {
  for (const e of emitted) {
    switch (e.type) {
      case "activity":
        ctx.writer.emit("NpcActivityChanged", {
          npcId,
          activity: e.activity,
          locationId: e.locationId,
          destination: e.destination,
          until: e.until,
          taskId: e.taskId,
          attendingTo: [...e.attendingTo],
          holding: [...ctx.state.happenings.holdingOf(npcId)],
          note: e.note,
        });
        break;
      case "moved":
        if (e.from !== e.to) ctx.writer.emit("NpcMoved", { npcId, from: e.from, to: e.to });
        break;
      case "workDone":
        if (e.taskId !== null) workedOn(ctx, npcId, e.taskId);
        break;
      case "decide":
        into.decide.push(npcId);
        break;
      case "speak":
        into.spoken.push({
          speaker: npcId,
          to: e.to,
          text: e.text,
          regard: e.regard,
          memories: e.memories,
          ends: e.ends,
        });
        break;
      case "agenda":
        ctx.writer.emit("NpcAgendaChanged", {
          npcId,
          steps: [...e.steps],
          plannedAt: e.plannedAt,
        });
        break;
      case "taskTerms":
        if (e.move === "move_deadline") askNewDeadline(ctx, npcId, e.taskId, e.days, e.reason);
        else cancelTask(ctx, npcId, e.taskId, e.move, e.reason);
        break;
      case "proposeTask":
        propose(ctx, {
          title: e.title,
          description: e.description,
          proposedBy: npcId,
          assignee: e.assignee,
          locationId: ctx.state.npcs.get(npcId)!.locationId,
          factionId: ctx.state.npcs.get(npcId)!.factionId,
          deadline: (ctx.t + e.deadlineDays * 1440) as GameTime,
        });
        break;
    }
  }
};
