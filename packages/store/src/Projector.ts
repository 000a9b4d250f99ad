/**
 * The projector: the only code that writes read models. It folds one stored event at a
 * time into the tables of schema.sql.ts with prepared statements, and keeps the FTS5
 * external-content tables in step with their base rows.
 *
 * FTS can be *live* (each insert/update/delete mirrored into the index, for appends) or
 * *deferred* (skipped, for bulk refolds; the caller then indexes the save's rows in one
 * `INSERT … SELECT` with `indexFts`). In *bulk* mode knowledge facts go to an in-memory
 * buffer instead of one upsert each (see KnowledgeBuffer.ts), and so do rows whose upsert
 * replaces every column (activities, relationships: the last write wins); `flushBulk`
 * writes them. Fold rules that need care:
 * - knowledge is core's rule (`knowledgeStep`, core/Knowledge.ts). A bulk fold of events
 *   at an older version runs the step itself over its buffer; appends and rebuilds leave
 *   knowledge to SqlFold.ts, and a `live` fold mirrors it in SQL here, which is allowed
 *   only because test/KnowledgeAgreement.test.ts feeds them the same arbitrary logs: the
 *   earliest fact wins (a later or equal-time fact changes nothing); MemoryRecorded also
 *   records the owner's knowledge (`via = 'owner'`), and a memory id seen before is
 *   ignored entirely; MemoryExpired sets `gone_at`/`gone_reason` once, on a memory
 *   recorded before it;
 * - LoreImported replaces every chunk of its source;
 * - RunResumed changes world_state's seed, brain and end day (a continued run);
 * - PlayerInput changes nothing (it leaves the projection digest as it was).
 */
import { knowledgeStep, type StoredEvent } from "@hearsay/core";
import { ITEM_KEY_SPACE, ItemKeys, lastKeySql } from "./ItemKeys.ts";
import { KnowledgeBuffer, type KnowledgeFact } from "./KnowledgeBuffer.ts";
import { isNarrativeEvent, NarrativeProjector } from "./NarrativeProjector.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { type ProjectorStatements, prepareProjectorStatements } from "./projectorStatements.ts";
import { ftsTables, projectionTables } from "./schema.sql.ts";

const json = (v: unknown): string => JSON.stringify(v);

/** FTS column lists, in the order each FTS table declares them. */
const ftsColumns: Readonly<Record<keyof typeof ftsTables, ReadonlyArray<string>>> = {
  memories_fts: ["text", "entities"],
  world_events_fts: ["text", "entities"],
  lore_chunks_fts: ["text", "entities"],
  conversation_summaries_fts: ["summary"],
  background_debates_fts: ["topic", "summary", "outcome"],
};

/**
 * How `apply` treats side tables: `live` mirrors FTS and knowledge per event (appends);
 * `deferred` skips FTS (indexed in bulk afterwards); `bulk` also buffers knowledge facts
 * and last-write-wins rows (written by `flushBulk`).
 */
export type FoldMode = "live" | "deferred" | "bulk";

const ftsNames = Object.keys(ftsTables) as ReadonlyArray<keyof typeof ftsTables>;

export class Projector {
  private readonly s: ProjectorStatements;
  private readonly ftsInsert: Record<string, SqliteStatement>;
  private readonly ftsDeleteSave: Record<string, SqliteStatement>;
  private readonly ftsIndexSave: Record<string, SqliteStatement>;
  private readonly clearSave: ReadonlyArray<SqliteStatement>;
  private readonly lorePurgeFts: SqliteStatement;
  /** FTS writes of a `live` fold, held until `flushFts`. */
  private readonly ftsPending: Array<readonly [SqliteStatement, ReadonlyArray<unknown>]> = [];
  /** Knowledge facts of a `bulk` fold, not yet written. */
  private readonly knowledgeBuffer = new KnowledgeBuffer();
  /** Last-write-wins rows of a `bulk` fold, not yet written: per statement, by row key. */
  private readonly replaced = new Map<SqliteStatement, Map<string, ReadonlyArray<unknown>>>();
  private readonly narrative: NarrativeProjector;
  /**
   * Per FTS table an append's SQL fold feeds: its base's highest key in a save's space,
   * and the indexing of the save's rows after a mark.
   */
  private readonly sqlFoldFts: ReadonlyArray<{
    readonly mark: SqliteStatement;
    readonly index: SqliteStatement;
  }>;
  private readonly keys: ItemKeys;

