/**
 * The projection rows a batch of new events names, read for `SaveView.catchUp` with one
 * statement per table instead of one lookup per event: the memories a batch records, the
 * dialogue turns it speaks and the summaries it writes (every tick has hundreds of the
 * first two). Each statement looks its keys up through the table's unique index, as the
 * single-row lookups did, so a row read here is the row a lookup would have read in the
 * same read transaction: the view folds the same rows, in the same (log) order.
 */
import type { StoredEvent } from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";
import type { Row } from "./itemFacts.ts";
import { prepare, type Statement } from "./prepare.ts";

/** A `conversation_turns` row as the view folds it: rowid, t, speaker, listeners (JSON). */
export type TurnRow = readonly [number, number, string, string];

const pairKey = (a: string, b: string | number): string => `${a}\u0000${b}`;

/** One batch's rows, by key; a key missing from its map has no row. */
export interface BatchRows {
  readonly memory: (memoryId: string) => Row | undefined;
  readonly turn: (conversationId: string, turnIndex: number) => TurnRow | undefined;
  readonly summary: (conversationId: string, npcId: string) => Row | undefined;
}

export class CatchUpRows {
  private readonly memories: Statement;
  private readonly turns: Statement;
  private readonly summaries: Statement;

  constructor(db: SqliteDatabase, memoryCols: string, summaryCols: string) {
    this.memories = prepare(
      db,
      `SELECT ${memoryCols} FROM memories WHERE save_id = ? AND memory_id IN (SELECT value FROM json_each(?))`,
    );
    this.turns = prepare(
      db,
      "SELECT rowid, t, speaker_id, listener_ids, conversation_id, turn_index FROM conversation_turns WHERE save_id = ? AND (conversation_id, turn_index) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))",
    ).raw();
    this.summaries = prepare(
      db,
      `SELECT ${summaryCols} FROM conversation_summaries WHERE save_id = ? AND (conversation_id, npc_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
    );
  }

  /** Reads every row `events` name (of save `save`), one statement per table that has any. */
  read(save: string, events: ReadonlyArray<StoredEvent>): BatchRows {
    const memoryIds: Array<string> = [];
    const turnKeys: Array<[string, number]> = [];
    const summaryKeys: Array<[string, string]> = [];
    for (const e of events) {
      switch (e.type) {
        case "MemoryRecorded":
          memoryIds.push(e.payload.memoryId);
          break;
        case "ConversationTurn":
          turnKeys.push([e.payload.conversationId, e.payload.turnIndex]);
          break;
        case "ConversationSummarized":
          summaryKeys.push([e.payload.conversationId, e.payload.npcId]);
          break;
        default:
          break;
      }
    }
    const memories = new Map<string, Row>();
    if (memoryIds.length > 0) {
      for (const r of this.memories.all(save, JSON.stringify(memoryIds)) as Array<Row>)
        memories.set(String(r.id), r);
    }
    const turns = new Map<string, TurnRow>();
    if (turnKeys.length > 0) {
      for (const r of this.turns.all(save, JSON.stringify(turnKeys)) as Array<
        [number, number, string, string, string, number]
      >)
        turns.set(pairKey(r[4], r[5]), [r[0], r[1], r[2], r[3]]);
    }
    const summaries = new Map<string, Row>();
    if (summaryKeys.length > 0) {
      for (const r of this.summaries.all(save, JSON.stringify(summaryKeys)) as Array<Row>)
        summaries.set(pairKey(String(r.conversation_id), String(r.npc_id)), r);
    }
    return {
      memory: (id) => memories.get(id),
      turn: (conversationId, turnIndex) => turns.get(pairKey(conversationId, turnIndex)),
      summary: (conversationId, npcId) => summaries.get(pairKey(conversationId, npcId)),
    };
  }
}
