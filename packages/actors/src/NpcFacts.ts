/**
 * What one NPC knows of itself: its profile (once generated), its live memories, the
 * rumours it could pass on, how much it has learnt since it last changed activity, how
 * it regards others (its outgoing edges) and the tasks it holds. The npc actor owns
 * this; nothing else in a run keeps a copy.
 *
 * It is a fold over the log: `foldNpcFacts` applies one event to the facts of the NPC it
 * concerns (`concernedNpc` names it; a task's events go to the NPC holding the task,
 * `taskHolder`). The live engine applies each event as it emits it
 * and a resumed one as it reads it back, through this one function, so a resumed actor
 * holds exactly what the live one did.
 *
 * The structure is mutable and changed only here: an NPC's memories change on most
 * events that reach it, and copying a map per event (`assign`) costs more than the rest
 * of its bookkeeping.
 */

import type {
  AgendaStep,
  Event,
  GameTime,
  LocationId,
  MemoryCategory,
  MemoryId,
  NpcId,
  NpcProfile,
  ProfileTrigger,
  TaskId,
  TaskStatus,
  WorldEventId,
} from "@hearsay/core";
import { reviseProfile } from "@hearsay/core";
import type { Fading } from "./MemoryDecay.ts";
import type { NewsItem } from "./newsMatters.ts";

/** Identity memories are who the NPC is: no cap ever drops them. */
export const isPinned = (category: MemoryCategory): boolean => category === "identity";

/** A memory an NPC holds, with what its cap, expiry and decay are decided by. */
export interface LiveMemory extends Fading {
  readonly category: MemoryCategory;
  /** Identity memories are who the NPC is: no cap ever drops them, and they never fade. */
  readonly pinned: boolean;
  /** Its importance at `since` (recorded, or last reinforced); it fades from then. */
  readonly importance: number;
  readonly since: GameTime;
  readonly recordedAt: GameTime;
  readonly expiresAt: GameTime | null;
  readonly about: { readonly kind: string; readonly id: string } | null;
  /** Where it happened, if anywhere. */
  readonly locationId: LocationId | null;
}

/** How an NPC regards another (its outgoing edge). */
export interface Regard {
  readonly trust: number;
  readonly respect: number;
  readonly suspicion: number;
  readonly summary: string;
}

/**
 * A task as a party to it keeps it. Its assignee holds it; a task given to someone who is
 * not an NPC (the player) is held by the NPC who proposed it. An NPC who proposed a task
 * someone else holds keeps its own copy (to withdraw it, or to agree to a new deadline);
 * work sessions are counted only in the holder's.
 */
export interface HeldTask {
  readonly id: TaskId;
  readonly title: string;
  readonly description: string;
  /** When it was proposed. */
  readonly proposedAt: GameTime;
  readonly proposedBy: NpcId | null;
  readonly assignee: NpcId | null;
  readonly locationId: LocationId | null;
  deadline: GameTime | null;
  status: TaskStatus;
  /** Work sessions finished on it. */
  sessions: number;
  /** How often its deadline was moved by agreement. */
  deadlineMoves: number;
}

/** Whether a task can still be worked on (and expire). */
export const isOpen = (status: TaskStatus): boolean => status === "proposed" || status === "active";

/** How many of each kind a profile's record keeps (the newest). */
const KEPT_PER_KIND = 4;

/**
 * What happened to an NPC since its profile last changed: what makes a revision due
 * (the engine decides with its config) and what a revision is about.
 */
export interface SinceProfile {
  /** When the profile was generated or last revised (null: no profile yet). */
  at: GameTime | null;
  /** Titles of tasks it completed, newest last. */
  readonly completed: Array<string>;
  /** Titles of tasks it let lapse or failed: promises broken, newest last. */
  readonly broken: Array<string>;
  /** Those it fell into a feud with, newest last. */
  readonly feuds: Array<NpcId>;
  /** Memories it recorded: how busy its days were. */
  memories: number;
}

export const emptySinceProfile = (): SinceProfile => ({
  at: null,
  completed: [],
  broken: [],
  feuds: [],
  memories: 0,
});

/** The triggers `since` holds evidence of, in a fixed order (heavy activity is the engine's call). */
export const eventTriggers = (since: SinceProfile): Array<ProfileTrigger> => {
  const out: Array<ProfileTrigger> = [];
  if (since.completed.length > 0) out.push("task_completed");
  if (since.broken.length > 0) out.push("promise_broken");
  if (since.feuds.length > 0) out.push("feud");
  return out;
};

const keepNewest = <T>(list: Array<T>, item: T): void => {
  list.push(item);
  if (list.length > KEPT_PER_KIND) list.shift();
};

/**
 * What an NPC means to do next: the steps its last answer planned and it has not taken
 * yet (`agenda.ts` decides when it takes one).
 */
