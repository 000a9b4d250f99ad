/**
 * Who knows what, as a fold over the log: the one place the rule is written. An NPC knows
 * an item at time t only if the log holds, at or before t, that it owns the memory, or a
 * KnowledgeGained fact for it; a memory is known by nobody from its expiresAt, or from the
 * time of the first MemoryExpired after its record, on; a world event is known by nobody
 * from its lapsesAt on (the first WorldEventOccurred of its id says when: it has lapsed
 * as news, so it leaves every dossier — its facts stay, as history). Lore is public.
 *
 * The fold is incremental: `knowledgeStep` reads one event against what a consumer holds
 * so far (a `KnowledgeState`) and says what changed — fact rows that appeared or moved
 * earlier, a memory first recorded, a memory that died. Each consumer keeps its own
 * storage (the store's tables, retrieval's known lists, the inspector's history) and
 * writes those changes into it; none restates the rule. `KnowledgeLedger` is the
 * in-memory consumer, and `knows` reads it. SQL that mirrors the rule (the store's
 * upserts and bulk fold) is held to this fold by tests feeding both the same arbitrary
 * logs (packages/store/test/KnowledgeAgreement.test.ts).
 */
import type { Event, EventOf } from "./Event.ts";
import type { GameTime } from "./GameTime.ts";
import type { NpcId } from "./ids.ts";
import { type ItemKind, itemKey, type Via } from "./Visibility.ts";
import { worldEventCurrentAt } from "./WorldEventLifetimes.ts";

/** The first time an NPC came to know an item, and how. */
export interface KnowledgeFact {
  readonly t: GameTime;
  readonly via: Via | "owner";
  /** Who told it (null: first-hand, or the owner). */
  readonly fromNpcId: NpcId | null;
  readonly confidence: number;
}

/** A memory's life as the rule reads it. */
export interface MemoryLife {
  readonly owner: NpcId;
  readonly recordedAt: GameTime;
  readonly expiresAt: GameTime | null;
}

/**
 * What the rule needs of the state a consumer has folded so far. Answers must reflect
 * every change `knowledgeStep` reported for earlier events.
 */
export interface KnowledgeState {
  /** When `npc` first knew the item, if it has a fact for it. */
  factTime(npc: NpcId, kind: ItemKind, id: string): GameTime | undefined;
  /** A MemoryRecorded for this id was folded. */
  memoryRecorded(id: string): boolean;
  /** A MemoryExpired for this (recorded) memory was folded. */
  memoryGone(id: string): boolean;
  /** A WorldEventOccurred for this id was folded (its lapse is set). */
  worldEventRecorded(id: string): boolean;
}

/** One change an event makes to who knows what. */
export type KnowledgeChange =
  | {
      /** `npcId`'s fact about the item is now `fact`: a new row (`first`) or an earlier one. */
      readonly type: "fact";
      readonly npcId: NpcId;
      readonly itemKind: ItemKind;
      readonly itemId: string;
      readonly fact: KnowledgeFact;
      readonly first: boolean;
    }
  | { readonly type: "recorded"; readonly memoryId: string; readonly life: MemoryLife }
  | { readonly type: "died"; readonly memoryId: string; readonly t: GameTime }
  | {
      /** A world event first recorded: it lapses at `lapsesAt` (null: never). */
      readonly type: "lapses";
      readonly worldEventId: string;
      readonly lapsesAt: GameTime | null;
    };

/** The fields of the events the rule reads: a stored event, or a row read back from a log. */
export type KnowledgeEvent =
  | {
      readonly type: "KnowledgeGained";
      readonly t: GameTime;
      readonly payload: Pick<
        EventOf<"KnowledgeGained">["payload"],
        "npcId" | "itemKind" | "itemId" | "via" | "fromNpcId" | "confidence"
      >;
    }
  | {
      readonly type: "MemoryRecorded";
      readonly t: GameTime;
      readonly payload: Pick<
        EventOf<"MemoryRecorded">["payload"],
        "memoryId" | "ownerNpcId" | "expiresAt"
      >;
    }
  | {
      readonly type: "MemoryExpired";
      readonly t: GameTime;
      readonly payload: Pick<EventOf<"MemoryExpired">["payload"], "memoryId">;
    }
  | {
      readonly type: "WorldEventOccurred";
      readonly t: GameTime;
      readonly payload: Pick<EventOf<"WorldEventOccurred">["payload"], "worldEventId" | "lapsesAt">;
    };

