/**
 * Who knew what after any seq, from `KnowledgeGained`: per item, each NPC's first fact
 * (how, when, from whom, how sure) in seq order — the same "earliest fact" the store's
 * `knowledge` read model keeps, but with the seq, so stepping event by event is exact.
 */
import type { SqliteDatabase } from "@hearsay/store";
import { eventRows } from "./EventRows.ts";
import { SeqSeries } from "./SeqSeries.ts";

/** One NPC's first knowledge of an item. */
export interface Fact {
  readonly seq: number;
  readonly t: number;
  readonly npcId: string;
  readonly via: string;
  readonly fromNpcId: string | null;
  readonly confidence: number;
}

const lastAtOrBefore = (facts: ReadonlyArray<Fact>, seq: number): number => {
  let lo = 0;
  let hi = facts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (facts[mid]!.seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
};

export class KnowledgeIndex {
  private readonly byItem = new Map<string, Array<Fact>>();
  private readonly seen = new Set<string>();
  /** Running count of first facts. */
  readonly total = new SeqSeries(1, 1024);

  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    const fields = ["npcId", "itemKind", "itemId", "via", "fromNpcId", "confidence"];
    for (const r of eventRows(db, saveId, "KnowledgeGained", fromSeq, toSeq, fields)) {
      const [seq, t, npcId, kind, id, via, fromNpcId, confidence] = r as [
        number,
        number,
        string,
        string,
        string,
        string,
        string | null,
        number,
      ];
      const item = `${kind}:${id}`;
      const once = `${item}\u0000${npcId}`;
      if (this.seen.has(once)) continue;
      this.seen.add(once);
      let facts = this.byItem.get(item);
      if (!facts) {
        facts = [];
        this.byItem.set(item, facts);
      }
      facts.push({ seq, t, npcId, via, fromNpcId, confidence });
      this.total.pushDelta(seq, 1);
    }
  }

  /** The first facts about `kind:id` at or before `seq`, in the order they happened. */
  knowers(kind: string, id: string, seq: number): ReadonlyArray<Fact> {
    const facts = this.byItem.get(`${kind}:${id}`) ?? [];
    return facts.slice(0, lastAtOrBefore(facts, seq) + 1);
  }

  /** How many NPCs knew `kind:id` at `seq`. */
  count(kind: string, id: string, seq: number): number {
    return lastAtOrBefore(this.byItem.get(`${kind}:${id}`) ?? [], seq) + 1;
  }

  /** The NPC's first fact about `kind:id` at or before `seq`, if any. */
  factOf(kind: string, id: string, npcId: string, seq: number): Fact | undefined {
    const facts = this.byItem.get(`${kind}:${id}`) ?? [];
    const last = lastAtOrBefore(facts, seq);
    for (let i = 0; i <= last; i++) if (facts[i]!.npcId === npcId) return facts[i];
    return undefined;
  }

  /** Every item known by anyone, as `kind:id` keys. */
  items(): IterableIterator<string> {
    return this.byItem.keys();
  }
}
