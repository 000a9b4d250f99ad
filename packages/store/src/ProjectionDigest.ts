/**
 * The projection state hash, kept incrementally. Every projection row contributes a
 * 96-bit value (two 48-bit lanes of a hash over the table name and the row's columns,
 * save and campaign ids left out so a branch or a replay into another save hashes the
 * same); a save's digest is the sum of its rows' values modulo 2^48 per lane — a
 * multiset hash, so the order rows were written in does not matter.
 *
 * SQLite triggers on every projection table report each inserted, deleted or updated
 * row to `hearsay_digest(sign, save, table, col, …)`, whoever writes it (the projector, a
 * rebuild, a snapshot restore). The function only adds to a per-connection tally; the
 * store folds the tally into `projection_digest` at the end of each of its write
 * transactions (`DigestTally.flush`) and drops it when one rolls back. Reading a digest
 * is one row, so checkpoints and replays compare states without reading them.
 */
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** The SQL function the triggers call. */
export const DIGEST_FN = "hearsay_digest";
const LANE = 2 ** 48;

/** 53-bit string hash (cyrb53), seeded; fast and well mixed — not a cryptographic hash. */
const cyrb53 = (s: string, seed: number): number => {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
};

/** A row's two lanes: values typed (`s`tring, `n`umber, null) so "1" and 1 differ. */
export const rowLanes = (table: string, row: ReadonlyArray<unknown>): readonly [number, number] => {
  let key = table;
  for (const v of row)
    key +=
      v === null ? "\u0001\u0000" : typeof v === "number" ? `\u0001n${v}` : `\u0001s${String(v)}`;
  return [cyrb53(key, 1) % LANE, cyrb53(key, 2) % LANE];
};

/** Per-connection deltas of each save's digest, since the last flush. */
export class DigestTally {
  private readonly deltas = new Map<string, [number, number]>();
  private flushStmt: SqliteStatement | null = null;

  constructor(private readonly db: SqliteDatabase) {
    const add = (sign: unknown, save: unknown, table: unknown, ...row: Array<unknown>): null => {
      const [a, b] = rowLanes(String(table), row);
      const key = String(save);
      const d = this.deltas.get(key) ?? [0, 0];
      const s = sign === 1 ? 1 : -1;
      d[0] = (((d[0] + s * a) % LANE) + LANE) % LANE;
      d[1] = (((d[1] + s * b) % LANE) + LANE) % LANE;
      this.deltas.set(key, d);
      return null;
    };
    db.function(DIGEST_FN, { varargs: true }, add as (...params: Array<unknown>) => unknown);
  }

  /** Folds the deltas into `projection_digest`; call inside the write transaction, last. */
  flush(): void {
    if (this.deltas.size === 0) return;
    this.flushStmt ??= this.db.prepare(
      `INSERT INTO projection_digest (save_id, a, b) VALUES (?, ?, ?)
       ON CONFLICT (save_id) DO UPDATE SET a = (a + excluded.a) % ${LANE}, b = (b + excluded.b) % ${LANE}`,
    );
    for (const [save, [a, b]] of this.deltas) this.flushStmt.run(save, a, b);
    this.deltas.clear();
  }

  /** Drops the deltas of a transaction that rolled back. */
  discard(): void {
    this.deltas.clear();
  }
}

const tallies = new WeakMap<SqliteDatabase, DigestTally>();

/** Registers the digest function on a connection (before any projection write). */
export const registerDigest = (db: SqliteDatabase): DigestTally => {
  const tally = new DigestTally(db);
  tallies.set(db, tally);
  return tally;
};

/** The connection's tally, if it has one. */
export const digestTallyOf = (db: SqliteDatabase): DigestTally | undefined => tallies.get(db);

/** The connection's tally (registered by `openDatabase`). */
export const digestTally = (db: SqliteDatabase): DigestTally => {
  const tally = tallies.get(db);
  if (!tally)
    throw new Error("projection digest: this connection was not opened with openDatabase");
  return tally;
};

/**
 * Runs `work` in a write transaction that keeps the digest true: the tally is flushed
 * before commit and discarded if `work` throws. Nested calls join the outer transaction.
 */