/** The event types that can change who knows what. */
export const knowledgeEventTypes = [
  "KnowledgeGained",
  "MemoryRecorded",
  "MemoryExpired",
  "WorldEventOccurred",
] as const;

const none: ReadonlyArray<KnowledgeChange> = [];

/** A fact replaces the one held only when strictly earlier: on a tie, the first in log order stays. */
const fact = (
  state: KnowledgeState,
  npcId: NpcId,
  itemKind: ItemKind,
  itemId: string,
  f: KnowledgeFact,
): KnowledgeChange | null => {
  const prior = state.factTime(npcId, itemKind, itemId);
  if (prior !== undefined && f.t >= prior) return null;
  return { type: "fact", npcId, itemKind, itemId, fact: f, first: prior === undefined };
};

/**
 * The rule, one event at a time: what `e` changes given `state` (events in log order).
 * - KnowledgeGained: the NPC's fact, if it is its first or earlier than the one held;
 * - MemoryRecorded: the memory and its owner's fact, unless the id was recorded before
 *   (a re-record changes nothing, whoever it names);
 * - MemoryExpired: the memory dies at the event's time, once, and only if it was recorded
 *   earlier in the log (an expiry of an unknown memory changes nothing);
 * - WorldEventOccurred: the world event's lapse, from its first record only.
 */
export const knowledgeStep = (
  state: KnowledgeState,
  e: KnowledgeEvent | Event,
): ReadonlyArray<KnowledgeChange> => {
  switch (e.type) {
    case "KnowledgeGained": {
      const p = e.payload;
      const c = fact(state, p.npcId, p.itemKind, p.itemId, {
        t: e.t,
        via: p.via,
        fromNpcId: p.fromNpcId,
        confidence: p.confidence,
      });
      return c === null ? none : [c];
    }
    case "MemoryRecorded": {
      const p = e.payload;
      if (state.memoryRecorded(p.memoryId)) return none;
      const recorded: KnowledgeChange = {
        type: "recorded",
        memoryId: p.memoryId,
        life: { owner: p.ownerNpcId, recordedAt: e.t, expiresAt: p.expiresAt },
      };
      const owned = fact(state, p.ownerNpcId, "memory", p.memoryId, {
        t: e.t,
        via: "owner",
        fromNpcId: null,
        confidence: 1,
      });
      return owned === null ? [recorded] : [recorded, owned];
    }
    case "MemoryExpired": {
      const id = e.payload.memoryId;
      if (!state.memoryRecorded(id) || state.memoryGone(id)) return none;
      return [{ type: "died", memoryId: id, t: e.t }];
    }
    case "WorldEventOccurred": {
      const id = e.payload.worldEventId;
      if (state.worldEventRecorded(id)) return none;
      return [{ type: "lapses", worldEventId: id, lapsesAt: e.payload.lapsesAt }];
    }
    default:
      return none;
  }
};

/** A memory is alive at `t` until its expiresAt and until it went (null: not yet). */
export const memoryAliveAt = (
  expiresAt: GameTime | number | null,
  goneAt: GameTime | number | null,
  t: GameTime | number,
): boolean => (expiresAt === null || expiresAt > t) && (goneAt === null || goneAt > t);

/** The fold held in memory: every fact, memory and death, by key. */
export class KnowledgeLedger implements KnowledgeState {
  /** npc id → item key → earliest fact. */
  private readonly facts = new Map<string, Map<string, KnowledgeFact>>();
  private readonly memories = new Map<string, MemoryLife>();
  /** memory id → when the first MemoryExpired after its record removed it. */
  private readonly gone = new Map<string, GameTime>();
  /** world event id → when it lapses (null: never), from its first record. */
  private readonly lapses = new Map<string, GameTime | null>();

