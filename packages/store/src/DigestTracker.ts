/**
 * The projection digest of one save kept up during a bulk fold, when the fold must know
 * it at points along the way (a replay checks every Checkpoint) but the per-row digest
 * triggers are paused. Connection-local TEMP triggers on every projection table only
 * note *which* rows were written (a native insert of the row's key, no call into JS);
 * `digest()` then re-reads just those rows, swaps their old lanes for their new ones in
 * a map of the save's row lanes, and returns the sum. A row written many times between
 * two reads is hashed once. Generic over the tables and columns the digest covers.
 */
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { digestHex, rowLanes } from "./ProjectionDigest.ts";

const LANE = 2 ** 48;

interface Tracked {
  readonly table: string;
  /** The columns that identify a row: `rowid`, or a WITHOUT ROWID table's primary key. */
  readonly keys: ReadonlyArray<string>;
  readonly lanes: Map<unknown, readonly [number, number]>;
  readonly settle: SqliteStatement;
  readonly reset: SqliteStatement;
}

/** A row's identity in the lanes map: its one key value, or its key values joined. */
const keyOf = (row: ReadonlyArray<unknown>, n: number): unknown =>
  n === 1 ? row[0] : row.slice(0, n).join("\u0000");

const isWithoutRowid = (db: SqliteDatabase, table: string): boolean =>
  /WITHOUT\s+ROWID\s*$/i.test(
    (
      db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as {
        sql: string;
      }
    ).sql.trim(),
  );

const primaryKey = (db: SqliteDatabase, table: string): ReadonlyArray<string> =>
  (db.pragma(`table_info(${table})`) as Array<{ name: string; pk: number }>)
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);

export class DigestTracker {
  private readonly tracked: ReadonlyArray<Tracked>;
  private readonly ddlUndo: Array<string> = [];
  private a = 0;
  private b = 0;

  /**
   * Starts tracking `saveId` over `columns` (table → digest columns): hashes the rows
   * the save already has and installs the TEMP triggers. Call inside the fold's
   * transaction; `close` before it ends.
   */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly saveId: string,
    columns: ReadonlyMap<string, ReadonlyArray<string>>,
  ) {
    const tracked: Array<Tracked> = [];
    for (const [table, cols] of columns) {
      const keys = isWithoutRowid(db, table) ? primaryKey(db, table) : ["rowid"];
      const touched = `hearsay_touched_${table}`;
      const keyCols = keys.map((_, i) => `k${i}`);
      db.exec(
        keys[0] === "rowid"
          ? `CREATE TEMP TABLE ${touched} (k0 INTEGER PRIMARY KEY)`
          : `CREATE TEMP TABLE ${touched} (${keyCols.join(", ")}, PRIMARY KEY (${keyCols.join(", ")})) WITHOUT ROWID`,
      );
      this.ddlUndo.push(`DROP TABLE temp.${touched}`);
      const note = (row: "NEW" | "OLD") =>
        `INSERT INTO ${touched} VALUES (${keys.map((k) => `${row}.${k}`).join(", ")}) ON CONFLICT DO NOTHING;`;
      for (const [what, body] of [
        ["INSERT", note("NEW")],
        ["UPDATE", `${note("OLD")} ${note("NEW")}`],
        ["DELETE", note("OLD")],
      ] as const) {
        const name = `hearsay_touch_${table}_${what.toLowerCase()}`;
        db.exec(`CREATE TEMP TRIGGER ${name} AFTER ${what} ON ${table} BEGIN ${body} END`);
        this.ddlUndo.push(`DROP TRIGGER temp.${name}`);
      }
      const on = keys.map((k, i) => `t.${k} = tt.k${i}`).join(" AND ");
      const settle = db
        .prepare(
          `SELECT ${keyCols.map((k) => `tt.${k}`).join(", ")}, t.${keys[0]} IS NOT NULL, ${cols.map((c) => `t.${c}`).join(", ")}
           FROM ${touched} tt LEFT JOIN ${table} t ON ${on} AND t.save_id = ?`,
        )
        .raw();
      const lanes = new Map<unknown, readonly [number, number]>();
      const existing = db
        .prepare(`SELECT ${keys.join(", ")}, ${cols.join(", ")} FROM ${table} WHERE save_id = ?`)
        .raw();
      for (const row of existing.iterate(saveId) as IterableIterator<Array<unknown>>) {
        const l = rowLanes(table, row.slice(keys.length));
        lanes.set(keyOf(row, keys.length), l);
        this.add(l, 1);
      }
      tracked.push({
        table,
        keys,
        lanes,
        settle,
        reset: db.prepare(`DELETE FROM ${touched}`),
      });
    }
    this.tracked = tracked;
  }

  private add(l: readonly [number, number], sign: 1 | -1): void {
    this.a = (((this.a + sign * l[0]) % LANE) + LANE) % LANE;
    this.b = (((this.b + sign * l[1]) % LANE) + LANE) % LANE;
  }

  /** The save's digest now (24 hex digits), from the rows written since the last call. */
  digest(): string {
    for (const t of this.tracked) {
      const n = t.keys.length;
      const rows = t.settle.all(this.saveId) as Array<Array<unknown>>;
      if (rows.length === 0) continue;
      for (const row of rows) {
        const key = keyOf(row, n);
        const old = t.lanes.get(key);
        if (old !== undefined) this.add(old, -1);
        if (row[n] === 1) {
          const l = rowLanes(t.table, row.slice(n + 1));
          t.lanes.set(key, l);
          this.add(l, 1);
        } else t.lanes.delete(key);
      }
      t.reset.run();
    }
    return digestHex(this.a, this.b);
  }

  /** Removes the TEMP triggers and tables. */
  close(): void {
    for (const sql of this.ddlUndo.reverse()) this.db.exec(sql);
    this.ddlUndo.length = 0;
  }
}
