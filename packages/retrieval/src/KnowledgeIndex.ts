/**
 * Who knows which item since when, for one save: per NPC and fact kind a `KnownList`,
 * plus facts about items the view has not seen yet, parked until the item arrives (a
 * fact may name an item recorded later, or never). It stores what core's knowledge fold
 * reports (see SaveView.ts); it decides nothing about who knows what.
 */
import type { CollectionName } from "./collections.ts";
import { KnownList } from "./KnownList.ts";

/** Kinds an NPC needs a knowledge fact for. */
export type FactKind = "memory" | "world_event" | "debate";

export const factKinds: ReadonlyArray<FactKind> = ["memory", "world_event", "debate"];

/** The fact kind behind a collection (null: lore is public, summaries are their holder's). */
export const factKindOf = (c: CollectionName): FactKind | null =>
  c === "memories"
    ? "memory"
    : c === "world_events"
      ? "world_event"
      : c === "background_debates"
        ? "debate"
        : null;

/** The collection a fact kind's items live in. */
export const collectionOfKind: Readonly<Record<FactKind, CollectionName>> = {
  memory: "memories",
  world_event: "world_events",
  debate: "background_debates",
};

export class KnowledgeIndex {
  private readonly known = new Map<number, Record<FactKind, KnownList>>();
  private readonly pending = new Map<string, Array<{ npc: number; t: number }>>();

  /** The NPC's facts of one kind (undefined when it has none). */
  list(npc: number, kind: FactKind): KnownList | undefined {
    return this.known.get(npc)?.[kind];
  }

  private lists(npc: number): Record<FactKind, KnownList> {
    let rec = this.known.get(npc);
    if (!rec) {
      rec = { memory: new KnownList(), world_event: new KnownList(), debate: new KnownList() };
      this.known.set(npc, rec);
    }
    return rec;
  }

  /** Records a fact about item `local`, or parks it when the item is unknown (`undefined`). */
  learn(kind: FactKind, itemId: string, local: number | undefined, npc: number, t: number): void {
    if (local !== undefined) {
      this.lists(npc)[kind].add(local, t);
      return;
    }
    const key = `${kind}:${itemId}`;
    const list = this.pending.get(key);
    if (list) list.push({ npc, t });
    else this.pending.set(key, [{ npc, t }]);
  }

  /** The earliest parked fact's time for an item not seen yet, or -1 when there is none. */
  parkedTime(kind: FactKind, itemId: string, npc: number): number {
    let best = -1;
    for (const f of this.pending.get(`${kind}:${itemId}`) ?? []) {
      if (f.npc === npc && (best < 0 || f.t < best)) best = f.t;
    }
    return best;
  }

  /** Applies facts that were waiting for this item. */
  arrived(kind: FactKind, itemId: string, local: number): void {
    const key = `${kind}:${itemId}`;
    const waiting = this.pending.get(key);
    if (!waiting) return;
    this.pending.delete(key);
    for (const { npc, t } of waiting) this.lists(npc)[kind].add(local, t);
  }

  /** Bulk-loads many facts at once (sorted once per list rather than per fact). */
  load(facts: Iterable<{ npc: number; kind: FactKind; local: number; t: number }>): void {
    const bulk = new Map<number, Record<FactKind, { l: Array<number>; t: Array<number> }>>();
    for (const f of facts) {
      let rec = bulk.get(f.npc);
      if (!rec) {
        rec = { memory: { l: [], t: [] }, world_event: { l: [], t: [] }, debate: { l: [], t: [] } };
        bulk.set(f.npc, rec);
      }
      rec[f.kind].l.push(f.local);
      rec[f.kind].t.push(f.t);
    }
    for (const [npc, rec] of bulk) {
      const lists = this.lists(npc);
      for (const k of factKinds) if (rec[k].l.length > 0) lists[k].load(rec[k].l, rec[k].t);
    }
  }
}