export interface Agenda {
  readonly steps: ReadonlyArray<AgendaStep>;
  /** When the answer that planned them was given. */
  readonly plannedAt: GameTime;
}

export interface NpcFacts {
  readonly npcId: NpcId;
  /** Its current profile (generated, then revised), null until one is generated. */
  profile: NpcProfile | null;
  /** What happened since the profile last changed. */
  sinceProfile: SinceProfile;
  /** Live memories, in the order they were recorded. */
  readonly memories: Map<MemoryId, LiveMemory>;
  /** Items it could pass on as rumours: world event id → the confidence it holds. */
  readonly rumours: Map<WorldEventId, number>;
  /** Things learnt since it last changed activity: what makes a wake-up significant. */
  concerns: number;
  /**
   * Of those, what it did not take part in (learnt by any way but `participant`): news,
   * which sets its agenda aside when it matters to it (`newsMatters`). What it took part
   * in, it knew of when it planned.
   */
  readonly news: Array<NewsItem>;
  /** Its regard for others, by whom it regards. */
  readonly regard: Map<string, Regard>;
  /** Tasks it holds (open or ended), by id. */
  readonly tasks: Map<TaskId, HeldTask>;
  /**
   * Of those, the open ones (the same objects), in no particular order: what a wake-up,
   * a turn's input and a dossier read, so their cost follows what it holds now, not
   * every task it ever held (an NPC ends a task or so a week, for good).
   */
  readonly open: Map<TaskId, HeldTask>;
  /** The task it is working on now: its session ends when its activity next changes. */
  workingOn: TaskId | null;
  /** The steps it planned and has not taken yet; null: none. */
  agenda: Agenda | null;
}

export const emptyNpcFacts = (npcId: NpcId): NpcFacts => ({
  npcId,
  profile: null,
  sinceProfile: emptySinceProfile(),
  memories: new Map(),
  rumours: new Map(),
  concerns: 0,
  news: [],
  regard: new Map(),
  tasks: new Map(),
  open: new Map(),
  workingOn: null,
  agenda: null,
});

/** The open tasks assigned to the NPC, in id order: what it could work on. */
export const openTasksOf = (facts: NpcFacts): Array<HeldTask> => {
  const out: Array<HeldTask> = [];
  if (facts.open.size === 0) return out;
  for (const task of facts.open.values()) if (task.assignee === facts.npcId) out.push(task);
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
};

/**
 * The open tasks the NPC is a party to — assigned to it, or proposed by it — in id order:
 * what it could work on, give up, withdraw or ask a new deadline for.
 */
export const partyTasksOf = (facts: NpcFacts): Array<HeldTask> => {
  const out: Array<HeldTask> = [];
  if (facts.open.size === 0) return out;
  for (const task of facts.open.values())
    if (task.assignee === facts.npcId || task.proposedBy === facts.npcId) out.push(task);
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
};

/**
 * Who holds a proposed task: its assignee when that is an NPC, else its proposer when
 * that is one (`isNpc` says who is), else nobody — a task between no NPCs is the world's.
 */
export const taskHolder = (
  event: Extract<Event, { type: "TaskProposed" }>,
  isNpc: (id: NpcId) => boolean,
): NpcId | null => {
  const { assignee, proposedBy } = event.payload;
  if (assignee !== null && isNpc(assignee)) return assignee;
  if (proposedBy !== null && isNpc(proposedBy)) return proposedBy;
  return null;
};

/** A task's own events: those `foldTasks` applies. */
export type TaskEvent = Extract<
  Event,
  { type: "TaskProposed" | "TaskStatusChanged" | "TaskDeadlineMoved" }
>;

export const isTaskEvent = (event: Event): event is TaskEvent =>
  event.type === "TaskProposed" ||
  event.type === "TaskStatusChanged" ||
  event.type === "TaskDeadlineMoved";

/** Applies a task's own events to the tasks that hold it (an NPC's, or the world's). */
export const foldTasks = (tasks: Map<TaskId, HeldTask>, event: Event): void => {
  if (event.type === "TaskProposed") {
    const p = event.payload;
    tasks.set(p.taskId, {
      id: p.taskId,
      title: p.title,
      description: p.description,
      proposedAt: event.t,
      proposedBy: p.proposedBy,
      assignee: p.assignee,
      locationId: p.locationId,
      deadline: p.deadline,
      status: "proposed",
      sessions: 0,
      deadlineMoves: 0,
    });
  } else if (event.type === "TaskStatusChanged") {
    const task = tasks.get(event.payload.taskId);
    if (task) task.status = event.payload.to;
  } else if (event.type === "TaskDeadlineMoved") {
    const task = tasks.get(event.payload.taskId);
    if (task) {
      task.deadline = event.payload.to;
      task.deadlineMoves += 1;
    }
  }
};

