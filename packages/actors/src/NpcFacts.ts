/**
 * What one NPC knows of itself: its profile (once generated), its live memories, the
 * rumours it could pass on, how much it has learnt since it last changed activity, and
 * how it regards others (its outgoing edges). The npc actor owns this; nothing else in a
 * run keeps a copy.
 *
 * It is a fold over the log: `foldNpcFacts` applies one event to the facts of the NPC it
 * concerns (`concernedNpc` names it). The live engine applies each event as it emits it
 * and a resumed one as it reads it back, through this one function, so a resumed actor
 * holds exactly what the live one did.
 *
 * The structure is mutable and changed only here: an NPC's memories change on most
 * events that reach it, and copying a map per event (`assign`) costs more than the rest
 * of its bookkeeping.
 */
import type {
  Event,
  GameTime,
  MemoryCategory,
  MemoryId,
  NpcId,
  NpcProfile,
  WorldEventId,
} from "@hearsay/core";

/** Identity memories are who the NPC is: no cap ever drops them. */
export const isPinned = (category: MemoryCategory): boolean => category === "identity";

/** A memory an NPC holds, with what its cap and expiry are decided by. */
export interface LiveMemory {
  readonly category: MemoryCategory;
  /** Identity memories are who the NPC is: no cap ever drops them. */
  readonly pinned: boolean;
  readonly importance: number;
  readonly recordedAt: GameTime;
  readonly expiresAt: GameTime | null;
  readonly about: { readonly kind: string; readonly id: string } | null;
}

/** How an NPC regards another (its outgoing edge). */
export interface Regard {
  readonly trust: number;
  readonly respect: number;
  readonly suspicion: number;
  readonly summary: string;
}

export interface NpcFacts {
  readonly npcId: NpcId;
  /** Its first-meeting profile, null until one is generated. */
  profile: NpcProfile | null;
  /** Live memories, in the order they were recorded. */
  readonly memories: Map<MemoryId, LiveMemory>;
  /** Items it could pass on as rumours: world event id → the confidence it holds. */
  readonly rumours: Map<WorldEventId, number>;
  /** Things learnt since it last changed activity: what makes a wake-up significant. */
  concerns: number;
  /** Its regard for others, by whom it regards. */
  readonly regard: Map<string, Regard>;
}

export const emptyNpcFacts = (npcId: NpcId): NpcFacts => ({
  npcId,
  profile: null,
  memories: new Map(),
  rumours: new Map(),
  concerns: 0,
  regard: new Map(),
});

/** The NPC whose facts `event` changes, or null when it changes no NPC's facts. */
export const concernedNpc = (event: Event): NpcId | null => {
  switch (event.type) {
    case "NpcRegistered":
    case "ProfileGenerated":
    case "KnowledgeGained":
    case "NpcActivityChanged":
      return event.payload.npcId;
    case "MemoryRecorded":
    case "MemoryExpired":
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
      return;
    case "NpcActivityChanged":
      facts.concerns = 0;
      return;
    case "KnowledgeGained": {
      const p = event.payload;
      facts.concerns += 1;
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
        recordedAt: event.t,
        expiresAt: p.expiresAt,
        about: p.about,
      });
      return;
    }
    case "MemoryExpired":
      facts.memories.delete(event.payload.memoryId);
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
