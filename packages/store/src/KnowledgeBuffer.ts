/**
 * Knowledge facts of a bulk fold, held in memory until a flush. Knowledge is most of a
 * log (every witness of every world event gets a KnowledgeGained), and only the earliest
 * fact per (npc, item) survives the fold, so a bulk fold keeps the winner of each key in
 * a map and writes each surviving fact once, in key order, instead of one upsert per
 * event. The rule is the projector's: the earliest `t` wins; on a tie, the fact seen
 * first (the lower seq) stays.
 */

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

export class KnowledgeBuffer {
  private readonly best = new Map<string, Entry>();
  private dirty: Array<Entry> = [];

  /** Offers a fact; it replaces the one held for its key only when strictly earlier. */
  add(
    npcId: string,
    itemKind: string,
    itemId: string,
    t: number,
    via: string,
    fromNpcId: string | null,
    confidence: number,
  ): void {
    const key = `${npcId}\u0000${itemKind}\u0000${itemId}`;
    const held = this.best.get(key);
    if (held === undefined) {
      const entry: Entry = {
        key,
        npcId,
        itemKind,
        itemId,
        t,
        via,
        fromNpcId,
        confidence,
        dirty: true,
        drained: false,
      };
      this.best.set(key, entry);
      this.dirty.push(entry);
      return;
    }
    if (t >= held.t) return;
    held.t = t;
    held.via = via;
    held.fromNpcId = fromNpcId;
    held.confidence = confidence;
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
