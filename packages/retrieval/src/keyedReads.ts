/**
 * How a save's view reads the rows of its keyed items (memories, world events, lore
 * chunks, debates, conversation summaries) when it loads: along the rowids of the save's
 * key space, in key order (every row of a save is keyed in its own: store/src/ItemKeys.ts),
 * not through an index on the save and then sorted; the save is still checked, since a
 * file of an older schema keeps every save in space 0. Each row is read as values and
 * made here into the object the view's row folds take (`itemFacts.ts`), every one of a
 * table with the same keys in the same order, rather than by the driver key by key: a
 * 1,000-NPC year's 1.3 million memories read in 7 s this way, 14 through the index.
 */
import { ITEM_KEY_SPACE, type KeyedTable } from "@hearsay/store";
import type { Row } from "./itemFacts.ts";

/** One keyed table's read: its SQL (parameters `@base`, `@save`) and its rows' maker. */
export interface KeyedRead {
  readonly sql: string;
  /** The row of the values the SQL gave (a raw statement's), keyed as the folds read it. */
  readonly row: (values: ReadonlyArray<unknown>) => Row;
}

/** Columns, each with the key the folds read it by when that is not its own name. */
const keyedRead = (
  table: KeyedTable,
  columns: ReadonlyArray<string | readonly [column: string, key: string]>,
): KeyedRead => {
  const pairs = columns.map((c) => (typeof c === "string" ? ([c, c] as const) : c));
  const keys = pairs.map(([, key]) => key);
  return {
    sql: `SELECT ${pairs.map(([column, key]) => `${column} AS ${key}`).join(", ")} FROM ${table}
      WHERE rowid > @base AND rowid < @base + ${ITEM_KEY_SPACE} AND +save_id = @save ORDER BY rowid`,
    row: (values) => {
      const r: Row = {};
      for (let i = 0; i < keys.length; i++) r[keys[i]!] = values[i];
      return r;
    },
  };
};

export const keyedReads = {
  memories: keyedRead("memories", [
    "rowid",
    ["memory_id", "id"],
    "owner_npc_id",
    "recorded_at",
    "expires_at",
    "gone_at",
    "location_id",
    "importance",
    "entities",
    "about_kind",
    "about_id",
    "text",
  ]),
  events: keyedRead("world_events", [
    "rowid",
    ["world_event_id", "id"],
    "t",
    "location_id",
    "faction_id",
    "importance",
    "participants",
    "entities",
    "lapses_at",
    "text",
  ]),
  lore: keyedRead("lore_chunks", [
    "rowid",
    ["chunk_id", "id"],
    "source_id",
    "entities",
    "heading_path",
    "text",
  ]),
  debates: keyedRead("background_debates", [
    "rowid",
    ["debate_id", "id"],
    "t",
    "location_id",
    "faction_id",
    "participants",
    "topic",
    "summary",
    "outcome",
  ]),
  summaries: keyedRead("conversation_summaries", [
    "rowid",
    "conversation_id",
    "npc_id",
    "partner_id",
    "t",
    "summary",
  ]),
} as const;
