/**
 * One collection's rows of one save, held in memory for filtering and scoring: id,
 * rowid, time, lifetime, owner, location, faction, importance, participants, entities
 * and what it is about — plus posting lists (entity, location, faction, NPC, task →
 * items, oldest first) that the exact candidate filters walk from the newest end.
 * Items are numbered ("locals") in the order they arrive, which is log order.
 */

import { KeySlots } from "./KeySlots.ts";

/** One item's facts, as the view adds it. */
export interface ItemFacts {
  readonly id: string;
  readonly rowid: number;
  /** When it happened or was recorded (game minutes). */
  readonly t: number;
  readonly expiresAt: number | null;
  readonly goneAt: number | null;
  /** Owning NPC (memory owner, summary holder), interned; -1 for none. */
  readonly owner: number;
  readonly location: number;
  readonly faction: number;
  readonly importance: number;
  /** Interned NPCs involved (participants, summary partner). */
  readonly participants: ReadonlyArray<number>;
  /** Interned entity names (lower case). */
  readonly entities: ReadonlyArray<number>;
  /** Interned task id this is about, or -1. */
  readonly aboutTask: number;
  /** Interned lore source, or -1. */
  readonly source: number;
  /** The words a dossier quotes of it (see {@link Quote}); a string: its `text` alone. */
  readonly quote: Quote | string;
}

/**
 * The text fields a dossier quotes of an item, kept from the row the view reads anyway,
 * so that quoting a search hit reads no table: memories and world events `text`, lore
 * `heading_path` (JSON) and `text`, summaries `summary` and `partner_id`, debates
 * `topic`, `summary` and `outcome`. Its time is the item's `t`.
 */
export type Quote = Readonly<Record<string, string>>;

const push = (m: Map<number, Array<number>>, key: number, local: number): void => {
  if (key < 0) return;
  const list = m.get(key);
  if (list) {
    if (list[list.length - 1] !== local) list.push(local);
  } else m.set(key, [local]);
};

/**
 * Rowid → local, as dense arrays per key space (`KeySlots`): rowids are item keys, dense
 * from their save's base, and searches look thousands of them up.
 */
export class LocalOfRowid {
  private readonly slots = new KeySlots();

  get(rowid: number): number | undefined {
    const s = this.slots.get(rowid);
    return s > 0 ? s - 1 : undefined;
  }

  set(rowid: number, local: number): void {
    this.slots.set(rowid, local + 1);
  }

  delete(rowid: number): void {
    this.slots.set(rowid, 0);
  }
}

export class ItemTable {
  readonly ids: Array<string> = [];
  readonly rowids: Array<number> = [];
  readonly t: Array<number> = [];
  readonly expiresAt: Array<number> = [];
  readonly goneAt: Array<number> = [];
  readonly owner: Array<number> = [];
  readonly location: Array<number> = [];
  readonly faction: Array<number> = [];
  readonly importance: Array<number> = [];
  readonly participants: Array<ReadonlyArray<number>> = [];
  readonly entities: Array<ReadonlyArray<number>> = [];
  readonly aboutTask: Array<number> = [];
  readonly source: Array<number> = [];
  /**
   * What {@link quoteOf} answers, by local: the text itself for the usual quote of one
   * `text` column (a memory's, a world event's) — a year's million memories with an
   * object each are a million more objects for every full GC to mark — else the quote.
   */
  private readonly quotes: Array<Quote | string> = [];
  readonly dead: Array<boolean> = [];
  /**
   * The first time an item is not alive at: its expiry or its going, whichever is first
   * (Infinity: neither; -Infinity: removed). What {@link aliveAt} reads — one array, as
   * searches ask it for thousands of items.
   */
  private readonly until: Array<number> = [];
  /** Id → local, unless the ids' keys are given (`keyOf`). */
  private readonly localOfId = new Map<string, number>();
  readonly localOfRowid = new LocalOfRowid();
  readonly byEntity = new Map<number, Array<number>>();
  readonly byLocation = new Map<number, Array<number>>();
  readonly byFaction = new Map<number, Array<number>>();
  /** Owner and participants → items. */
  readonly byNpc = new Map<number, Array<number>>();
  readonly byTask = new Map<number, Array<number>>();
  readonly bySource = new Map<number, Array<number>>();
  private alive = 0;
  /**
   * The id {@link localOf} last answered for, and its answer: folding one event asks
   * for the same item several times (was it recorded, since when is it known, add it,
   * learn it), and a lookup in a map of a run's items misses the cache.
   */
  private lastId: string | null = null;
  private lastLocal: number | undefined = undefined;

