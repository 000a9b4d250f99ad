/**
 * The database as an Effect service: one connection, opened (and migrated) when the layer
 * is built and closed when its scope ends, with the store over it. `EventLog`,
 * `Projections` and `Snapshots` are built on this service so they share one connection
 * and one set of prepared statements.
 */
import { Context, Effect, Layer } from "effect";
import { type OpenDatabaseOptions, openDatabase, type SqliteDatabase } from "./openDatabase.ts";
import { type EventLogOptions, SqliteEventLog } from "./SqliteEventLog.ts";
import type {
  DatabaseUnavailable,
  FutureSchemaVersion,
  MigrationFailed,
  NotADatabase,
  StoreFailure,
} from "./StoreError.ts";
import { storeEffect } from "./storeEffect.ts";

/** Errors opening a database can raise. */
export type OpenError =
  | NotADatabase
  | FutureSchemaVersion
  | MigrationFailed
  | DatabaseUnavailable
  | StoreFailure;

/** Options for {@link StoreDatabase.layer}. */
export interface StoreDatabaseOptions extends OpenDatabaseOptions, EventLogOptions {}

export class StoreDatabase extends Context.Service<
  StoreDatabase,
  {
    /** The path the database was opened from (`:memory:` for an in-memory one). */
    readonly path: string;
    /** The raw connection, for read-only queries by other packages' adapters. */
    readonly db: SqliteDatabase;
    /** The synchronous store over the connection. */
    readonly log: SqliteEventLog;
  }
>()("@hearsay/store/StoreDatabase") {
  /** Opens (creating and migrating) the database at `path`; closes it with the scope. */
  static readonly layer = (
    path: string,
    opts: StoreDatabaseOptions = {},
  ): Layer.Layer<StoreDatabase, OpenError> =>
    Layer.effect(
      StoreDatabase,
      Effect.gen(function* () {
        const db = yield* Effect.acquireRelease(
          storeEffect<SqliteDatabase, OpenError>("open", () => openDatabase(path, opts)),
          (db) => Effect.sync(() => db.close()),
        );
        const log = new SqliteEventLog(db, opts);
        return StoreDatabase.of({ path, db, log });
      }),
    );

  /** A fresh in-memory database, for tests. */
  static readonly layerMemory = (
    opts: StoreDatabaseOptions = {},
  ): Layer.Layer<StoreDatabase, OpenError> => StoreDatabase.layer(":memory:", opts);
}