export const withDigest = <A>(db: SqliteDatabase, work: () => A, immediate = false): A => {
  const tally = digestTally(db);
  if (db.inTransaction) return work();
  const tx = db.transaction(() => {
    const out = work();
    tally.flush();
    return out;
  });
  try {
    return immediate ? tx.immediate() : tx();
  } catch (e) {
    tally.discard();
    throw e;
  }
};

/** Columns of each projection table that the digest covers (all but save and campaign). */
export const digestColumns = (
  ddl: string,
  tables: ReadonlyArray<string>,
): ReadonlyMap<string, ReadonlyArray<string>> => {
  const out = new Map<string, ReadonlyArray<string>>();
  for (const table of tables) {
    const m = new RegExp(`CREATE TABLE ${table} \\(([\\s\\S]*?)\\n\\)`).exec(ddl);
    if (!m) throw new Error(`digestColumns: no CREATE TABLE ${table} in the schema`);
    const cols = m[1]!
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^(PRIMARY|UNIQUE|FOREIGN|CHECK|CONSTRAINT)\b/.test(l))
      .map((l) => l.split(/\s+/)[0]!)
      .filter((c) => c !== "save_id" && c !== "campaign_id");
    out.set(table, cols);
  }
  return out;
};

const report = (sign: 1 | -1, table: string, cols: ReadonlyArray<string>, row: "NEW" | "OLD") =>
  `SELECT ${DIGEST_FN}(${sign}, ${row}.save_id, '${table}', ${cols.map((c) => `${row}.${c}`).join(", ")});`;

/** The digest table and the triggers that report every projection write. */
export const digestMigrationSql = (columns: ReadonlyMap<string, ReadonlyArray<string>>): string => {
  const parts = [
    `CREATE TABLE projection_digest (
  save_id TEXT PRIMARY KEY,
  a INTEGER NOT NULL,
  b INTEGER NOT NULL
);`,
  ];
  for (const [table, cols] of columns) {
    parts.push(
      `CREATE TRIGGER ${table}_digest_insert AFTER INSERT ON ${table} BEGIN ${report(1, table, cols, "NEW")} END;`,
      `CREATE TRIGGER ${table}_digest_delete AFTER DELETE ON ${table} BEGIN ${report(-1, table, cols, "OLD")} END;`,
      `CREATE TRIGGER ${table}_digest_update AFTER UPDATE ON ${table} BEGIN ${report(-1, table, cols, "OLD")} ${report(1, table, cols, "NEW")} END;`,
    );
    // Rows already present (a database migrated from version 1) are tallied here.
    parts.push(`SELECT ${DIGEST_FN}(1, save_id, '${table}', ${cols.join(", ")}) FROM ${table};`);
  }
  return parts.join("\n");
};

const hex = (n: number) => n.toString(16).padStart(12, "0");

/** A save's projection digest as 24 hex digits (all zeros for an empty state). */
export const readDigest = (db: SqliteDatabase, saveId: string): string => {
  const row = db.prepare("SELECT a, b FROM projection_digest WHERE save_id = ?").get(saveId) as
    | { a: number; b: number }
    | undefined;
  return row === undefined ? "0".repeat(24) : `${hex(row.a)}${hex(row.b)}`;
};

/**
 * Recomputes a save's digest from its rows, ignoring the maintained one: what the
 * triggers must always agree with (tests and replays use it as a check).
 */
export const recomputeDigest = (
  db: SqliteDatabase,
  saveId: string,
  columns: ReadonlyMap<string, ReadonlyArray<string>>,
): string => {
  let a = 0;
  let b = 0;
  for (const [table, cols] of columns) {
    const rows = db
      .prepare(`SELECT ${cols.join(", ")} FROM ${table} WHERE save_id = ?`)
      .raw()
      .all(saveId) as Array<Array<unknown>>;
    for (const row of rows) {
      const [x, y] = rowLanes(table, row);
      a = (a + x) % LANE;
      b = (b + y) % LANE;
    }
  }
  return `${hex(a)}${hex(b)}`;
};
