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

/**
 * Columns added to a projection table after its rows were first digested: how many end
 * the table's digest columns. A late column counts in a row's value only when it is not
 * null (trailing nulls among them are left out), so a row that leaves it null — every row
 * written before it existed — hashes as it always did, and a log recorded before it keeps
 * its checkpoint hashes.
 */
export const lateDigestColumns: ReadonlyMap<string, number> = new Map([
  // WorldEventOccurred v2's `lapsesAt` (schema version 6).
  ["world_events", 1],
]);
const LANE = 2 ** 48;

/**
 * A row's two lanes: cyrb53 (a fast, well-mixed 53-bit string hash — not a
 * cryptographic one), seeded 1 and 2, over the key `table` followed by each value as
 * `\u0001` plus a type mark — `n` and the number, `s` and the text, or `\u0000` for null —
 * so "1" and 1 differ. Both seeds run in one pass over the key's pieces, without building
 * the key: this is the hot loop of every digest update and recomputation.
 */
export const rowLanes = (table: string, row: ReadonlyArray<unknown>): readonly [number, number] => {
  let end = row.length;
  const late = lateDigestColumns.get(table);
  if (late !== undefined) {
    const first = row.length - late;
    while (end > first && row[end - 1] === null) end--;
  }
  let a1 = 0xdeadbeef ^ 1;
  let a2 = 0x41c6ce57 ^ 1;
  let b1 = 0xdeadbeef ^ 2;
  let b2 = 0x41c6ce57 ^ 2;
  // Piece -1 is the table name; piece j ≥ 0 is "\u0001", a type mark, and the value's text.
  let text = table;
  for (let j = -1; j < end; j++) {
    if (j >= 0) {
      const v = row[j];
      const mark = v === null ? 0 : typeof v === "number" ? 110 /* n */ : 115; /* s */
      a1 = Math.imul(a1 ^ 1, 2654435761);
      a2 = Math.imul(a2 ^ 1, 1597334677);
      b1 = Math.imul(b1 ^ 1, 2654435761);
      b2 = Math.imul(b2 ^ 1, 1597334677);
      a1 = Math.imul(a1 ^ mark, 2654435761);
      a2 = Math.imul(a2 ^ mark, 1597334677);
      b1 = Math.imul(b1 ^ mark, 2654435761);
      b2 = Math.imul(b2 ^ mark, 1597334677);
      if (v === null) continue;
      text = typeof v === "string" ? v : String(v);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a1 = Math.imul(a1 ^ c, 2654435761);
      a2 = Math.imul(a2 ^ c, 1597334677);
      b1 = Math.imul(b1 ^ c, 2654435761);
      b2 = Math.imul(b2 ^ c, 1597334677);
    }
  }
  return [finish(a1, a2), finish(b1, b2)];
};

/**
 * cyrb53's final mix of its two 32-bit states into 53 bits, taken modulo 2^48: the high
 * word keeps its low 16 bits (of cyrb53's 21), which is the remainder without a float
 * division.
 */
const finish = (h1: number, h2: number): number => {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (0xffff & h2) + (h1 >>> 0);
};

/**
 * `(lane + sign * value) mod 2^48` for a lane and a value already in [0, 2^48): the sum
 * is within one modulus of the range, so one correction gives the remainder (exactly:
 * every number here is an integer below 2^53).
 */
export const addLane = (lane: number, sign: number, value: number): number => {
  const x = lane + sign * value;
  return x >= LANE ? x - LANE : x < 0 ? x + LANE : x;
};

/** Per-connection deltas of each save's digest, since the last flush. */
export class DigestTally {
  private readonly deltas = new Map<string, [number, number]>();
  private flushStmt: SqliteStatement | null = null;

