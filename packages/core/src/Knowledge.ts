/**
 * Who knows what, as a fold over the log. An NPC knows an item at time t only if the
 * log holds, at or before t, that it owns the memory, or a KnowledgeGained fact for it;
 * an expired or forgotten memory is known by nobody after it goes. Lore is public.
 *
 * `KnowledgeLedger` is the fold; `knows` is the rule. Both are pure: the ledger is
 * built only from events, and tests hammer `knows` against a brute-force reading of
 * the same events.
 */
import type { Event } from "./Event.ts";
import type { GameTime } from "./GameTime.ts";
import type { NpcId } from "./ids.ts";
import { type ItemKind, itemKey, type Via } from "./Visibility.ts";

/** The first time an NPC came to know an item, and how. */
export interface KnowledgeFact {
  readonly t: GameTime;
  readonly via: Via | "owner";
  readonly confidence: number;
}

interface MemoryLife {
  readonly owner: NpcId;
  readonly recordedAt: GameTime;
  readonly expiresAt: GameTime | null;
}

export class KnowledgeLedger {
  /** npc id → item key → earliest fact. */
  private readonly facts = new Map<string, Map<string, KnowledgeFact>>();
  private readonly memories = new Map<string, MemoryLife>();
  /** memory id → when a MemoryExpired first removed it, whether or not this log recorded it. */
  private readonly gone = new Map<string, GameTime>();

  /** Folds one event in. Events must come in log order. */
  apply(event: Event): void {
    switch (event.type) {
      case "KnowledgeGained": {
        const p = event.payload;
        this.learn(p.npcId, itemKey(p.itemKind, p.itemId), {
          t: event.t,
          via: p.via,
          confidence: p.confidence,
        });
        return;
      }
      case "MemoryRecorded": {
        const p = event.payload;
        if (this.memories.has(p.memoryId)) return;
        this.memories.set(p.memoryId, {
          owner: p.ownerNpcId,
          recordedAt: event.t,
          expiresAt: p.expiresAt,
        });
        this.learn(p.ownerNpcId, itemKey("memory", p.memoryId), {
          t: event.t,
          via: "owner",
          confidence: 1,
        });
        return;
      }
      case "MemoryExpired": {
        if (!this.gone.has(event.payload.memoryId)) this.gone.set(event.payload.memoryId, event.t);
        return;
      }
      default:
        return;
    }
  }

  private learn(npc: string, key: string, fact: KnowledgeFact): void {
    let known = this.facts.get(npc);
    if (!known) {
      known = new Map();
      this.facts.set(npc, known);
    }
    const prior = known.get(key);
    if (!prior || fact.t < prior.t) known.set(key, fact);
  }

  /** How `npc` first came to know the item, if it knows it at `t`. */
  factAt(npc: NpcId, kind: ItemKind, id: string, t: GameTime): KnowledgeFact | undefined {
    const fact = this.facts.get(npc)?.get(itemKey(kind, id));
    if (!fact || fact.t > t) return undefined;
    if (kind === "memory" && !this.memoryAlive(id, t)) return undefined;
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

  /** A memory is gone from its expiresAt, or from the first MemoryExpired for it, on. */
  private memoryAlive(id: string, t: GameTime): boolean {
    const expiresAt = this.memories.get(id)?.expiresAt ?? null;
    if (expiresAt !== null && expiresAt <= t) return false;
    const goneAt = this.gone.get(id);
    return goneAt === undefined || goneAt > t;
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
export const foldKnowledge = (events: Iterable<Event>): KnowledgeLedger => {
  const ledger = new KnowledgeLedger();
  for (const e of events) ledger.apply(e);
  return ledger;
};
