/**
 * @hearsay/store — the event-sourced store: migrations, the append-only event log, the
 * projector and its read models (with FTS5), snapshots, saves and branches; a synchronous
 * API (`openDatabase`, `SqliteEventLog`) that the engine, the CLI and the server call directly.
 */

export {
  asDatabaseError,
  checkDatabaseFile,
} from "./databaseFile.ts";
export {
  type EngineSnapshotFigures,
  type EngineSnapshotInfo,
  EngineSnapshotStore,
  engineSnapshotFigures,
} from "./EngineSnapshotStore.ts";
export type { SaveInfo, Segment } from "./EventHistory.ts";
export { type FallbackKind, fallbackKindOf, fallbackKinds } from "./fallbackKind.ts";
export { findDamage } from "./findDamage.ts";
export { ItemKeyFold, type KeyChange, pairId } from "./ItemKeyFold.ts";
export {
  ITEM_KEY_SPACE,
  KEY_SPACES,
  type KeyedTable,
  keyedTables,
  keySpaceBase,
} from "./ItemKeys.ts";
export type {
  CheckpointEvent,
  CheckpointProbe,
  ImportOptions,
  ImportResult,
} from "./importHistory.ts";
export type { KnownItem } from "./KnowledgeQueries.ts";
export { type CallFigures, type LlmCallStats, llmCallStats } from "./LlmCallStats.ts";
export {
  migrate,
  type OpenDatabaseOptions,
  openDatabase,
  type SqliteDatabase,
  type SqliteStatement,
  schemaVersion,
} from "./openDatabase.ts";
export { openForReading } from "./openForReading.ts";
export { type OpenForWritingOptions, openForWriting } from "./openForWriting.ts";
export {
  DIGEST_FN,
  databaseLevel,
  lateDigestColumns,
  readDigest,
  recomputeDigest,
} from "./ProjectionDigest.ts";
export {
  hashProjectionState,
  type ProjectionRow,
  type ProjectionState,
  type ProjectionTable,
  projectionKeys,
} from "./ProjectionState.ts";
export type { Snapshot, SnapshotInfo } from "./SnapshotStore.ts";
export {
  type AppendResult,
  type EventLogOptions,
  type NewSave,
  SqliteEventLog,
} from "./SqliteEventLog.ts";
export {
  DatabaseBusy,
  DatabaseDamaged,
  DatabaseLocked,
  DatabaseMissing,
  DatabaseUnavailable,
  FutureSchemaVersion,
  InvalidBranchPoint,
  InvalidEvent,
  isStoreError,
  MigrationFailed,
  NotADatabase,
  NotAHearsayDatabase,
  ReadModelsBehind,
  SaveExists,
  SnapshotNotFound,
  StaleSeq,
  type StoreError,
  StoreFailure,
  toStoreError,
  UnknownSave,
} from "./StoreError.ts";
export {
  ftsTables,
  type Migration,
  migrations,
  projectionDigestColumns,
  projectionTables,
  SCHEMA_VERSION,
  unreadIndexes,
} from "./schema.sql.ts";
export { acquireWriterLock, lockPathOf, type WriterLock } from "./WriterLock.ts";
