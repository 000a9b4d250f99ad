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

/** An item is known by many once this many NPCs have a fact for it… */
const COMMON_MIN_KNOWERS = 16;
/** …and at least this share of the NPCs that have facts at all. */
const COMMON_SHARE = 1 / 8;

export class KnowledgeIndex {
  private readonly known = new Map<number, Record<FactKind, KnownList>>();
  private readonly pending = new Map<string, Array<{ npc: number; t: number }>>();
  /**
   * Per kind and item: how many NPCs have a fact for it — negated (−count − 1) once the
   * item is listed in `commonItems`, so it is listed once.
   */
  private readonly knowers: Record<FactKind, Int32Array> = {
    memory: new Int32Array(0),
    world_event: new Int32Array(0),
    debate: new Int32Array(0),
  };
  private readonly commonItems: Record<FactKind, Array<number>> = {
    memory: [],
    world_event: [],
    debate: [],
  };

  /**
   * Items known by many NPCs (at least 16, and an eighth of those with facts, when the
   * item got there), in the order they became so; only ever appended to. Every NPC's
   * known set holds most of them, so the vector store keeps their rows together
   * (`VectorStore.shareItems`). Whether an item is listed changes no search's result.
   */
  common(kind: FactKind): ReadonlyArray<number> {
    return this.commonItems[kind];
  }

  /** Counts one more NPC knowing the item; lists it when it becomes known by many. */
  private counted(kind: FactKind, local: number): void {
    let counts = this.knowers[kind];
    if (local >= counts.length) {
      const grown = new Int32Array(Math.max(local + 1, counts.length * 2, 1024));
      grown.set(counts);
      counts = grown;
      this.knowers[kind] = grown;
    }
    const was = counts[local]!;
    if (was < 0) {
      counts[local] = was - 1; // listed already
      return;
    }
    const need = Math.max(COMMON_MIN_KNOWERS, Math.ceil(this.known.size * COMMON_SHARE));
    if (was + 1 < need) {
      counts[local] = was + 1;
      return;
    }
    this.commonItems[kind].push(local);
    counts[local] = -(was + 1) - 1;
  }

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
      if (this.lists(npc)[kind].add(local, t)) this.counted(kind, local);
      return;
    }
    const key = `${kind}:${itemId}`;
    const list = this.pending.get(key);
    if (list) list.push({ npc, t });
    else this.pending.set(key, [{ npc, t }]);
  }

  /** The earliest parked fact's time for an item not seen yet, or -1 when there is none. */
  parkedTime(kind: FactKind, itemId: string, npc: number): number {
    // A run's facts name items it has seen: nothing is parked, and no key is made to look.
    if (this.pending.size === 0) return -1;
    let best = -1;
    for (const f of this.pending.get(`${kind}:${itemId}`) ?? []) {
      if (f.npc === npc && (best < 0 || f.t < best)) best = f.t;
    }
    return best;
  }

  /** Applies facts that were waiting for this item. */
  arrived(kind: FactKind, itemId: string, local: number): void {
    if (this.pending.size === 0) return;
    const key = `${kind}:${itemId}`;
    const waiting = this.pending.get(key);
    if (!waiting) return;
    this.pending.delete(key);
    for (const { npc, t } of waiting) {
      if (this.lists(npc)[kind].add(local, t)) this.counted(kind, local);
    }
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
    const loaded: Array<KnownList> = [];
    const kinds: Array<FactKind> = [];
    for (const [npc, rec] of bulk) {
      const lists = this.lists(npc);
      for (const k of factKinds) {
        if (rec[k].l.length === 0) continue;
        // A list replaced wholesale: its items are counted again below.
        lists[k].forEach((local) => {
          this.uncount(k, local);
        });
        lists[k].load(rec[k].l, rec[k].t);
        loaded.push(lists[k]);
        kinds.push(k);
      }
    }
    // Counted once every list is in, so the share is of all the NPCs loaded.
    for (let i = 0; i < loaded.length; i++) {
      const k = kinds[i]!;
      loaded[i]!.forEach((local) => {
        this.counted(k, local);
      });
    }
  }

  /** Takes back one knower of an item (its list is being replaced). */
  private uncount(kind: FactKind, local: number): void {
    const counts = this.knowers[kind];
    if (local >= counts.length) return;
    const c = counts[local]!;
    counts[local] = c >= 0 ? c - 1 : c + 1;
  }
}