  constructor(private readonly db: SqliteDatabase) {
    const add = (sign: unknown, save: unknown, table: unknown, ...row: Array<unknown>): null => {
      const [a, b] = rowLanes(String(table), row);
      const key = String(save);
      let d = this.deltas.get(key);
      if (d === undefined) {
        d = [0, 0];
        this.deltas.set(key, d);
      }
      const s = sign === 1 ? 1 : -1;
      d[0] = addLane(d[0], s, a);
      d[1] = addLane(d[1], s, b);
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

  /** Drops one save's pending deltas (its digest is about to be set outright). */
  forget(saveId: string): void {
    this.deltas.delete(saveId);
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

/**
 * `withDigest` for work that awaits: one write-locked (immediate) transaction around all
 * of `work`, so every append it makes commits together, or — when it throws — none does.
 * Nested calls join the outer transaction. The lock is held while `work` awaits: another
 * connection's writes wait for it (and give up after its busy timeout), so nothing can
 * come between the appends of one piece of work.
 */
export const withDigestAsync = async <A>(
  db: SqliteDatabase,
  work: () => Promise<A>,
): Promise<A> => {
  const tally = digestTally(db);
  if (db.inTransaction) return work();
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = await work();
    tally.flush();
    db.exec("COMMIT");
    return out;
  } catch (e) {
    tally.discard();
    if (db.inTransaction) db.exec("ROLLBACK");
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

/**
 * A trigger's report of one row of a table with late columns (`lateDigestColumns`): the
 * call leaves out the trailing late columns that are null, as `rowLanes` does.
 */
const reportLate = (
  sign: 1 | -1,
  table: string,
  cols: ReadonlyArray<string>,
  late: number,
  row: "NEW" | "OLD",
): string => {
  const call = (n: number) =>
    `${DIGEST_FN}(${sign}, ${row}.save_id, '${table}', ${cols
      .slice(0, n)
      .map((c) => `${row}.${c}`)
      .join(", ")})`;
  const branches: Array<string> = [];
  for (let n = cols.length; n > cols.length - late; n--)
    branches.push(`WHEN ${row}.${cols[n - 1]} IS NOT NULL THEN ${call(n)}`);
  return `SELECT CASE ${branches.join(" ")} ELSE ${call(cols.length - late)} END;`;
};

/**
 * The digest triggers of a table whose late columns (`lateDigestColumns`, the last of
 * `cols`) a migration has just added, in place of the ones it had. Rows already there
 * hold null in them, so their tally is unchanged.
 */
export const lateDigestTriggersSql = (table: string, cols: ReadonlyArray<string>): string => {
  const late = lateDigestColumns.get(table) ?? 0;
  const r = (sign: 1 | -1, row: "NEW" | "OLD") => reportLate(sign, table, cols, late, row);
  return [
    `DROP TRIGGER ${table}_digest_insert;`,
    `DROP TRIGGER ${table}_digest_delete;`,
    `DROP TRIGGER ${table}_digest_update;`,
    `CREATE TRIGGER ${table}_digest_insert AFTER INSERT ON ${table} BEGIN ${r(1, "NEW")} END;`,
    `CREATE TRIGGER ${table}_digest_delete AFTER DELETE ON ${table} BEGIN ${r(-1, "OLD")} END;`,
    `CREATE TRIGGER ${table}_digest_update AFTER UPDATE ON ${table} BEGIN ${r(-1, "OLD")} ${r(1, "NEW")} END;`,
  ].join("\n");
};

/**
 * The digest triggers for projection tables a later migration adds (`projection_digest`
 * already exists then), and the tally of any rows those tables already hold.
 */
export const digestTriggersSql = (columns: ReadonlyMap<string, ReadonlyArray<string>>): string => {
  const parts: Array<string> = [];
  for (const [table, cols] of columns) {
    parts.push(
      `CREATE TRIGGER ${table}_digest_insert AFTER INSERT ON ${table} BEGIN ${report(1, table, cols, "NEW")} END;`,
      `CREATE TRIGGER ${table}_digest_delete AFTER DELETE ON ${table} BEGIN ${report(-1, table, cols, "OLD")} END;`,
      `CREATE TRIGGER ${table}_digest_update AFTER UPDATE ON ${table} BEGIN ${report(-1, table, cols, "OLD")} ${report(1, table, cols, "NEW")} END;`,
      `SELECT ${DIGEST_FN}(1, save_id, '${table}', ${cols.join(", ")}) FROM ${table};`,
    );
  }
  return parts.join("\n");
};

const hex = (n: number) => n.toString(16).padStart(12, "0");

/** Two lanes as the 24 hex digits a digest is shown as. */
export const digestHex = (a: number, b: number): string => `${hex(a)}${hex(b)}`;

/** A save's projection digest as 24 hex digits (all zeros for an empty state). */
export const readDigest = (db: SqliteDatabase, saveId: string): string => {
  const row = db.prepare("SELECT a, b FROM projection_digest WHERE save_id = ?").get(saveId) as
    | { a: number; b: number }
    | undefined;
  return row === undefined ? "0".repeat(24) : digestHex(row.a, row.b);
};

/**
 * Where a database file's read models stand, as one string: its schema version and, for
 * every save, its row in `saves` (head, projected seq, key space) and its projection
 * digest, read in one snapshot. Two equal levels of one file hold the same projection
 * rows under the same rowids: the rows and their keys follow from the log by the store's
 * rules, every write moves a head or a digest (the triggers see every column of every
 * row written), and a migration moves the schema version. A cache kept beside the file
 * (the vector index) notes the level it was written at, and an open that finds the file
 * still at it trusts the cache without reading the tables. Null for a file older than
 * the digest, and while a save's read models are behind its log: there is nothing to
 * compare.
 */
export const databaseLevel = (db: SqliteDatabase): string | null =>
  db.transaction(() => {
    const digested = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projection_digest'")
      .get();
    if (digested === undefined) return null;
    const schema = db.prepare("SELECT max(version) FROM schema_migrations").pluck().get();
    const saves = db.prepare("SELECT * FROM saves ORDER BY save_id").all() as Array<{
      projected_seq?: number | null;
    }>;
    // Read models behind their log (`EventAppend.catchUp`) are at no level yet.
    if (saves.some((s) => s.projected_seq != null)) return null;
    const digests = db
      .prepare("SELECT save_id, a, b FROM projection_digest ORDER BY save_id")
      .raw()
      .all();
    return JSON.stringify({ schema, saves, digests });
  })();

/**
 * The lanes of every row of one save in one table, summed. Rows are streamed, not read
 * as one array: a 1,000-NPC year's knowledge table has 3M rows.
 */
export const tableLanes = (
  db: SqliteDatabase,
  saveId: string,
  table: string,
  cols: ReadonlyArray<string>,
): readonly [number, number] => {
  let a = 0;
  let b = 0;
  const stmt = db.prepare(`SELECT ${cols.join(", ")} FROM ${table} WHERE save_id = ?`).raw();
  for (const row of stmt.iterate(saveId) as IterableIterator<Array<unknown>>) {
    const [x, y] = rowLanes(table, row);
    a = (a + x) % LANE;
    b = (b + y) % LANE;
  }
  return [a, b];
};

/**
 * Recomputes a save's digest from its rows, ignoring the maintained one: what the
 * triggers must always agree with (tests and replays use it as a check), and how a bulk
 * fold sets the digest once at its end.
 */
export const recomputeDigest = (
  db: SqliteDatabase,
  saveId: string,
  columns: ReadonlyMap<string, ReadonlyArray<string>>,
): string => {
  let a = 0;
  let b = 0;
  for (const [table, cols] of columns) {
    const [x, y] = tableLanes(db, saveId, table, cols);
    a = (a + x) % LANE;
    b = (b + y) % LANE;
  }
  return digestHex(a, b);
};

/**
 * Sets a save's digest outright (after a fold that ran with the triggers paused) and
 * drops any delta still pending for it on this connection. Call inside the transaction.
 */
export const writeDigest = (db: SqliteDatabase, saveId: string, digest: string): void => {
  digestTally(db).forget(saveId);
  db.prepare(
    `INSERT INTO projection_digest (save_id, a, b) VALUES (?, ?, ?)
     ON CONFLICT (save_id) DO UPDATE SET a = excluded.a, b = excluded.b`,
  ).run(saveId, Number.parseInt(digest.slice(0, 12), 16), Number.parseInt(digest.slice(12), 16));
};

/**
 * Drops the digest triggers (whatever tables they are on: found by the function they
 * call) and returns the function that recreates them. For bulk folds, which set the
 * digest once at the end instead of paying a JS call per row written. Call inside a
 * write transaction, so no other connection ever sees the triggers missing; a rollback
 * brings them back by itself.
 */
export const pauseDigestTriggers = (db: SqliteDatabase): (() => void) => {
  const triggers = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE ?")
    .all(`%${DIGEST_FN}(%`) as Array<{ name: string; sql: string }>;
  for (const t of triggers) db.exec(`DROP TRIGGER "${t.name}"`);
  return () => {
    for (const t of triggers) db.exec(t.sql);
  };
};
