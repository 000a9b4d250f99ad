/**
 * The projection digest of one save kept up during a bulk fold, when the fold must know
 * it at points along the way (a replay checks every Checkpoint) but the per-row digest
 * triggers are paused. Connection-local TEMP triggers on every projection table only
 * note *which* of the save's rows were written (a native insert of the row's key, no
 * call into JS); `digest()` then re-reads just those rows, swaps their old lanes for
 * their new ones in a map of the save's row lanes, and returns the sum. A row written
 * many times between two reads is hashed once. Generic over the tables and columns the
 * digest covers.
 *
 * A row is known by its key without `save_id` (every row tracked is the save's):
 * `rowid`, or a WITHOUT ROWID table's other primary key columns. The re-read takes a
 * key column from the row itself when the digest covers it, and from the touched table
 * only when the row is gone, so no key is read into JS twice.
 */
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { digestHex, rowLanes } from "./ProjectionDigest.ts";

const LANE = 2 ** 48;

interface Tracked {
  readonly table: string;
  /** How many digest columns the table has (a settled row: exists, columns, keys). */
  readonly width: number;
  /** A settled row's identity in `lanes`. */
  readonly identity: (row: ReadonlyArray<unknown>) => unknown;
  readonly lanes: Map<unknown, readonly [number, number]>;
  readonly settle: SqliteStatement;
  readonly reset: SqliteStatement;
}

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

/** An SQL string literal. */
const literal = (s: string): string => `'${s.replaceAll("'", "''")}'`;

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
    const save = literal(saveId);
    for (const [table, cols] of columns) {
      const keys = isWithoutRowid(db, table)
        ? primaryKey(db, table).filter((k) => k !== "save_id")
        : ["rowid"];
      const touched = `hearsay_touched_${table}`;
      const keyCols = keys.map((_, i) => `k${i}`);
      db.exec(
        keys[0] === "rowid"
          ? `CREATE TEMP TABLE ${touched} (k0 INTEGER PRIMARY KEY)`
          : `CREATE TEMP TABLE ${touched} (${keyCols.join(", ")}, PRIMARY KEY (${keyCols.join(", ")})) WITHOUT ROWID`,
      );
      this.ddlUndo.push(`DROP TABLE temp.${touched}`);
      const note = (row: "NEW" | "OLD") =>
        `INSERT INTO ${touched} SELECT ${keys.map((k) => `${row}.${k}`).join(", ")}
         WHERE ${row}.save_id = ${save} ON CONFLICT DO NOTHING;`;
      for (const [what, body] of [
        ["INSERT", note("NEW")],
        ["UPDATE", `${note("OLD")} ${note("NEW")}`],
        ["DELETE", note("OLD")],
      ] as const) {
        const name = `hearsay_touch_${table}_${what.toLowerCase()}`;
        db.exec(`CREATE TEMP TRIGGER ${name} AFTER ${what} ON ${table} BEGIN ${body} END`);
        this.ddlUndo.push(`DROP TRIGGER temp.${name}`);
      }
      // A row read back is [exists, ...digest columns, ...keys]; a key the digest
      // columns hold is only read from `touched` when the row is gone.
      const width = cols.length;
      const inRow = keys.map((k) => cols.indexOf(k));
      const part = (row: ReadonlyArray<unknown>, i: number): unknown =>
        row[0] !== 1 || inRow[i]! < 0 ? row[1 + width + i] : row[1 + inRow[i]!];
      const identity =
        keys.length === 1
          ? (row: ReadonlyArray<unknown>) => part(row, 0)
          : (row: ReadonlyArray<unknown>) => keys.map((_, i) => part(row, i)).join("\u0000");
      const keysRead = keys.map((_, i) =>
        inRow[i]! < 0 ? `tt.k${i}` : `CASE WHEN t.${keys[0]} IS NULL THEN tt.k${i} END`,
      );
      const on = keys.map((k, i) => `t.${k} = tt.k${i}`).join(" AND ");
      const settle = db
        .prepare(
          `SELECT t.${keys[0]} IS NOT NULL, ${cols.map((c) => `t.${c}`).join(", ")}, ${keysRead.join(", ")}
           FROM ${touched} tt LEFT JOIN ${table} t ON t.save_id = ? AND ${on}`,
        )
        .raw();
      const lanes = new Map<unknown, readonly [number, number]>();
      const existing = db
        .prepare(`SELECT 1, ${cols.join(", ")}, ${keys.join(", ")} FROM ${table} WHERE save_id = ?`)
        .raw();
      for (const row of existing.iterate(saveId) as IterableIterator<Array<unknown>>) {
        const l = rowLanes(table, row.slice(1, 1 + width));
        lanes.set(identity(row), l);
        this.add(l, 1);
      }
      tracked.push({
        table,
        width,
        identity,
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
      const rows = t.settle.all(this.saveId) as Array<Array<unknown>>;
      if (rows.length === 0) continue;
      for (const row of rows) {
        const key = t.identity(row);
        const old = t.lanes.get(key);
        if (old !== undefined) this.add(old, -1);
        if (row[0] === 1) {
          const l = rowLanes(t.table, row.slice(1, 1 + t.width));
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