  constructor(private readonly db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.ftsInsert = {};
    this.ftsDeleteSave = {};
    this.ftsIndexSave = {};
    for (const fts of ftsNames) {
      const cols = ftsColumns[fts];
      const base = ftsTables[fts];
      this.ftsInsert[fts] = p(
        `INSERT INTO ${fts}(rowid, ${cols.join(", ")}) VALUES (?${", ?".repeat(cols.length)})`,
      );
      this.ftsDeleteSave[fts] = p(
        `INSERT INTO ${fts}(${fts}, rowid, ${cols.join(", ")}) SELECT 'delete', rowid, ${cols.join(", ")} FROM ${base} WHERE save_id = ?`,
      );
      this.ftsIndexSave[fts] = p(
        `INSERT INTO ${fts}(rowid, ${cols.join(", ")}) SELECT rowid, ${cols.join(", ")} FROM ${base} WHERE save_id = ?`,
      );
    }
    this.clearSave = projectionTables.map((t) => p(`DELETE FROM ${t} WHERE save_id = ?`));
    this.lorePurgeFts = p(
      "INSERT INTO lore_chunks_fts(lore_chunks_fts, rowid, text, entities) SELECT 'delete', rowid, text, entities FROM lore_chunks WHERE save_id = ? AND source_id = ?",
    );
    this.sqlFoldFts = (["memories_fts", "world_events_fts", "background_debates_fts"] as const).map(
      (fts) => {
        const cols = ftsColumns[fts].join(", ");
        const base = ftsTables[fts];
        return {
          mark: p(`SELECT ${lastKeySql(base, "@base")}`).pluck(),
          index: p(
            `INSERT INTO ${fts}(rowid, ${cols}) SELECT rowid, ${cols} FROM ${base}
             WHERE rowid > @mark AND rowid < @base + ${ITEM_KEY_SPACE} ORDER BY rowid`,
          ),
        };
      },
    );
    this.keys = new ItemKeys(db);
    this.s = prepareProjectorStatements(db);
    this.narrative = new NarrativeProjector(db);
  }

