/**
 * The part of a bulk fold that SQLite does by itself: the read models written only by
 * append-only events are filled with one `INSERT … SELECT` (or `UPDATE … FROM`) per
 * table and range of the log, reading payload fields with `->>`, so those events never
 * reach JS — on a log that is most of its events (knowledge, memories, talk, model
 * calls). Events whose fold depends on rows other events wrote stay with the projector.
 *
 * Each statement keeps the projector's rule for its table (see Projector.ts), so the
 * rows are the same as an event-by-event fold's, whatever was there before the range.
 * The knowledge and memory statements mirror core's knowledge rule (`knowledgeStep`) in
 * SQL; test/KnowledgeAgreement.test.ts feeds them and core the same arbitrary logs:
 * - world_events, conversation_turns, llm_calls, background_debates, warnings: the first
 *   event per key wins (`ORDER BY seq … ON CONFLICT DO NOTHING`);
 * - memories: the first MemoryRecorded per id wins; its owner's knowledge is recorded
 *   only when the id is new; a MemoryExpired marks a memory gone once, and only when the
 *   memory exists at its seq (recorded before the range, or earlier in it);
 * - knowledge: the earliest `t` wins, on a tie the lower seq, and on a tie with a row
 *   already there, that row (rows go in in key, t, seq order; an update needs a
 *   strictly earlier t);
 * - npc_activity, relationships: the last event per key in the range replaces the row.
 * No other event writes these tables, so folding them apart from the rest, range by
 * range, gives the same state at the end of every range. The values SQLite reads from
 * the JSON text are the ones JS would bind: strings and numbers round-trip exactly, and
 * an array or object comes back as the JSON text `JSON.stringify` wrote.
 *
 * Only events at their type's current version are folded here; a range holding an older
 * one (it needs its upcaster) is left to the projector whole: a rebuild asks
 * `sqlFoldable` first, and an import takes the share back from the first older event's
 * unfolded range on (`BulkFold.takeBackSql`, importHistory.ts).
 */
import { currentVersions, type EventType } from "@hearsay/core";
import type { Segment } from "./EventHistory.ts";
import { ItemKeys, type KeyedTable, lastKeySql } from "./ItemKeys.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** The event types folded by SQL. */
export const sqlFoldedTypes: ReadonlyArray<EventType> = [
  "KnowledgeGained",
  "MemoryRecorded",
  "MemoryExpired",
  "WorldEventOccurred",
  "ConversationTurn",
  "LlmCallRecorded",
  "DebateHeld",
  "SimulationWarning",
  "NpcActivityChanged",
  "RelationshipChanged",
];

/** Event types the projector folds into nothing (markers and inputs). */
export const inertTypes: ReadonlyArray<EventType> = [
  "SceneOpened",
  "SceneClosed",
  "SummaryCursorAdvanced",
  "PlayerInput",
  "MaintenanceRan",
  "MemoriesConsolidated",
  "NpcAgendaChanged",
];

/** An SQL condition true for the events of `types`. */
export const typeIn = (types: ReadonlyArray<EventType>): string =>
  `type IN (${types.map((t) => `'${t}'`).join(", ")})`;

/** An SQL condition true for the events of `types` at their current version. */
export const atCurrentVersion = (types: ReadonlyArray<EventType>): string =>
  `(${types.map((t) => `(type = '${t}' AND version = ${currentVersions.get(t) ?? -1})`).join(" OR ")})`;

/** The log's index by (save, type, seq), which every statement here reads through. */
export const SQL_FOLD_INDEX = "events_type";

const range = "save_id = @src AND seq >= @lo AND seq <= @hi";
const j = (field: string) => `(payload ->> '$.${field}')`;
/** A JSON-valued field as its JSON text. */
const jt = (field: string) => `(payload -> '$.${field}')`;

/**
 * Scratch tables of one range's memory events, each read from the log once: `records`
 * and `expiries`, and `gone`, the first expiry of each memory that was there before the
 * range. Named by a prefix, so a bulk fold and the appends of the same connection each
 * have their own.
 */
const scratchOf = (prefix: string) => ({
  RECORDS: `temp.${prefix}_records`,
  EXPIRIES: `temp.${prefix}_expiries`,
  GONE: `temp.${prefix}_gone`,
  ddl: [
    `CREATE TEMP TABLE IF NOT EXISTS ${prefix}_records
       (mid TEXT PRIMARY KEY, owner TEXT, t INTEGER, seq INTEGER, fresh INTEGER) WITHOUT ROWID`,
    `CREATE TEMP TABLE IF NOT EXISTS ${prefix}_expiries
       (seq INTEGER PRIMARY KEY, mid TEXT, t INTEGER, reason TEXT)`,
    `CREATE TEMP TABLE IF NOT EXISTS ${prefix}_gone
       (mid TEXT PRIMARY KEY, t INTEGER, reason TEXT) WITHOUT ROWID`,
  ],
});