  /**
   * `keyOf`, when given, is the key (rowid) every item is added with, by id — the store's
   * rule, which the view folds anyway (`ItemKeyFold`): an item is then found by its key,
   * and no map of the ids is kept (a year's memories are a million and more).
   */
  constructor(private readonly keyOf: ((id: string) => number | undefined) | null = null) {}

  /** Items ever added (dead ones included). */
  get length(): number {
    return this.ids.length;
  }

  /** Items not removed. */
  get liveCount(): number {
    return this.alive;
  }

  /** The local of the live item with this id, if there is one. */
  localOf(id: string): number | undefined {
    if (id === this.lastId) return this.lastLocal;
    const local = this.find(id);
    this.lastId = id;
    this.lastLocal = local;
    return local;
  }

  private find(id: string): number | undefined {
    if (this.keyOf === null) return this.localOfId.get(id);
    const key = this.keyOf(id);
    const local = key === undefined ? undefined : this.localOfRowid.get(key);
    return local !== undefined && this.ids[local] === id ? local : undefined;
  }

  /** Adds an item; an id already present is left as it is. Returns its local number. */
  add(f: ItemFacts): number {
    const existing = this.localOf(f.id);
    if (existing !== undefined && !this.dead[existing]) return existing;
    const local = this.ids.length;
    this.ids.push(f.id);
    this.rowids.push(f.rowid);
    this.t.push(f.t);
    this.expiresAt.push(f.expiresAt ?? -1);
    this.goneAt.push(f.goneAt ?? -1);
    this.owner.push(f.owner);
    this.location.push(f.location);
    this.faction.push(f.faction);
    this.importance.push(f.importance);
    this.participants.push(f.participants);
    this.entities.push(f.entities);
    this.aboutTask.push(f.aboutTask);
    this.source.push(f.source);
    this.quotes.push(packed(f.quote));
    this.dead.push(false);
    this.until.push(endOfLife(f.expiresAt ?? -1, f.goneAt ?? -1));
    this.alive++;
    if (this.keyOf === null) this.localOfId.set(f.id, local);
    this.lastId = f.id;
    this.lastLocal = local;
    this.localOfRowid.set(f.rowid, local);
    for (const e of f.entities) push(this.byEntity, e, local);
    push(this.byLocation, f.location, local);
    push(this.byFaction, f.faction, local);
    push(this.byNpc, f.owner, local);
    for (const p of f.participants) push(this.byNpc, p, local);
    push(this.byTask, f.aboutTask, local);
    push(this.bySource, f.source, local);
    return local;
  }

  /** The words a dossier quotes of an item (see {@link Quote}). */
  quoteOf(local: number): Quote {
    const q = this.quotes[local]!;
    return typeof q === "string" ? { text: q } : q;
  }

  /** Replaces an item's quote (a summary rewritten in place). */
  setQuote(local: number, quote: Quote | string): void {
    this.quotes[local] = packed(quote);
  }

  /** Marks an item removed (its row was deleted); returns its rowid, or -1. */
  kill(local: number): number {
    if (this.dead[local]) return -1;
    this.dead[local] = true;
    this.until[local] = Number.NEGATIVE_INFINITY;
    this.alive--;
    this.localOfRowid.delete(this.rowids[local]!);
    if (this.localOfId.get(this.ids[local]!) === local) this.localOfId.delete(this.ids[local]!);
    this.lastId = null;
    return this.rowids[local]!;
  }

  /** Sets when a memory went (the first time only). */
  setGone(local: number, t: number): void {
    if (this.goneAt[local]! >= 0) return;
    this.goneAt[local] = t;
    if (!this.dead[local]) this.until[local] = endOfLife(this.expiresAt[local]!, t);
  }

  /**
   * True when an item is alive at `t`: not removed, not past its end of life (a memory's
   * expiry, a world event's lapse), not gone (a memory's MemoryExpired). Items without
   * either are alive until removed.
   */
  aliveAt(local: number, t: number): boolean {
    // core's `memoryAliveAt`: alive while t is before both the expiry and the going.
    return t < this.until[local]!;
  }
}

/** A quote of only a `text` column as that text; any other as it is. */
const packed = (quote: Quote | string): Quote | string => {
  if (typeof quote === "string") return quote;
  let only: string | undefined;
  for (const k in quote) {
    if (k !== "text" || only !== undefined) return quote;
    only = quote[k];
  }
  return only ?? quote;
};

/** The first time an item with this expiry and going (-1: none) is not alive at. */
const endOfLife = (expiresAt: number, goneAt: number): number =>
  Math.min(
    expiresAt < 0 ? Number.POSITIVE_INFINITY : expiresAt,
    goneAt < 0 ? Number.POSITIVE_INFINITY : goneAt,
  );