  /** Folds one event in (events in log order) and says what changed. */
  apply(event: KnowledgeEvent | Event): ReadonlyArray<KnowledgeChange> {
    const changes = knowledgeStep(this, event);
    for (const c of changes) this.write(c);
    return changes;
  }

  private write(c: KnowledgeChange): void {
    switch (c.type) {
      case "fact": {
        let known = this.facts.get(c.npcId);
        if (!known) {
          known = new Map();
          this.facts.set(c.npcId, known);
        }
        known.set(itemKey(c.itemKind, c.itemId), c.fact);
        return;
      }
      case "recorded":
        this.memories.set(c.memoryId, c.life);
        return;
      case "died":
        this.gone.set(c.memoryId, c.t);
        return;
      case "lapses":
        this.lapses.set(c.worldEventId, c.lapsesAt);
        return;
    }
  }

  factTime(npc: NpcId, kind: ItemKind, id: string): GameTime | undefined {
    return this.facts.get(npc)?.get(itemKey(kind, id))?.t;
  }

  memoryRecorded(id: string): boolean {
    return this.memories.has(id);
  }

  memoryGone(id: string): boolean {
    return this.gone.has(id);
  }

  worldEventRecorded(id: string): boolean {
    return this.lapses.has(id);
  }

  /** `npc`'s fact about the item (its earliest), whenever it is and whether or not it is alive. */
  fact(npc: NpcId, kind: ItemKind, id: string): KnowledgeFact | undefined {
    return this.facts.get(npc)?.get(itemKey(kind, id));
  }

  /** How `npc` first came to know the item, if it knows it at `t`. */
  factAt(npc: NpcId, kind: ItemKind, id: string, t: GameTime): KnowledgeFact | undefined {
    const fact = this.facts.get(npc)?.get(itemKey(kind, id));
    if (!fact || fact.t > t) return undefined;
    if (kind === "memory" && !this.memoryAlive(id, t)) return undefined;
    if (kind === "world_event" && !worldEventCurrentAt(this.lapses.get(id) ?? null, t))
      return undefined;
    return fact;
  }

  /** Every item `npc` knows at `t`, sorted by key (deterministic). */
  knownAt(
    npc: NpcId,
    t: GameTime,
  ): ReadonlyArray<{ kind: ItemKind; id: string; fact: KnowledgeFact }> {
    const out: Array<{ kind: ItemKind; id: string; fact: KnowledgeFact }> = [];
    const known = this.facts.get(npc);
    if (!known) return out;
    for (const key of [...known.keys()].sort()) {
      const sep = key.indexOf(":");
      const kind = key.slice(0, sep) as ItemKind;
      const id = key.slice(sep + 1);
      const fact = this.factAt(npc, kind, id, t);
      if (fact) out.push({ kind, id, fact });
    }
    return out;
  }

  /** Every NPC with a fact, in no particular order. */
  knowers(): IterableIterator<string> {
    return this.facts.keys();
  }

  private memoryAlive(id: string, t: GameTime): boolean {
    return memoryAliveAt(this.memories.get(id)?.expiresAt ?? null, this.gone.get(id) ?? null, t);
  }

  /** The owner of a memory, if the ledger has seen it recorded. */
  memoryOwner(id: string): NpcId | undefined {
    return this.memories.get(id)?.owner;
  }
}

/** The rule: does `npc` know the item at `t`? Lore is public and always known. */
export const knows = (
  ledger: KnowledgeLedger,
  npc: NpcId,
  item: { readonly kind: ItemKind | "lore"; readonly id: string },
  t: GameTime,
): boolean => item.kind === "lore" || ledger.factAt(npc, item.kind, item.id, t) !== undefined;

/** Builds a ledger from events in log order. */
export const foldKnowledge = (events: Iterable<KnowledgeEvent | Event>): KnowledgeLedger => {
  const ledger = new KnowledgeLedger();
  for (const e of events) ledger.apply(e);
  return ledger;
};