  /**
   * Folds one event into the read models of `saveId`. In `live` mode its FTS writes are
   * held until `flushFts`; otherwise the FTS tables are not touched (see `indexFts`). Call
   * inside a transaction.
   */
  apply(e: StoredEvent, saveId: string, campaignId: string, mode: FoldMode): void {
    if (isNarrativeEvent(e)) {
      this.narrative.apply(e, saveId, campaignId);
      return;
    }
    const fts = mode === "live";
    const s = this.s;
    const ids = [saveId, campaignId] as const;
    switch (e.type) {
      case "SimulationStarted": {
        const p = e.payload;
        s.simulationStarted.run(
          ...ids,
          p.simulation,
          p.worldHash,
          p.seed,
          p.tickMinutes,
          p.endDay,
          p.brain,
          e.t,
        );
        return;
      }
      case "ClockAdvanced":
        s.clock.run(e.payload.to, saveId);
        return;
      case "RunResumed":
        s.runResumed.run(e.payload.seed, e.payload.brain, e.payload.endDay, saveId);
        return;
      case "Checkpoint":
        s.checkpoint.run(e.seq, saveId);
        return;
      case "NpcRegistered": {
        const p = e.payload;
        s.npcRegistered.run(
          ...ids,
          p.npcId,
          p.name,
          p.role,
          p.factionId,
          p.locationId,
          json(p.traits),
          e.t,
        );
        return;
      }
      case "NpcMoved":
        s.npcMoved.run(e.payload.to, saveId, e.payload.npcId);
        return;
      case "NpcActivityChanged": {
        const p = e.payload;
        this.replaceRow(
          mode,
          s.activity,
          p.npcId,
          ...ids,
          p.npcId,
          p.activity,
          p.locationId,
          p.destination,
          p.until,
          p.taskId,
          json(p.attendingTo),
          json(p.holding),
          p.note,
          e.t,
        );
        return;
      }
      case "ProfileGenerated":
        s.profile.run(...ids, e.payload.npcId, json(e.payload.profile), e.t);
        return;
      case "ProfileRevised":
        s.profileRevised.run(json(e.payload.changes), saveId, e.payload.npcId);
        return;
      case "WorldEventOccurred": {
        const p = e.payload;
        const entities = json(p.entities);
        const r = s.worldEvent.run(
          this.keys.next("world_events", saveId),
          ...ids,
          p.worldEventId,
          e.t,
          p.kind,
          p.text,
          p.locationId,
          p.factionId,
          p.visibility,
          p.importance,
          json(p.participants),
          entities,
          p.lapsesAt,
        );
        if (fts && r.changes === 1) {
          this.ftsLater(this.ftsInsert.world_events_fts!, r.lastInsertRowid, p.text, entities);
        }
        return;
      }
      case "KnowledgeGained": {
        const p = e.payload;
        const fact = [
          p.npcId,
          p.itemKind,
          p.itemId,
          e.t,
          p.via,
          p.fromNpcId,
          p.confidence,
        ] as const;
        if (mode === "bulk") this.buffer(e);
        else s.knowledge.run(...ids, ...fact);
        return;
      }
      case "MemoryRecorded": {
        const p = e.payload;
        const entities = json(p.entities);
        const r = s.memory.run(
          this.keys.next("memories", saveId),
          ...ids,
          p.memoryId,
          p.ownerNpcId,
          p.text,
          p.category,
          p.importance,
          e.t,
          p.expiresAt,
          p.locationId,
          entities,
          p.about?.kind ?? null,
          p.about?.id ?? null,
        );
        if (r.changes !== 1) return; // a memory id seen before changes nothing
        if (fts) this.ftsLater(this.ftsInsert.memories_fts!, r.lastInsertRowid, p.text, entities);
        if (mode === "bulk") {
          this.buffer(e);
          return;
        }
        s.knowledge.run(...ids, p.ownerNpcId, "memory", p.memoryId, e.t, "owner", null, 1);
        return;
      }
      case "MemoryExpired":
        s.memoryExpired.run(e.t, e.payload.reason, saveId, e.payload.memoryId);
        return;
      case "TaskProposed": {
        const p = e.payload;
        s.taskProposed.run(
          ...ids,
          p.taskId,
          p.title,
          p.description,
          p.proposedBy,
          p.assignee,
          p.locationId,
          p.factionId,
          p.deadline,
          e.t,
          e.t,
        );
        return;
      }
      case "TaskStatusChanged":
        s.taskStatus.run(e.payload.to, e.payload.reason, e.t, saveId, e.payload.taskId);
        return;
      case "TaskDeadlineMoved":
        s.taskDeadline.run(e.payload.to, e.payload.reason, e.t, saveId, e.payload.taskId);
        return;
      case "DebateHeld": {
        const p = e.payload;
        const r = s.debate.run(
          this.keys.next("background_debates", saveId),
          ...ids,
          p.debateId,
          e.t,
          p.topic,
          json(p.participants),
          p.locationId,
          p.factionId,
          p.summary,
          p.outcome,
        );
        if (fts && r.changes === 1) {
          this.ftsLater(
            this.ftsInsert.background_debates_fts!,
            r.lastInsertRowid,
            p.topic,
            p.summary,
            p.outcome,
          );
        }
        return;
      }
      case "ConversationTurn": {
        const p = e.payload;
        s.turn.run(
          this.keys.next("conversation_turns", saveId),
          ...ids,
          p.conversationId,
          p.turnIndex,
          e.t,
          p.speakerId,
          json(p.listenerIds),
          p.locationId,
          p.text,
        );
        return;
      }
      case "ConversationSummarized": {
        const p = e.payload;
        const prior = s.summaryFind.get(saveId, p.conversationId, p.npcId) as
          | { rid: number; summary: string }
          | undefined;
        if (prior) {
          if (fts) this.ftsLater(s.summaryFtsDelete, prior.rid, prior.summary);
          s.summaryUpdate.run(p.partnerId, p.throughTurn, p.summary, e.t, prior.rid);
          if (fts) this.ftsLater(this.ftsInsert.conversation_summaries_fts!, prior.rid, p.summary);
        } else {
          const r = s.summaryInsert.run(
            this.keys.next("conversation_summaries", saveId),
            ...ids,
            p.conversationId,
            p.npcId,
            p.partnerId,
            p.throughTurn,
            p.summary,
            e.t,
          );
          if (fts)
            this.ftsLater(this.ftsInsert.conversation_summaries_fts!, r.lastInsertRowid, p.summary);
        }
        return;
      }
      case "RelationshipChanged": {
        const p = e.payload;
        this.replaceRow(
          mode,
          s.relationship,
          `${p.fromId}\u0000${p.toId}`,
          ...ids,
          p.fromId,
          p.toId,
          p.trust,
          p.respect,
          p.suspicion,
          p.summary,
          e.t,
        );
        return;
      }
      case "LlmCallRecorded": {
        const p = e.payload;
        // A call's tokens are everything it sent: refused answers' requests included.
        s.llmCall.run(
          ...ids,
          p.callId,
          e.seq,
          e.t,
          p.npcId,
          p.purpose,
          p.inputHash,
          p.brain,
          p.model,
          p.promptTokens + p.rejected.promptTokens,
          p.outputTokens + p.rejected.outputTokens,
          p.latencyMs,
          p.error,
        );
        return;
      }
      case "LoreImported": {
        const p = e.payload;
        s.loreSource.run(...ids, p.sourceId, p.path, p.contentHash, e.t, p.chunks.length);
        if (fts) {
          // The purge reads the chunks about to be replaced: the held writes go first.
          this.flushFts();
          this.lorePurgeFts.run(saveId, p.sourceId);
        }
        s.loreChunksDelete.run(saveId, p.sourceId);
        p.chunks.forEach((c, ord) => {
          const entities = json(c.entities);
          const r = s.loreChunk.run(
            this.keys.next("lore_chunks", saveId),
            ...ids,
            c.chunkId,
            p.sourceId,
            ord,
            json(c.headingPath),
            c.text,
            json(c.tags),
            entities,
          );
          if (fts && r.changes === 1) {
            this.ftsLater(this.ftsInsert.lore_chunks_fts!, r.lastInsertRowid, c.text, entities);
          }
        });
        return;
      }
      case "SimulationWarning": {
        const p = e.payload;
        s.warning.run(...ids, e.seq, e.t, p.code, p.message, p.npcId);
        return;
      }
      case "PlayerInput":
        // The cause of the events after it (replay re-drives it); no read model holds it.
        return;
      case "SceneOpened":
      case "SceneClosed":
      case "SummaryCursorAdvanced":
        // Markers of what was summarised; the summaries themselves are MemoryRecorded.
        return;
      case "MaintenanceRan":
      case "MemoriesConsolidated":
        // A job's record; what it did is in the MemoryRecorded and MemoryExpired lines.
        return;
      case "NpcAgendaChanged":
        // The npc actor's own plan (its NpcFacts); no read model holds it.
        return;
      case "MemoryReinforced":
        // Decay and reinforcement are the owner's (its NpcFacts): the rows keep what
        // each memory was recorded with.
        return;
      default:
        assertNever(e);
    }
  }