/**
 * The fold's statements, reading the log of the database attached as `log` (`main`: the
 * fold's own; an import that copies no event rows reads its source's).
 */
const statements = (db: SqliteDatabase, log: string, prefix: string) => {
  const { RECORDS, EXPIRIES, GONE } = scratchOf(prefix);
  const p = (sql: string): SqliteStatement => db.prepare(sql);
  // Without statistics SQLite would rather scan the whole range by primary key.
  const events = `${log}.events AS events INDEXED BY ${SQL_FOLD_INDEX}`;
  const of = (type: EventType) => `FROM ${events} WHERE ${range} AND type = '${type}'`;
  /**
   * The range's events of `type` that write a new row of `table`: the first per key
   * (`keyExprs` of the payload, as `id`, `id2`), and only when the save has no row with
   * that key yet — the rows `ORDER BY seq … ON CONFLICT DO NOTHING` would write, known
   * before they are numbered.
   */
  const firstNew = (
    table: KeyedTable,
    type: EventType,
    keyCols: ReadonlyArray<string>,
    keyExprs: ReadonlyArray<string>,
  ) => {
    const names = keyExprs.map((_, i) => (i === 0 ? "id" : `id${i + 1}`));
    return `(SELECT ${keyExprs.map((e, i) => `${e} AS ${names[i]}`).join(", ")}, seq, t, payload,
        row_number() OVER (PARTITION BY ${keyExprs.join(", ")} ORDER BY seq) AS nth
        ${of(type)}) AS firsts
      WHERE nth = 1 AND NOT EXISTS (SELECT 1 FROM ${table} AS had WHERE had.save_id = @save AND
        ${keyCols.map((c, i) => `had.${c} = firsts.${names[i]}`).join(" AND ")})`;
  };
  return {
    clearRecords: p(`DELETE FROM ${RECORDS}`),
    clearExpiries: p(`DELETE FROM ${EXPIRIES}`),
    clearGone: p(`DELETE FROM ${GONE}`),
    /** The first MemoryRecorded per id in the range, and whether the id is new to the save. */
    records: p(`INSERT INTO ${RECORDS} (mid, owner, t, seq, fresh)
      SELECT mid, owner, t, seq, NOT EXISTS (
        SELECT 1 FROM memories m WHERE m.save_id = @save AND m.memory_id = r.mid)
      FROM (SELECT ${j("memoryId")} AS mid, ${j("ownerNpcId")} AS owner, t, min(seq) AS seq
        ${of("MemoryRecorded")} GROUP BY mid) AS r`),
    expiries: p(`INSERT INTO ${EXPIRIES} (seq, mid, t, reason)
      SELECT seq, ${j("memoryId")}, t, ${j("reason")} ${of("MemoryExpired")}`),
    /** The first expiry per memory that was there before the range. */
    gone: p(`INSERT INTO ${GONE} (mid, t, reason)
      SELECT e.mid, e.t, e.reason FROM (
        SELECT e.mid, e.t, e.reason, min(e.seq) FROM ${EXPIRIES} AS e
        LEFT JOIN ${RECORDS} AS r ON r.mid = e.mid
        WHERE r.mid IS NULL OR NOT r.fresh GROUP BY e.mid) AS e`),
    expire: p(`UPDATE memories SET (gone_at, gone_reason) =
        (SELECT g.t, g.reason FROM ${GONE} AS g WHERE g.mid = memory_id)
      WHERE save_id = @save AND memory_id IN (SELECT mid FROM ${GONE}) AND gone_at IS NULL`),
    knowledge: p(`INSERT INTO knowledge
        (save_id, campaign_id, npc_id, item_kind, item_id, t, via, from_npc_id, confidence)
      SELECT @save, @camp, npc, kind, item, t, via, frm, conf FROM (
        SELECT ${j("npcId")} AS npc, ${j("itemKind")} AS kind, ${j("itemId")} AS item, t,
          ${j("via")} AS via, ${j("fromNpcId")} AS frm, ${j("confidence")} AS conf, seq
        ${of("KnowledgeGained")}
        UNION ALL
        SELECT owner, 'memory', mid, t, 'owner', NULL, 1, seq FROM ${RECORDS} WHERE fresh
      ) ORDER BY npc, kind, item, t, seq
      ON CONFLICT (save_id, npc_id, item_kind, item_id) DO UPDATE SET t = excluded.t,
        via = excluded.via, from_npc_id = excluded.from_npc_id, confidence = excluded.confidence
      WHERE excluded.t < knowledge.t`),
    /**
     * Memories new to the save, each gone already if expired later in the range, keyed
     * on from the save's last key in log order (ItemKeys.ts).
     */
    memories: p(`INSERT INTO memories
        (rowid, save_id, campaign_id, memory_id, owner_npc_id, text, category, importance, recorded_at,
         expires_at, gone_at, gone_reason, location_id, entities, about_kind, about_id)
      SELECT ${lastKeySql("memories", "@base")} + row_number() OVER (ORDER BY events.seq),
        @save, @camp, ${j("memoryId")}, ${j("ownerNpcId")}, ${j("text")}, ${j("category")},
        ${j("importance")}, events.t, ${j("expiresAt")}, x.t, x.reason, ${j("locationId")}, ${jt("entities")},
        ${j("about.kind")}, ${j("about.id")}
      FROM ${RECORDS} AS r CROSS JOIN ${events} ON r.seq = events.seq AND r.fresh
      LEFT JOIN (SELECT e.mid, e.t, e.reason, min(e.seq) FROM ${EXPIRIES} AS e
        JOIN ${RECORDS} AS r2 ON r2.mid = e.mid AND r2.fresh AND e.seq > r2.seq GROUP BY e.mid
      ) AS x ON x.mid = r.mid
      WHERE events.${range.replaceAll(" seq", " events.seq")} AND events.type = 'MemoryRecorded'
      ORDER BY events.seq`),
    worldEvents: p(`INSERT INTO world_events
        (rowid, save_id, campaign_id, world_event_id, t, kind, text, location_id, faction_id, visibility,
         importance, participants, entities, lapses_at)
      SELECT ${lastKeySql("world_events", "@base")} + row_number() OVER (ORDER BY seq),
        @save, @camp, id, t, ${j("kind")}, ${j("text")}, ${j("locationId")},
        ${j("factionId")}, ${j("visibility")}, ${j("importance")}, ${jt("participants")}, ${jt("entities")},
        ${j("lapsesAt")}
      FROM ${firstNew("world_events", "WorldEventOccurred", ["world_event_id"], [j("worldEventId")])}
      ORDER BY seq`),
    turns: p(`INSERT INTO conversation_turns
        (rowid, save_id, campaign_id, conversation_id, turn_index, t, speaker_id, listener_ids, location_id, text)
      SELECT ${lastKeySql("conversation_turns", "@base")} + row_number() OVER (ORDER BY seq),
        @save, @camp, id, id2, t, ${j("speakerId")},
        ${jt("listenerIds")}, ${j("locationId")}, ${j("text")}
      FROM ${firstNew("conversation_turns", "ConversationTurn", ["conversation_id", "turn_index"], [j("conversationId"), j("turnIndex")])}
      ORDER BY seq`),
    llmCalls: p(`INSERT INTO llm_calls
        (save_id, campaign_id, call_id, seq, t, npc_id, purpose, input_hash, brain, model,
         prompt_tokens, output_tokens, latency_ms, error)
      SELECT @save, @camp, ${j("callId")}, seq, t, ${j("npcId")}, ${j("purpose")}, ${j("inputHash")},
        ${j("brain")}, ${j("model")},
        ${j("promptTokens")} + coalesce(${j("rejected.promptTokens")}, 0),
        ${j("outputTokens")} + coalesce(${j("rejected.outputTokens")}, 0), ${j("latencyMs")}, ${j("error")}
      ${of("LlmCallRecorded")} ORDER BY seq ON CONFLICT DO NOTHING`),
    debates: p(`INSERT INTO background_debates
        (rowid, save_id, campaign_id, debate_id, t, topic, participants, location_id, faction_id, summary, outcome)
      SELECT ${lastKeySql("background_debates", "@base")} + row_number() OVER (ORDER BY seq),
        @save, @camp, id, t, ${j("topic")}, ${jt("participants")}, ${j("locationId")},
        ${j("factionId")}, ${j("summary")}, ${j("outcome")}
      FROM ${firstNew("background_debates", "DebateHeld", ["debate_id"], [j("debateId")])}
      ORDER BY seq`),
    /**
     * Each NPC's last activity in the range: the last seq per NPC first (only the id read
     * from each event), then that event's columns.
     */
    activity: p(`INSERT INTO npc_activity
        (save_id, campaign_id, npc_id, activity, location_id, destination, until, task_id,
         attending_to, holding, note, t)
      SELECT @save, @camp, ${j("npcId")}, ${j("activity")}, ${j("locationId")}, ${j("destination")},
        ${j("until")}, ${j("taskId")}, ${jt("attendingTo")}, ${jt("holding")}, ${j("note")}, events.t
      FROM (SELECT max(seq) AS last ${of("NpcActivityChanged")} GROUP BY ${j("npcId")}) AS l
      CROSS JOIN ${log}.events AS events ON events.save_id = @src AND events.seq = l.last
      WHERE true ON CONFLICT (save_id, npc_id) DO UPDATE SET activity = excluded.activity,
        location_id = excluded.location_id, destination = excluded.destination, until = excluded.until,
        task_id = excluded.task_id, attending_to = excluded.attending_to, holding = excluded.holding,
        note = excluded.note, t = excluded.t`),
    /** Each pair's last relationship in the range, the same way. */
    relationships: p(`INSERT INTO relationships
        (save_id, campaign_id, from_id, to_id, trust, respect, suspicion, summary, updated_at)
      SELECT @save, @camp, ${j("fromId")}, ${j("toId")}, ${j("trust")}, ${j("respect")},
        ${j("suspicion")}, ${j("summary")}, events.t
      FROM (SELECT max(seq) AS last ${of("RelationshipChanged")} GROUP BY ${j("fromId")}, ${j("toId")}) AS l
      CROSS JOIN ${log}.events AS events ON events.save_id = @src AND events.seq = l.last
      WHERE true ON CONFLICT (save_id, from_id, to_id) DO UPDATE SET trust = excluded.trust,
        respect = excluded.respect, suspicion = excluded.suspicion, summary = excluded.summary,
        updated_at = excluded.updated_at`),
    warnings: p(`INSERT INTO warnings (save_id, campaign_id, seq, t, code, message, npc_id)
      SELECT @save, @camp, seq, t, ${j("code")}, ${j("message")}, ${j("npcId")}
      ${of("SimulationWarning")} ORDER BY seq ON CONFLICT DO NOTHING`),
  };
};

