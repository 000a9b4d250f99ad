/**
 * The canonical state of one save's read models: every projection row, table by table,
 * ordered by primary key, without rowids and without `save_id`/`campaign_id` (so a replay
 * into a new save, or a branch, hashes the same as the original). Its `stateHash` is what
 * Checkpoint events carry; snapshots store it and restore from it.
 */
import { stateHash } from "@hearsay/core";
import { ItemKeys, type KeyedTable, keyedTables } from "./ItemKeys.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { lateDigestColumns } from "./ProjectionDigest.ts";
import { projectionTables } from "./schema.sql.ts";

/** A projection table's name. */
export type ProjectionTable = (typeof projectionTables)[number];

/** A projection row as plain JSON values (JSON columns stay as their stored text). */
export type ProjectionRow = Readonly<Record<string, string | number | null>>;

/** Every projection row of a save, per table, in primary-key order. */
export type ProjectionState = Readonly<Record<ProjectionTable, ReadonlyArray<ProjectionRow>>>;

/** The columns that order each table's rows (its primary or unique key without save_id). */
export const projectionKeys: Readonly<Record<ProjectionTable, ReadonlyArray<string>>> = {
  world_state: [],
  characters: ["npc_id"],
  npc_activity: ["npc_id"],
  npc_profiles: ["npc_id"],
  memories: ["memory_id"],
  world_events: ["world_event_id"],
  knowledge: ["npc_id", "item_kind", "item_id"],
  relationships: ["from_id", "to_id"],
  tasks: ["task_id"],
  conversation_turns: ["conversation_id", "turn_index"],
  conversation_summaries: ["conversation_id", "npc_id"],
  lore_sources: ["source_id"],
  lore_chunks: ["chunk_id"],
  background_debates: ["debate_id"],
  llm_calls: ["call_id"],
  warnings: ["seq"],
  threads: ["thread_id"],
  happenings: ["happening_id"],
  happening_props: ["happening_id", "prop_id"],
};

const scoped = new Set(["save_id", "campaign_id"]);

const keyed = new Set<string>(keyedTables);
const isKeyed = (table: string): table is KeyedTable => keyed.has(table);

/** Reads and writes canonical projection state with statements prepared once. */
export class ProjectionStateIO {
  private readonly select: ReadonlyArray<readonly [ProjectionTable, SqliteStatement]>;
  /** A table's late columns, in column order. */
  private readonly late = new Map<string, ReadonlyArray<string>>();
  private readonly keys: ItemKeys;
  private readonly insert: ReadonlyMap<
    ProjectionTable,
    { readonly columns: ReadonlyArray<string>; readonly stmt: SqliteStatement }
  >;

  constructor(db: SqliteDatabase) {
    const select: Array<readonly [ProjectionTable, SqliteStatement]> = [];
    const insert = new Map<
      ProjectionTable,
      { columns: ReadonlyArray<string>; stmt: SqliteStatement }
    >();
    for (const table of projectionTables) {
      const columns = (db.pragma(`table_info(${table})`) as Array<{ name: string }>)
        .map((c) => c.name)
        .filter((c) => !scoped.has(c));
      const order = projectionKeys[table];
      const orderBy = order.length > 0 ? ` ORDER BY ${order.join(", ")}` : "";
      select.push([
        table,
        db.prepare(`SELECT ${columns.join(", ")} FROM ${table} WHERE save_id = ?${orderBy}`),
      ]);
      const keyed = isKeyed(table);
      insert.set(table, {
        columns,
        stmt: db.prepare(
          `INSERT INTO ${table} (${keyed ? "rowid, " : ""}save_id, campaign_id, ${columns.join(", ")}) VALUES (${keyed ? "?, " : ""}?, ?${", ?".repeat(columns.length)})`,
        ),
      });
    }
    this.select = select;
    this.insert = insert;
    this.keys = new ItemKeys(db);
    for (const [table, n] of lateDigestColumns) {
      const columns = insert.get(table as ProjectionTable)?.columns ?? [];
      this.late.set(table, columns.slice(columns.length - n));
    }
  }

  /**
   * The canonical, JSON-able state of every projection row of `saveId`. A late column
   * (`lateDigestColumns`) is left out of a row while it and the late ones after it are
   * null, as in the digest: a state from before the column existed hashes the same.
   */
  read(saveId: string): ProjectionState {
    const out: Record<string, ReadonlyArray<ProjectionRow>> = {};
    for (const [table, stmt] of this.select) {
      const rows = stmt.all(saveId) as Array<Record<string, string | number | null>>;
      const late = this.late.get(table);
      if (late !== undefined) {
        for (const row of rows) {
          for (let i = late.length - 1; i >= 0 && row[late[i]!] === null; i--) delete row[late[i]!];
        }
      }
      out[table] = rows;
    }
    return out as ProjectionState;
  }

  /**
   * Inserts a state's rows as `saveId`'s (the caller has cleared the save and indexes
   * FTS afterwards). Call inside a transaction. A state holds no item keys: the rows of
   * keyed tables get the save's next keys in the state's order, which is the log's only
   * where the two agree — a save restored from a store snapshot (off unless asked for:
   * `snapshotEvery`) is keyed by its rows, not by the rule of ItemKeys.ts.
   */
  write(saveId: string, campaignId: string, state: ProjectionState): void {
    for (const [table, { columns, stmt }] of this.insert) {
      const keyed = isKeyed(table);
      for (const row of state[table] ?? []) {
        const values = columns.map((c) => row[c] ?? null);
        if (keyed) stmt.run(this.keys.next(table, saveId), saveId, campaignId, ...values);
        else stmt.run(saveId, campaignId, ...values);
      }
    }
  }
}

/** The sha256 state hash of a canonical projection state. */
export const hashProjectionState = (state: ProjectionState): string => stateHash(state);