  /**
   * Writes what a `bulk` fold buffered since the last flush: last-write-wins rows, then
   * knowledge facts, merged with rows already there by the same rule (earliest t wins,
   * the row already there on a tie). With `empty` (the save had no knowledge row
   * when the fold began), a fact never written before is inserted without the merge.
   * Call before reading the save's state.
   */
  flushBulk(saveId: string, campaignId: string, empty = false): void {
    for (const [stmt, rows] of this.replaced) {
      const keys = [...rows.keys()].sort();
      for (const key of keys) stmt.run(...rows.get(key)!);
      rows.clear();
    }
    const merge = this.s.knowledge;
    const insert = this.s.knowledgeInsert;
    this.knowledgeBuffer.drain((f, again) =>
      (empty && !again ? insert : merge).run(
        saveId,
        campaignId,
        f.npcId,
        f.itemKind,
        f.itemId,
        f.t,
        f.via,
        f.fromNpcId,
        f.confidence,
      ),
    );
  }

  /**
   * Runs the FTS writes a `live` fold held back, in order; an append calls it once, after
   * its other writes. FTS5 moves its pending terms to a new segment on disk whenever a
   * statement opens a savepoint, and every later projection write with triggers does:
   * writing each entry as its event was folded made a segment per entry, and the merges
   * after them cost a memory's fold several times its other writes.
   */
  flushFts(): void {
    for (const [stmt, args] of this.ftsPending) stmt.run(...args);
    this.ftsPending.length = 0;
  }