/**
 * True when every event of the types folded here in `segments` (of `db`'s log) is at its
 * current version, so SQLite may fold them.
 */
export const sqlFoldable = (db: SqliteDatabase, segments: ReadonlyArray<Segment>): boolean => {
  const older = db
    .prepare(
      `SELECT 1 FROM events INDEXED BY ${SQL_FOLD_INDEX} WHERE save_id = ? AND seq >= ? AND seq <= ? AND ${typeIn(sqlFoldedTypes)} AND NOT ${atCurrentVersion(sqlFoldedTypes)} LIMIT 1`,
    )
    .pluck();
  return segments.every((s) => older.get(s.saveId, s.fromSeq, s.toSeq) === undefined);
};

export class SqlFold {
  private readonly keys: ItemKeys;

  private constructor(
    private readonly db: SqliteDatabase,
    private readonly s: ReturnType<typeof statements>,
    private readonly scratch: ReturnType<typeof scratchOf>,
  ) {
    this.keys = new ItemKeys(db);
  }

  /**
   * Prepares the fold on `db` with its scratch tables (`close` drops them), reading the
   * event log of the schema `log` (default: `db`'s own). `prefix` names the scratch
   * tables: folds open at once on one connection need different ones.
   */
  static open(db: SqliteDatabase, log = "main", prefix = "hearsay_fold"): SqlFold {
    const scratch = scratchOf(prefix);
    for (const ddl of scratch.ddl) db.exec(ddl);
    return new SqlFold(db, statements(db, log, prefix), scratch);
  }

