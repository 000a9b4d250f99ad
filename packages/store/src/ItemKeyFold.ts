/**
 * The item key rule (ItemKeys.ts) as a pure fold over one save's log: which event makes
 * which keyed row, and the key it gets — what the store's SQL gives the row it writes,
 * written once in JS for whatever must know a key without reading it back (the
 * retrieval view). test/ItemKeys.test.ts holds the store's rows to it on arbitrary logs.
 *
 * The rows each table gains follow the projector's rules: the first event per item id
 * writes it (memories, world events, debates, turns); a summary is one row per
 * (conversation, NPC), rewritten in place; a lore import first deletes its source's
 * chunks, then adds each chunk whose id no live chunk has.
 */
import type { StoredEvent } from "@hearsay/core";
import type { KeyedTable } from "./ItemKeys.ts";

/** A row the fold made (`key` new) or deleted. */
export type KeyChange =
  | {
      readonly type: "added";
      readonly table: KeyedTable;
      readonly id: string;
      readonly key: number;
    }
  | {
      readonly type: "removed";
      readonly table: KeyedTable;
      readonly id: string;
      readonly key: number;
    };

/** The id a turn or a summary row is known by: its two key columns. */
export const pairId = (a: string, b: string | number): string => `${a}\u0000${b}`;

class Keyed {
  readonly keyOf = new Map<string, number>();
  last: number;
  constructor(base: number) {
    this.last = base;
  }
  get(id: string): number | undefined {
    return this.keyOf.get(id);
  }
  add(id: string, key: number): void {
    this.keyOf.set(id, key);
    if (key > this.last) this.last = key;
  }
}

/**
 * The turn keys of one conversation: its turn 0's key alone while that is its only turn
 * (most are: no object at all), then a list (turn i's key at i) while its turns come 0,
 * 1, 2…, as they do in a run; a map once one comes out of that order (a turn index is
 * any non-negative integer).
 */
type TurnKeys = number | Array<number> | Map<number, number>;

/**
 * The conversation_turns keys, by conversation then turn index: every turn of the save
 * is held, but not as a pair id string per turn.
 */
class Turns {
  private readonly of = new Map<string, TurnKeys>();
  last: number;
  constructor(base: number) {
    this.last = base;
  }
  get(conversation: string, index: number): number | undefined {
    const keys = this.of.get(conversation);
    if (keys === undefined) return undefined;
    if (typeof keys === "number") return index === 0 ? keys : undefined;
    return Array.isArray(keys) ? keys[index] : keys.get(index);
  }
  add(conversation: string, index: number, key: number): void {
    const keys = this.of.get(conversation);
    if (keys instanceof Map) {
      keys.set(index, key);
    } else if (keys === undefined || typeof keys === "number") {
      if (index === 0) this.of.set(conversation, key);
      else if (keys !== undefined && index === 1) this.of.set(conversation, [keys, key]);
      else {
        const map = new Map<number, number>(keys === undefined ? [] : [[0, keys]]);
        this.of.set(conversation, map.set(index, key));
      }
    } else if (Number.isInteger(index) && index >= 0 && index <= keys.length) {
      keys[index] = key;
    } else {
      this.of.set(conversation, new Map([...keys.entries(), [index, key]]));
    }
    if (key > this.last) this.last = key;
  }
}

/** The tables keyed by item id (turns are keyed by conversation and turn index). */
type ByIdTable = Exclude<KeyedTable, "conversation_turns">;

export class ItemKeyFold {
  private readonly tables: Record<ByIdTable, Keyed>;
  private readonly turns: Turns;
  /** Live lore chunk ids per source. */
  private readonly chunksOf = new Map<string, Array<string>>();

  /** A fold of a save whose key space starts after `base` (ItemKeys.ts `keySpaceBase`). */
  constructor(private readonly base: number) {
    this.tables = {
      memories: new Keyed(base),
      world_events: new Keyed(base),
      lore_chunks: new Keyed(base),
      background_debates: new Keyed(base),
      conversation_summaries: new Keyed(base),
    };
    this.turns = new Turns(base);
  }

  /** Takes in a row already there (a view loaded from the read models). */
  load(table: ByIdTable, id: string, key: number, loreSource?: string): void {
    this.tables[table].add(id, key);
    if (table === "lore_chunks" && loreSource !== undefined) this.chunkOf(loreSource).push(id);
  }

  /** Takes in a conversation_turns row already there. */
  loadTurn(conversation: string, turnIndex: number, key: number): void {
    this.turns.add(conversation, turnIndex, key);
  }

  /** The key of a live row, if any. */
  keyOf(table: ByIdTable, id: string): number | undefined {
    return this.tables[table].get(id);
  }

  /** The key of a conversation's turn, if any. */
  turnKey(conversation: string, turnIndex: number): number | undefined {
    return this.turns.get(conversation, turnIndex);
  }

  /** Folds one event; returns the rows it added or deleted, in the order the store writes them. */
  step(e: StoredEvent): ReadonlyArray<KeyChange> {
    switch (e.type) {
      case "MemoryRecorded":
        return this.first("memories", e.payload.memoryId);
      case "WorldEventOccurred":
        return this.first("world_events", e.payload.worldEventId);
      case "DebateHeld":
        return this.first("background_debates", e.payload.debateId);
      case "ConversationTurn": {
        const { conversationId, turnIndex } = e.payload;
        if (this.turns.get(conversationId, turnIndex) !== undefined) return [];
        const key = this.turns.last + 1;
        this.turns.add(conversationId, turnIndex, key);
        const id = pairId(conversationId, turnIndex);
        return [{ type: "added", table: "conversation_turns", id, key }];
      }
      case "ConversationSummarized":
        return this.first(
          "conversation_summaries",
          pairId(e.payload.conversationId, e.payload.npcId),
        );
      case "LoreImported": {
        const lore = this.tables.lore_chunks;
        const changes: Array<KeyChange> = [];
        for (const id of this.chunksOf.get(e.payload.sourceId) ?? []) {
          const key = lore.keyOf.get(id);
          if (key === undefined) continue;
          lore.keyOf.delete(id);
          changes.push({ type: "removed", table: "lore_chunks", id, key });
        }
        this.chunksOf.delete(e.payload.sourceId);
        if (changes.length > 0) {
          lore.last = this.base;
          for (const key of lore.keyOf.values()) if (key > lore.last) lore.last = key;
        }
        const mine = this.chunkOf(e.payload.sourceId);
        for (const chunk of e.payload.chunks) {
          const added = this.first("lore_chunks", chunk.chunkId);
          if (added.length > 0) mine.push(chunk.chunkId);
          changes.push(...added);
        }
        return changes;
      }
      default:
        return [];
    }
  }

  private chunkOf(source: string): Array<string> {
    let list = this.chunksOf.get(source);
    if (list === undefined) {
      list = [];
      this.chunksOf.set(source, list);
    }
    return list;
  }

  /** A row for `id` unless the table has one: the next key. */
  private first(table: ByIdTable, id: string): ReadonlyArray<KeyChange> {
    const t = this.tables[table];
    if (t.get(id) !== undefined) return [];
    const key = t.last + 1;
    t.add(id, key);
    return [{ type: "added", table, id, key }];
  }
}
