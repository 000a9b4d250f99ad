/**
 * What a game tells the world besides talk: a world tick (things that happened in the
 * game — each a world event whose visibility decides who learns it, by the same witness
 * rule the engine uses) and the result of an action an NPC proposed (the game accepted,
 * rejected, completed or failed it — a task move its lifecycle must allow, a memory for
 * the NPC who proposed it, and a shift in its regard for the player).
 */
import {
  type FactionId,
  type LocationId,
  type NpcId,
  PLAYER_ID,
  type PlayerInputBody,
  type TaskId,
  type TaskStatus,
  type Via,
  type Visibility,
  type WorldEventId,
  witnessesOf,
  worldEventLapsesAt,
} from "@hearsay/core";
import { remember } from "../Memories.ts";
import { NotInWorld, TaskMoveRefused, TaskNotFound } from "./TalkError.ts";
import type { TalkWriter } from "./TalkWriter.ts";

/** One thing that happened in the game. */
export interface WorldDiff {
  readonly kind: string;
  readonly text: string;
  readonly locationId: string | null;
  readonly factionId: string | null;
  readonly visibility: Visibility;
  readonly importance: number;
  /** NPCs who took part (the player may be among them). */
  readonly participants: ReadonlyArray<string>;
  readonly entities: ReadonlyArray<string>;
}

export interface AnnouncedEvent {
  readonly worldEventId: WorldEventId;
  readonly learnt: ReadonlyArray<{ readonly npcId: NpcId; readonly via: Via }>;
}

/** Records each diff as a world event and who came to know it; one batch. */
export const applyWorldTick = (
  talk: TalkWriter,
  diffs: ReadonlyArray<WorldDiff>,
): Promise<ReadonlyArray<AnnouncedEvent>> => {
  const world = talk.spec.simulation.world;
  for (const d of diffs) {
    if (d.locationId !== null && !world.locations.some((l) => l.id === d.locationId))
      throw new NotInWorld({ kind: "location", id: d.locationId });
    if (d.factionId !== null && !world.factions.some((f) => f.id === d.factionId))
      throw new NotInWorld({ kind: "faction", id: d.factionId });
    for (const p of d.participants) if (p !== PLAYER_ID) talk.npc(p);
  }
  const input: PlayerInputBody = {
    kind: "world_tick",
    diffs: diffs.map((d) => ({
      kind: d.kind,
      text: d.text,
      locationId: d.locationId,
      factionId: d.factionId,
      visibility: d.visibility,
      importance: d.importance,
      participants: [...d.participants],
      entities: [...d.entities],
    })),
  };
  return talk.write(input, (ctx) =>
    diffs.map((d) => {
      const worldEventId = ctx.writer.mint("we") as WorldEventId;
      const participants = d.participants.filter(
        (p) => p !== PLAYER_ID,
      ) as unknown as ReadonlyArray<NpcId>;
      ctx.writer.emit("WorldEventOccurred", {
        worldEventId,
        kind: d.kind,
        text: d.text,
        locationId: d.locationId as LocationId | null,
        factionId: d.factionId as FactionId | null,
        visibility: d.visibility,
        importance: d.importance,
        participants: [...participants],
        entities: [...d.entities],
        lapsesAt: worldEventLapsesAt(
          ctx.config.worldEventLifetimes,
          { id: worldEventId, importance: d.importance },
          ctx.t,
        ),
      });
      const learnt = witnessesOf(
        {
          visibility: d.visibility,
          locationId: d.locationId as LocationId | null,
          factionId: d.factionId as FactionId | null,
          participants,
        },
        {
          presentAt: (l) => ctx.state.presentAt(l),
          membersOf: (f) =>
            [...ctx.state.npcs.values()]
              .filter((n) => n.factionId === f)
              .map((n) => n.id)
              .sort(),
          everyone: () => [...ctx.state.npcs.keys()].sort(),
        },
      );
      for (const w of learnt)
        ctx.writer.emit("KnowledgeGained", {
          npcId: w.npcId,
          itemKind: "world_event",
          itemId: worldEventId,
          via: w.via,
          fromNpcId: null,
          confidence: 1,
        });
      return { worldEventId, learnt };
    }),
  );
};

export type ActionOutcome = "accepted" | "rejected" | "completed" | "failed";

const moves: Record<
  ActionOutcome,
  { readonly from: ReadonlyArray<TaskStatus>; readonly to: TaskStatus }
> = {
  accepted: { from: ["proposed"], to: "active" },
  rejected: { from: ["proposed"], to: "rejected" },
  completed: { from: ["active"], to: "completed" },
  failed: { from: ["active"], to: "failed" },
};

const regardShift: Record<ActionOutcome, number> = {
  accepted: 0.03,
  rejected: -0.05,
  completed: 0.1,
  failed: -0.08,
};

const clamp = (x: number): number => Math.max(-1, Math.min(1, Math.round(x * 1000) / 1000));

export interface ActionResult {
  readonly taskId: TaskId;
  readonly status: TaskStatus;
  readonly memoryId: string | null;
}

/** Moves the task, and the NPC who proposed it remembers how the player answered. */
export const applyActionResult = (
  talk: TalkWriter,
  r: { readonly taskId: string; readonly outcome: ActionOutcome; readonly note: string | null },
): Promise<ActionResult> =>
  talk.write(
    { kind: "action_result", taskId: r.taskId, outcome: r.outcome, note: r.note },
    (ctx) => {
      const task = ctx.actors.task(r.taskId as TaskId);
      if (task === undefined) throw new TaskNotFound({ saveId: talk.saveId, taskId: r.taskId });
      const move = moves[r.outcome];
      if (!move.from.includes(task.status))
        throw new TaskMoveRefused({ taskId: r.taskId, from: task.status, outcome: r.outcome });
      ctx.writer.emit("TaskStatusChanged", {
        taskId: task.id,
        from: task.status,
        to: move.to,
        reason: r.note ?? `the game reported the player ${r.outcome} it`,
        by: null,
      });
      const by = task.proposedBy;
      let memoryId: string | null = null;
      if (by !== null && ctx.state.npcs.has(by)) {
        const good = r.outcome === "accepted" || r.outcome === "completed";
        memoryId = remember(ctx, by, {
          text: `The player ${r.outcome} the task I gave them: ${task.title}.${r.note ? ` ${r.note}` : ""}`.slice(
            0,
            400,
          ),
          category: r.outcome === "completed" || r.outcome === "failed" ? "relationship" : "task",
          importance: good ? 0.6 : 0.65,
          lifetime: r.outcome === "accepted" ? "7d" : "30d",
          entities: [talk.options.playerName, task.title],
          about: { kind: "player", id: PLAYER_ID },
          locationId: task.locationId,
        });
        const prior = ctx.actors.regard(by, PLAYER_ID) ?? {
          trust: 0,
          respect: 0,
          suspicion: 0,
          summary: "",
        };
        const d = regardShift[r.outcome];
        ctx.writer.emit("RelationshipChanged", {
          fromId: by,
          toId: PLAYER_ID,
          trust: clamp(prior.trust + d),
          respect: clamp(prior.respect + d / 2),
          suspicion: clamp(prior.suspicion - d / 2),
          summary:
            prior.summary === "" ? `The player ${r.outcome} a task I gave them.` : prior.summary,
          reason: `the player ${r.outcome} "${task.title.replaceAll('"', "'")}"`.slice(0, 300),
        });
      }
      return { taskId: task.id, status: move.to, memoryId };
    },
  );
