/**
 * Knowledge facts of a bulk fold, held in memory until a flush. Knowledge is most of a
 * log (every witness of every world event gets a KnowledgeGained), and only the earliest
 * fact per (npc, item) survives the fold, so a bulk fold keeps the winner of each key in
 * a map and writes each surviving fact once, in key order, instead of one upsert per
 * event. Which fact wins is core's `knowledgeStep`: the buffer is the state the step reads
 * (`factTime`) and the place its fact changes are written (`write`).
 */
import type { GameTime, ItemKind, KnowledgeChange, KnowledgeState, NpcId } from "@hearsay/core";

/** One knowledge fact as the `knowledge` table holds it (without save and campaign). */
export interface KnowledgeFact {
  readonly npcId: string;
  readonly itemKind: string;
  readonly itemId: string;
  t: number;
  via: string;
  fromNpcId: string | null;
  confidence: number;
}

interface Entry extends KnowledgeFact {
  readonly key: string;
  dirty: boolean;
  /** Handed to a drain before (so it may already be a row). */
  drained: boolean;
}

export class KnowledgeBuffer implements KnowledgeState {
  private readonly best = new Map<string, Entry>();
  private dirty: Array<Entry> = [];

  factTime(npc: NpcId, kind: ItemKind, id: string): GameTime | undefined {
    return this.best.get(`${npc}\u0000${kind}\u0000${id}`)?.t as GameTime | undefined;
  }

  /**
   * False: the projector asks the step about a MemoryRecorded only when the memories
   * table took it as new (its key is what says a memory was recorded before).
   */
  memoryRecorded(): boolean {
    return false;
  }

  /** False: a memory's death is its row's (`gone_at`, set once by the projector). */
  memoryGone(): boolean {
    return false;
  }

  /** False: a world event's lapse is its row's (`lapses_at`, from its first record). */
  worldEventRecorded(): boolean {
    return false;
  }

  /** Writes a fact change the step reported (other changes are the memories table's). */
  write(c: KnowledgeChange): void {
    if (c.type !== "fact") return;
    const key = `${c.npcId}\u0000${c.itemKind}\u0000${c.itemId}`;
    const f = c.fact;
    const held = this.best.get(key);
    if (held === undefined) {
      const entry: Entry = {
        key,
        npcId: c.npcId,
        itemKind: c.itemKind,
        itemId: c.itemId,
        t: f.t,
        via: f.via,
        fromNpcId: f.fromNpcId,
        confidence: f.confidence,
        dirty: true,
        drained: false,
      };
      this.best.set(key, entry);
      this.dirty.push(entry);
      return;
    }
    held.t = f.t;
    held.via = f.via;
    held.fromNpcId = f.fromNpcId;
    held.confidence = f.confidence;
    if (!held.dirty) {
      held.dirty = true;
      this.dirty.push(held);
    }
  }

  /**
   * Hands every fact added or improved since the last drain to `write`, in key order
   * (the table's primary-key order, so the B-tree is filled front to back), saying
   * whether an earlier drain already handed over its key.
   */
  drain(write: (fact: KnowledgeFact, again: boolean) => void): void {
    if (this.dirty.length === 0) return;
    const out = this.dirty.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    this.dirty = [];
    for (const entry of out) {
      entry.dirty = false;
      write(entry, entry.drained);
      entry.drained = true;
    }
  }

  /** Every fact held (the winners so far), in no particular order. */
  facts(): Iterable<KnowledgeFact> {
    return this.best.values();
  }

  /** Forgets everything (a new fold). */
  clear(): void {
    this.best.clear();
    this.dirty = [];
  }
}
