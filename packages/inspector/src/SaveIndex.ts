/**
 * The inspector's in-memory index of one save: the parts of the world the read models
 * hold only at their latest value (where each NPC was, relationship edges, task
 * statuses) plus running totals (knowledge, model calls, gated turns, events per day),
 * folded from the log once and kept up to date as the save grows. It makes every view
 * answer "as it was after seq S" with a binary search, however long the log.
 *
 *   events ──▶ DayIndex        days, first/last seq, counts by type
 *          ──▶ PlaceIndex      per NPC: location, activity, note; gated/asked turns
 *          ──▶ KnowledgeIndex  per item: who knew it, how, when, from whom
 *          ──▶ EdgeIndex       per directed edge: trust, respect, suspicion
 *          ──▶ TaskIndex       per task: status
 *          ──▶ ProfileIndex    per NPC: its profile, generated then revised
 *   llm_calls ─▶ CostIndex     running totals overall, per purpose, per NPC
 */

import type { SqliteDatabase, SqliteStatement } from "@hearsay/store";
import { CostIndex } from "./CostIndex.ts";
import { DayIndex } from "./DayIndex.ts";
import { EdgeIndex } from "./EdgeIndex.ts";
import { KnowledgeIndex } from "./KnowledgeIndex.ts";
import { PlaceIndex } from "./PlaceIndex.ts";
import { ProfileIndex } from "./ProfileIndex.ts";
import { segmentsOf } from "./Segments.ts";
import type { SeqSeries } from "./SeqSeries.ts";
import { TaskIndex } from "./TaskIndex.ts";

/** An NPC as registered. */
export interface Character {
  readonly npcId: string;
  readonly name: string;
  readonly role: string;
  readonly factionId: string | null;
  readonly traits: ReadonlyArray<string>;
}

/** A stage of reading a save's log into the inspector's index. */
export type IndexingStage =
  | "days"
  | "places"
  | "knowledge"
  | "relationships, tasks and profiles"
  | "cost";

/** Told of each stage of a refresh, with the events it reads. */
export type IndexingProgress = (stage: IndexingStage, events: number) => void;

export class SaveIndex {
  readonly days = new DayIndex();
  readonly places = new PlaceIndex();
  readonly knowledge = new KnowledgeIndex();
  readonly edges = new EdgeIndex();
  readonly tasks = new TaskIndex();
  readonly profiles = new ProfileIndex();
  readonly cost = new CostIndex();
  /** Running count of memories recorded and not yet expired, forgotten or capped. */
  get liveMemories(): SeqSeries {
    return this.knowledge.liveMemories;
  }
  /** Registered NPCs in id order. */
  characters: ReadonlyArray<Character> = [];
  private readonly byId = new Map<string, Character>();
  private readonly failed = new Set<string>();
  /** `npc@t` of every planned step taken (the brain was not asked for it). */
  private readonly stepped = new Set<string>();
  private indexed = 0;
  /**
   * `[t, npc]` of each step of an earlier plan taken in a stretch (an agenda changed at t
   * and planned before it): a wake-up that asked no brain. SQLite keeps only those.
   */
  private readonly steppedRows: SqliteStatement;

  constructor(
    private readonly db: SqliteDatabase,
    readonly saveId: string,
  ) {
    this.steppedRows = db
      .prepare(
        `SELECT t, json_extract(payload, '$.npcId') FROM events
         WHERE save_id = ? AND type = 'NpcAgendaChanged' AND seq >= ? AND seq <= ?
           AND coalesce(json_extract(payload, '$.plannedAt'), 0) < t`,
      )
      .raw(true);
  }

  /** The seq the index covers (the save's head when last refreshed). */
  get head(): number {
    return this.indexed;
  }

  /**
   * Folds whatever the save appended since the last refresh, telling `onStage` of each
   * stage with the events it reads. Returns the new head.
   */
  refresh(onStage?: IndexingProgress): number {
    const head =
      (this.db.prepare("SELECT head_seq FROM saves WHERE save_id = ?").pluck().get(this.saveId) as
        | number
        | undefined) ?? 0;
    if (head <= this.indexed) return this.indexed;
    const from = this.indexed + 1;
    const db = this.db;
    const stage = (name: IndexingStage) => onStage?.(name, head - from + 1);
    db.transaction(() => {
      const segments = segmentsOf(db, this.saveId, head).filter((s) => s.toSeq >= from);
      const warnings = db
        .prepare(
          "SELECT npc_id, t FROM warnings WHERE save_id = ? AND code = 'decision_failed' AND seq >= ? AND seq <= ?",
        )
        .raw(true)
        .all(this.saveId, from, head) as Array<[string | null, number]>;
      for (const [npc, t] of warnings) if (npc !== null) this.failed.add(`${npc}@${t}`);
      // Stage by stage over every segment, so that each is said once.
      stage("days");
      for (const s of segments) this.days.ingest(db, s.saveId, Math.max(s.fromSeq, from), s.toSeq);
      stage("places");
      for (const s of segments) {
        const lo = Math.max(s.fromSeq, from);
        for (const [t, npc] of this.steppedRows.iterate(s.saveId, lo, s.toSeq) as IterableIterator<
          [number, string]
        >)
          this.stepped.add(`${npc}@${t}`);
        this.places.ingest(db, s.saveId, lo, s.toSeq, this.failed, this.stepped);
      }
      stage("knowledge");
      for (const s of segments)
        this.knowledge.ingest(db, s.saveId, Math.max(s.fromSeq, from), s.toSeq);
      stage("relationships, tasks and profiles");
      for (const s of segments) {
        const lo = Math.max(s.fromSeq, from);
        this.edges.ingest(db, s.saveId, lo, s.toSeq);
        this.tasks.ingest(db, s.saveId, lo, s.toSeq);
        this.profiles.ingest(db, s.saveId, lo, s.toSeq);
      }
      stage("cost");
      this.cost.ingest(db, this.saveId, head);
      this.characters = (
        db
          .prepare(
            "SELECT npc_id, name, role, faction_id, traits FROM characters WHERE save_id = ? ORDER BY npc_id",
          )
          .raw(true)
          .all(this.saveId) as Array<[string, string, string, string | null, string]>
      ).map(([npcId, name, role, factionId, traits]) => ({
        npcId,
        name,
        role,
        factionId,
        traits: JSON.parse(traits) as Array<string>,
      }));
      this.byId.clear();
      for (const c of this.characters) this.byId.set(c.npcId, c);
    })();
    this.indexed = head;
    return head;
  }

  /** The registered NPC, or undefined. */
  character(npcId: string): Character | undefined {
    return this.byId.get(npcId);
  }

  /** The NPC's name, or its id when it is not registered. */
  nameOf(npcId: string): string {
    return this.byId.get(npcId)?.name ?? npcId;
  }
}
