/**
 * Read-only questions a player conversation asks of the store's read models: the state
 * of a conversation (its turns, how far it has been digested), the NPC's running summary
 * of the player, its live memories, and the save's NPCs. Nothing here writes: every
 * change goes through the event log.
 */
import { type GameTime, PLAYER_ID } from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";

/** A stored turn of a conversation. */
export interface TurnRow {
  readonly turnIndex: number;
  readonly speakerId: string;
  readonly listenerIds: ReadonlyArray<string>;
  readonly text: string;
  readonly t: number;
}

/** A live memory, as the read endpoints show it. */
export interface MemoryRow {
  readonly memoryId: string;
  readonly text: string;
  readonly category: string;
  readonly importance: number;
  readonly recordedAt: number;
  readonly expiresAt: number | null;
  readonly aboutPlayer: boolean;
}

interface Statement {
  all(...params: ReadonlyArray<unknown>): Array<unknown>;
  get(...params: ReadonlyArray<unknown>): unknown;
}

export class TalkQueries {
  private readonly turnsAfter: Statement;
  private readonly lastTurns: Statement;
  private readonly digested: Statement;
  private readonly latestSummary: Statement;
  private readonly liveMemories: Statement;

  constructor(
    db: SqliteDatabase,
    private readonly saveId: string,
  ) {
    const turnCols =
      "turn_index AS turnIndex, speaker_id AS speakerId, listener_ids AS listenerIds, text, t";
    const prepare = (sql: string): Statement => db.prepare(sql) as unknown as Statement;
    this.turnsAfter = prepare(
      `SELECT ${turnCols} FROM conversation_turns WHERE save_id = ? AND conversation_id = ? AND turn_index > ? ORDER BY turn_index`,
    );
    this.lastTurns = prepare(
      `SELECT ${turnCols} FROM conversation_turns WHERE save_id = ? AND conversation_id = ? ORDER BY turn_index DESC LIMIT ?`,
    );
    this.digested = prepare(
      "SELECT through_turn AS throughTurn FROM conversation_summaries WHERE save_id = ? AND conversation_id = ? AND npc_id = ?",
    );
    this.latestSummary = prepare(
      "SELECT summary FROM conversation_summaries WHERE save_id = ? AND npc_id = ? AND partner_id = ? ORDER BY t DESC, rowid DESC LIMIT 1",
    );
    this.liveMemories = prepare(
      `SELECT memory_id AS memoryId, text, category, importance, recorded_at AS recordedAt,
              expires_at AS expiresAt, about_kind AS aboutKind
         FROM memories
        WHERE save_id = ? AND owner_npc_id = ? AND gone_at IS NULL
          AND (expires_at IS NULL OR expires_at > ?)
        ORDER BY recorded_at, rowid`,
    );
  }

  private row = (r: Record<string, unknown>): TurnRow => ({
    turnIndex: Number(r.turnIndex),
    speakerId: String(r.speakerId),
    listenerIds: JSON.parse(String(r.listenerIds)) as Array<string>,
    text: String(r.text),
    t: Number(r.t),
  });

  /** Turns after `turnIndex`, oldest first. */
  turnsSince(conversationId: string, turnIndex: number): ReadonlyArray<TurnRow> {
    return (
      this.turnsAfter.all(this.saveId, conversationId, turnIndex) as Array<Record<string, unknown>>
    ).map(this.row);
  }

  /** The last `n` turns, oldest first. */
  lastTurnsOf(conversationId: string, n: number): ReadonlyArray<TurnRow> {
    return (this.lastTurns.all(this.saveId, conversationId, n) as Array<Record<string, unknown>>)
      .map(this.row)
      .reverse();
  }

  /** The last turn index the NPC's summary covers, or -1 when nothing is digested yet. */
  digestedThrough(conversationId: string, npcId: string): number {
    const r = this.digested.get(this.saveId, conversationId, npcId) as
      | { throughTurn: number }
      | undefined;
    return r === undefined ? -1 : Number(r.throughTurn);
  }

  /** The NPC's most recent summary of its talks with the player, or null. */
  playerSummary(npcId: string): string | null {
    const r = this.latestSummary.get(this.saveId, npcId, PLAYER_ID) as
      | { summary: string }
      | undefined;
    return r === undefined ? null : String(r.summary);
  }

  /** The NPC's live memories at `t`, oldest first; `aboutPlayer` keeps those about the player. */
  memories(npcId: string, t: GameTime, aboutPlayer = false): ReadonlyArray<MemoryRow> {
    return (this.liveMemories.all(this.saveId, npcId, t) as Array<Record<string, unknown>>)
      .map((r) => ({
        memoryId: String(r.memoryId),
        text: String(r.text),
        category: String(r.category),
        importance: Number(r.importance),
        recordedAt: Number(r.recordedAt),
        expiresAt: r.expiresAt === null ? null : Number(r.expiresAt),
        aboutPlayer: r.aboutKind === "player",
      }))
      .filter((m) => !aboutPlayer || m.aboutPlayer);
  }
}