  /**
   * Creates the scratch tables again if they are gone: a transaction that created them
   * and then rolled back took them with it (the statements re-prepare by themselves).
   */
  ensureScratch(): void {
    for (const ddl of this.scratch.ddl) this.db.exec(ddl);
  }

  /** Drops the scratch tables. */
  close(): void {
    this.db.exec(`DROP TABLE ${this.scratch.RECORDS}`);
    this.db.exec(`DROP TABLE ${this.scratch.EXPIRIES}`);
    this.db.exec(`DROP TABLE ${this.scratch.GONE}`);
  }

  /**
   * Folds the SQL-folded events of `segments` (oldest first; seqs within each) into
   * `saveId`'s read models. Call inside the bulk fold's transaction.
   */
  fold(saveId: string, campaignId: string, segments: ReadonlyArray<Segment>): void {
    const s = this.s;
    for (const seg of segments) {
      if (seg.fromSeq > seg.toSeq) continue;
      const args = {
        save: saveId,
        base: this.keys.base(saveId),
        camp: campaignId,
        src: seg.saveId,
        lo: seg.fromSeq,
        hi: seg.toSeq,
      };
      s.clearRecords.run();
      s.clearExpiries.run();
      s.records.run(args);
      s.expiries.run(args);
      s.clearGone.run();
      s.gone.run();
      s.expire.run(args);
      s.knowledge.run(args);
      s.memories.run(args);
      s.worldEvents.run(args);
      s.turns.run(args);
      s.llmCalls.run(args);
      s.debates.run(args);
      s.warnings.run(args);
      s.activity.run(args);
      s.relationships.run(args);
    }
  }
}
