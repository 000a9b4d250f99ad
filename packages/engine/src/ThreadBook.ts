/**
 * The engine's fold of threads (see Threads.ts for the rules that open and close them):
 * which are open, who knows of each, when each was last mentioned, and the events of the
 * current tick that may open or close one (`pending`). Built only from events, so a
 * resumed engine holds exactly what the live one did: every tick's rules drain
 * `pending` before its ClockAdvanced, and ClockAdvanced empties it.
 *
 * A thread is *mentioned* when two of its NPCs talk (a ConversationTurn between them),
 * when the edge between a feud's NPCs changes, when its task's status changes, and when
 * someone learns of it.
 */
import type { Event, GameTime, NpcId, TaskStatus, ThreadId, ThreadKind } from "@hearsay/core";

export interface ThreadRuntime {
  readonly id: ThreadId;
  readonly kind: ThreadKind;
  readonly npcIds: ReadonlyArray<NpcId>;
  /** `kind:id` of what opened it (a task, a conversation, an edge pair), if anything. */
  readonly source: string | null;
  readonly openedAt: GameTime;
  lastMention: GameTime;
  readonly knowers: Set<NpcId>;
}

/** Something this tick that the thread rules look at. */
export type ThreadTrigger =
  | {
      readonly type: "promise";
      readonly conversationId: string;
      readonly owner: NpcId;
      readonly text: string;
    }
  | {
      readonly type: "taskProposed";
      readonly taskId: string;
      readonly title: string;
      readonly proposedBy: NpcId | null;
      readonly assignee: NpcId | null;
    }
  | { readonly type: "taskEnded"; readonly taskId: string; readonly to: TaskStatus }
  | {
      readonly type: "edge";
      readonly from: NpcId;
      readonly to: NpcId;
      /** The edge's regard (trust − suspicion / 2) before, if it existed, and after. */
      readonly before: number | null;
      readonly after: number;
      readonly summary: string;
    };

/** How warmly `from` regards `to`, from a RelationshipChanged's levels. */
export const regardOf = (e: { readonly trust: number; readonly suspicion: number }): number =>
  e.trust - e.suspicion / 2;

/** The source key of the feud between two NPCs (either order). */
export const pairKey = (a: NpcId, b: NpcId): string => `edge:${a < b ? `${a}|${b}` : `${b}|${a}`}`;

export class ThreadBook {
  readonly open = new Map<ThreadId, ThreadRuntime>();
  /** Every thread id ever opened (a seeded thread opens once, even after it closes). */
  readonly seen = new Set<ThreadId>();
  /** Source key → the open thread it opened. */
  readonly bySource = new Map<string, ThreadId>();
  /** `from->to` → current regard, for crossings. */
  readonly regard = new Map<string, number>();
  /** This tick's triggers, in log order. */
  pending: Array<ThreadTrigger> = [];
  /** Conversation id → who took part, for this tick's promises. */
  private readonly talks = new Map<string, Set<NpcId>>();
  private readonly byNpc = new Map<NpcId, Set<ThreadId>>();

  /** Participants of a conversation held this tick, in id order. */
  talkers(conversationId: string): ReadonlyArray<NpcId> {
    return [...(this.talks.get(conversationId) ?? [])].sort();
  }

  apply(event: Event): void {
    switch (event.type) {
      case "ThreadOpened": {
        const p = event.payload;
        if (this.seen.has(p.threadId)) return;
        this.seen.add(p.threadId);
        const source = p.source === null ? null : `${p.source.kind}:${p.source.id}`;
        this.open.set(p.threadId, {
          id: p.threadId,
          kind: p.kind,
          npcIds: p.npcIds,
          source,
          openedAt: event.t,
          lastMention: event.t,
          knowers: new Set(),
        });
        if (source !== null) this.bySource.set(source, p.threadId);
        for (const npc of p.npcIds) this.index(npc).add(p.threadId);
        return;
      }
      case "ThreadClosed": {
        const thread = this.open.get(event.payload.threadId);
        if (!thread) return;
        this.open.delete(thread.id);
        if (thread.source !== null) this.bySource.delete(thread.source);
        for (const npc of thread.npcIds) this.byNpc.get(npc)?.delete(thread.id);
        return;
      }
      case "KnowledgeGained": {
        const p = event.payload;
        if (p.itemKind !== "thread") return;
        const thread = this.open.get(p.itemId as ThreadId);
        if (!thread) return;
        thread.knowers.add(p.npcId);
        thread.lastMention = event.t;
        return;
      }
      case "ConversationTurn": {
        const p = event.payload;
        let talk = this.talks.get(p.conversationId);
        if (!talk) {
          talk = new Set();
          this.talks.set(p.conversationId, talk);
        }
        talk.add(p.speakerId);
        for (const l of p.listenerIds) talk.add(l);
        for (const id of this.byNpc.get(p.speakerId) ?? []) {
          const thread = this.open.get(id)!;
          if (p.listenerIds.some((l) => thread.npcIds.includes(l))) thread.lastMention = event.t;
        }
        return;
      }
      case "MemoryRecorded": {
        const p = event.payload;
        if (p.category === "promise" && p.about?.kind === "conversation") {
          this.pending.push({
            type: "promise",
            conversationId: p.about.id,
            owner: p.ownerNpcId,
            text: p.text,
          });
        }
        return;
      }
      case "TaskProposed": {
        const p = event.payload;
        this.pending.push({
          type: "taskProposed",
          taskId: p.taskId,
          title: p.title,
          proposedBy: p.proposedBy,
          assignee: p.assignee,
        });
        return;
      }
      case "TaskStatusChanged": {
        const p = event.payload;
        const id = this.bySource.get(`task:${p.taskId}`);
        if (id !== undefined) this.open.get(id)!.lastMention = event.t;
        if (p.to !== "active") this.pending.push({ type: "taskEnded", taskId: p.taskId, to: p.to });
        return;
      }
      case "TaskDeadlineMoved": {
        const id = this.bySource.get(`task:${event.payload.taskId}`);
        if (id !== undefined) this.open.get(id)!.lastMention = event.t;
        return;
      }
      case "RelationshipChanged": {
        const p = event.payload;
        const key = `${p.fromId}->${p.toId}`;
        const after = regardOf(p);
        const before = this.regard.get(key) ?? null;
        this.regard.set(key, after);
        const feud = this.bySource.get(pairKey(p.fromId, p.toId));
        if (feud !== undefined) this.open.get(feud)!.lastMention = event.t;
        this.pending.push({
          type: "edge",
          from: p.fromId,
          to: p.toId,
          before,
          after,
          summary: p.summary,
        });
        return;
      }
      case "ClockAdvanced":
        this.pending = [];
        this.talks.clear();
        return;
      default:
        return;
    }
  }

  /** Takes this tick's triggers (the rules handle each once). */
  drain(): ReadonlyArray<ThreadTrigger> {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  private index(npc: NpcId): Set<ThreadId> {
    let set = this.byNpc.get(npc);
    if (!set) {
      set = new Set();
      this.byNpc.set(npc, set);
    }
    return set;
  }
}