/** The NPC whose facts `event` changes, or null when it changes no NPC's facts. */
export const concernedNpc = (event: Event): NpcId | null => {
  switch (event.type) {
    case "NpcRegistered":
    case "ProfileGenerated":
    case "ProfileRevised":
    case "KnowledgeGained":
    case "NpcActivityChanged":
    case "NpcAgendaChanged":
      return event.payload.npcId;
    case "MemoryRecorded":
    case "MemoryExpired":
    case "MemoryReinforced":
      return event.payload.ownerNpcId;
    case "RelationshipChanged":
      return event.payload.fromId;
    default:
      return null;
  }
};

/** Applies `event` to the facts of the NPC it concerns (`concernedNpc`). */
export const foldNpcFacts = (facts: NpcFacts, event: Event): void => {
  switch (event.type) {
    case "ProfileGenerated":
      facts.profile = event.payload.profile;
      facts.sinceProfile = { ...emptySinceProfile(), at: event.t };
      return;
    case "ProfileRevised":
      if (facts.profile !== null)
        facts.profile = reviseProfile(facts.profile, event.payload.changes);
      facts.sinceProfile = { ...emptySinceProfile(), at: event.t };
      return;
    case "ThreadOpened":
      // Routed to each NPC it is between; only a feud marks who is in it.
      if (event.payload.kind === "feud")
        for (const other of event.payload.npcIds)
          if (other !== facts.npcId) keepNewest(facts.sinceProfile.feuds, other);
      return;
    case "NpcActivityChanged": {
      const p = event.payload;
      facts.concerns = 0;
      facts.news.length = 0;
      // A work session ends whenever a working NPC changes activity; it counts on the
      // task it worked on (always its own: it is offered only tasks assigned to it).
      if (facts.workingOn !== null) {
        const task = facts.tasks.get(facts.workingOn);
        if (task) task.sessions += 1;
      }
      facts.workingOn = p.activity === "working" ? p.taskId : null;
      return;
    }
    case "NpcAgendaChanged": {
      const { steps, plannedAt } = event.payload;
      facts.agenda = steps.length === 0 ? null : { steps, plannedAt };
      return;
    }
    case "TaskProposed":
      foldTasks(facts.tasks, event);
      facts.open.set(event.payload.taskId, facts.tasks.get(event.payload.taskId)!);
      return;
    case "TaskDeadlineMoved":
      foldTasks(facts.tasks, event);
      return;
    case "TaskStatusChanged": {
      foldTasks(facts.tasks, event);
      const task = facts.tasks.get(event.payload.taskId);
      if (task !== undefined) {
        if (isOpen(task.status)) facts.open.set(task.id, task);
        else facts.open.delete(task.id);
      }
      // Only what the NPC itself undertook changes who it is.
      if (task === undefined || task.assignee !== facts.npcId) return;
      const to = event.payload.to;
      if (to === "completed") keepNewest(facts.sinceProfile.completed, task.title);
      // A task it had taken up and then let lapse or failed is a promise broken.
      else if ((to === "expired" || to === "failed") && event.payload.from === "active")
        keepNewest(facts.sinceProfile.broken, task.title);
      return;
    }
    case "KnowledgeGained": {
      const p = event.payload;
      facts.concerns += 1;
      if (p.via !== "participant")
        facts.news.push({
          itemKind: p.itemKind,
          itemId: p.itemId,
          via: p.via,
          confidence: p.confidence,
        });
      if (p.itemKind === "world_event") {
        const id = p.itemId as WorldEventId;
        if (p.confidence > (facts.rumours.get(id) ?? 0)) facts.rumours.set(id, p.confidence);
      }
      return;
    }
    case "MemoryRecorded": {
      const p = event.payload;
      facts.memories.set(p.memoryId, {
        category: p.category,
        pinned: isPinned(p.category),
        importance: p.importance,
        since: event.t,
        recordedAt: event.t,
        expiresAt: p.expiresAt,
        about: p.about,
        locationId: p.locationId,
      });
      facts.sinceProfile.memories += 1;
      return;
    }
    case "MemoryExpired":
      facts.memories.delete(event.payload.memoryId);
      return;
    case "MemoryReinforced":
      for (const { memoryId, importance } of event.payload.memories) {
        const m = facts.memories.get(memoryId);
        if (m) facts.memories.set(memoryId, { ...m, importance, since: event.t });
      }
      return;
    case "RelationshipChanged": {
      const p = event.payload;
      facts.regard.set(p.toId, {
        trust: p.trust,
        respect: p.respect,
        suspicion: p.suspicion,
        summary: p.summary,
      });
      return;
    }
    default:
      return;
  }
};