  /**
   * Where the save's rows of the FTS entries an append's SQL fold owes stand now (their
   * highest key in the save's space: ItemKeys.ts): memories, world events and debates,
   * whose events SqlFold.ts folds. Hand the marks to {@link indexSqlFolded} after the fold.
   */
  sqlFoldMarks(saveId: string): ReadonlyArray<number> {
    const base = this.keys.base(saveId);
    return this.sqlFoldFts.map((f) => Number(f.mark.get({ base })));
  }

  /**
   * Indexes the save's rows an append's SQL fold wrote after `marks` (`sqlFoldMarks`), in
   * key order — the FTS writes the event-by-event fold would have held for `flushFts`.
   */
  indexSqlFolded(saveId: string, marks: ReadonlyArray<number>): void {
    const base = this.keys.base(saveId);
    this.sqlFoldFts.forEach((f, i) => {
      f.index.run({ base, mark: marks[i] ?? base });
    });
  }

  /** Forgets the held FTS writes (their append rolled back). */
  dropFts(): void {
    this.ftsPending.length = 0;
  }

  private ftsLater(stmt: SqliteStatement, ...args: ReadonlyArray<unknown>): void {
    this.ftsPending.push([stmt, args]);
  }

  /** Folds a knowledge event of a `bulk` fold into the buffer, by core's rule. */
  private buffer(e: StoredEvent): void {
    for (const c of knowledgeStep(this.knowledgeBuffer, e)) this.knowledgeBuffer.write(c);
  }

  /** Every knowledge fact the `bulk` fold holds (once flushed, exactly the save's rows). */
  bufferedKnowledge(): Iterable<KnowledgeFact> {
    return this.knowledgeBuffer.facts();
  }

  /** Forgets what a `bulk` fold buffered (a new bulk fold of a save starts). */
  resetBulk(): void {
    this.knowledgeBuffer.clear();
    for (const rows of this.replaced.values()) rows.clear();
  }

  /**
   * Runs an upsert that replaces every column of its row (so the last write wins): at
   * once, or in `bulk` mode kept by `key` until `flushBulk`, so a row rewritten on
   * every event (an NPC's activity) is written once per flush.
   */
  private replaceRow(
    mode: FoldMode,
    stmt: SqliteStatement,
    key: string,
    ...args: ReadonlyArray<unknown>
  ): void {
    if (mode !== "bulk") {
      stmt.run(...args);
      return;
    }
    let rows = this.replaced.get(stmt);
    if (rows === undefined) {
      rows = new Map();
      this.replaced.set(stmt, rows);
    }
    rows.set(key, args);
  }

  /** Deletes every projection row of `saveId`; with `fts`, their FTS entries first. */
  clear(saveId: string, fts: boolean): void {
    if (fts) for (const stmt of Object.values(this.ftsDeleteSave)) stmt.run(saveId);
    for (const stmt of this.clearSave) stmt.run(saveId);
  }

  /** Indexes every FTS-backed row of `saveId` (after a deferred fold). */
  indexFts(saveId: string): void {
    for (const stmt of Object.values(this.ftsIndexSave)) stmt.run(saveId);
  }

  /** Rebuilds every FTS index from its whole base table (after a deferred fold of all saves). */
  rebuildFts(): void {
    for (const fts of ftsNames) this.db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`);
  }

  /** Empties every projection and FTS table, for a rebuild of all saves. */
  clearAll(): void {
    for (const fts of ftsNames) this.db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('delete-all')`);
    for (const t of projectionTables) this.db.exec(`DELETE FROM ${t}`);
  }
}

const assertNever = (e: never): never => {
  throw new Error(`projector: unhandled event type ${(e as { type: string }).type}`);
};
