/**
 * Opening a hearsay database: refuse what is not SQLite, another program's SQLite file
 * (never migrated into: a file with tables and no hearsay schema version is left as it
 * is) or what a newer build wrote, set the pragmas the store relies on (WAL, foreign keys, synchronous=NORMAL, the page
 * cache) and bring the schema up to date. Migrations are idempotent: each runs once, in
 * its own transaction, and is recorded both in `PRAGMA user_version` (the authority) and
 * in the `schema_migrations` table (the human-readable history).
 *
 * This is the low-level opener (tests, benches, in-memory scratch databases). The CLI
 * opens files only through `openForReading` and `openForWriting`, which add the writer
 * lock and the stricter checks on top of it.
 */
import "./sqliteUri.ts";
import Database from "better-sqlite3";
import { asDatabaseError, checkDatabaseFile, checkHearsaySchema } from "./databaseFile.ts";
import { digestTallyOf, registerDigest } from "./ProjectionDigest.ts";
import { DatabaseUnavailable, FutureSchemaVersion, MigrationFailed } from "./StoreError.ts";
import { migrations as defaultMigrations, type Migration } from "./schema.sql.ts";
import { plainPath } from "./sqliteUri.ts";

/** A better-sqlite3 connection. */
export type SqliteDatabase = Database.Database;
/**
 * A prepared statement taking positional (or one object of named) parameters. An
 * interface rather than an alias so that declarations built from it can name it.
 */
export interface SqliteStatement extends Database.Statement<Array<unknown>> {}

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** The migrations to apply (default: this build's schema). Tests pass their own. */
  readonly migrations?: ReadonlyArray<Migration>;
  /** Called once for each migration actually applied, in order. */
  readonly onMigrate?: (migration: Migration) => void;
  /**
   * Keep SQLite's temporary files in memory (`temp_store = MEMORY`): the append worker's
   * connection, whose every tick runs multi-row statements (SqlFold.ts) whose statement
   * journals, and its scratch tables' journal, would otherwise go to files in /var/tmp —
   * a write call for each page, a temp file opened and deleted for most ticks. Only for
   * connections whose temporary data stays small: a bulk fold's scratch tables and sorts
   * grow with the log, so other connections keep the default (files).
   */
  readonly tempInMemory?: boolean;
}

const errorText = (u: unknown): string => (u instanceof Error ? u.message : String(u));

/** The schema version a database is at (`PRAGMA user_version`). */
export const schemaVersion = (db: SqliteDatabase): number =>
  db.pragma("user_version", { simple: true }) as number;

/**
 * Applies every migration newer than the database's version, each in one transaction.
 * Returns the versions applied (empty when the database was up to date).
 */
export const migrate = (
  db: SqliteDatabase,
  path: string,
  migrations: ReadonlyArray<Migration> = defaultMigrations,
  onMigrate?: (migration: Migration) => void,
): ReadonlyArray<number> => {
  const supported = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const found = schemaVersion(db);
  if (found > supported) throw new FutureSchemaVersion({ path, found, supported });
  const pending = [...migrations]
    .filter((m) => m.version > found)
    .sort((a, b) => a.version - b.version);
  const applied: Array<number> = [];
  for (const m of pending) {
    const run = db.transaction(() => {
      db.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)",
      );
      db.exec(m.sql);
      digestTallyOf(db)?.flush();
      db.prepare("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(
        m.version,
        m.name,
      );
      db.pragma(`user_version = ${Math.trunc(m.version)}`);
    });
    try {
      run();
    } catch (e) {
      throw new MigrationFailed({ path, version: m.version, name: m.name, detail: errorText(e) });
    }
    applied.push(m.version);
    onMigrate?.(m);
  }
  return applied;
};

/** The page cache limit every connection gets, in the pragma's units (negative: KiB). */
const PAGE_CACHE_KIB = -262_144;

/**
 * WAL pages a commit may leave before it copies the WAL back into the file (SQLite's
 * default: 1,000, 4 MiB). A run's ticks rewrite the same pages (the log's and indexes'
 * right edges, every NPC's activity row): a checkpoint copies each page once however
 * often it was committed since the last, so fewer, larger checkpoints copy less.
 */
const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Opens (creating if needed) a hearsay database at `path` (or `":memory:"`), with WAL,
 * `foreign_keys=ON`, `synchronous=NORMAL`, a 256 MiB page cache and a checkpoint every ~40 MiB of WAL, and migrates it to
 * this build's schema.
 *
 * @throws NotADatabase when the file is not SQLite
 * @throws NotAHearsayDatabase when it is another program's SQLite database (unchanged)
 * @throws DatabaseDamaged when it is cut short or its schema cannot be read
 * @throws FutureSchemaVersion when a newer build wrote it (nothing is changed)
 * @throws MigrationFailed when a migration fails (the database stays at the prior version)
 * @throws DatabaseUnavailable when the file cannot be opened at all
 */
export const openDatabase = (path: string, opts: OpenDatabaseOptions = {}): SqliteDatabase => {
  if (path !== ":memory:" && path !== "") checkDatabaseFile(path);
  let db: SqliteDatabase;
  try {
    db = new Database(plainPath(path));
  } catch (e) {
    throw new DatabaseUnavailable({ path, detail: errorText(e) });
  }
  try {
    // The first read is where SQLite discovers a file is not a database; nothing is
    // written before the file is known to be new or hearsay's own.
    const migrationList = opts.migrations ?? defaultMigrations;
    const supported = migrationList.reduce((max, m) => Math.max(max, m.version), 0);
    checkHearsaySchema(db, path, supported, true);
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    // SQLite's default page cache is 2 MiB; a long run's indexes (events, knowledge,
    // memories, FTS) outgrow that within days, and every miss is a read call. 256 MiB
    // makes a long run's late days faster and keeps a bulk fold's writes from spilling to
    // the journal before commit. Pages are taken as used.
    db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    // Before any temporary table exists: changing it later would drop them.
    if (opts.tempInMemory === true) db.pragma("temp_store = MEMORY");
    // The projection digest's triggers report every projection write to this tally.
    registerDigest(db);
    migrate(db, path, migrationList, opts.onMigrate);
    return db;
  } catch (e) {
    db.close();
    throw asDatabaseError(path, e);
  }
};
