/**
 * The store's typed errors. Each is a `Schema.TaggedError` (so Effect code can catch it
 * by tag) and also a plain `Error` that the synchronous API throws. Every one carries the
 * fields a CLI needs to say, in one line, which file or save, which field, and the fix:
 * its `message` is that line.
 */
import { Schema } from "effect";

/** The file exists but is not an SQLite database. */
export class NotADatabase extends Schema.TaggedError<NotADatabase>()("NotADatabase", {
  path: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: not an SQLite database (${this.detail}); pass a hearsay database file or a new path`;
  }
}

/** The database was written by a newer hearsay than this one. */
export class FutureSchemaVersion extends Schema.TaggedError<FutureSchemaVersion>()(
  "FutureSchemaVersion",
  {
    path: Schema.String,
    found: Schema.Number,
    supported: Schema.Number,
  },
) {
  override get message(): string {
    return `${this.path}: schema version ${this.found} is newer than this build supports (${this.supported}); upgrade hearsay or open a copy made by this version`;
  }
}

/** A migration failed; the database is left at the version before it. */
export class MigrationFailed extends Schema.TaggedError<MigrationFailed>()("MigrationFailed", {
  path: Schema.String,
  version: Schema.Number,
  name: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: migration ${this.version} (${this.name}) failed: ${this.detail}; the database is unchanged at the previous version`;
  }
}

/** The database could not be opened at all (missing directory, permissions, …). */
export class DatabaseUnavailable extends Schema.TaggedError<DatabaseUnavailable>()(
  "DatabaseUnavailable",
  {
    path: Schema.String,
    detail: Schema.String,
  },
) {
  override get message(): string {
    return `${this.path}: cannot open database (${this.detail}); check the path and its permissions`;
  }
}

/** A save's read models lag its log (a run was stopped before catching them up). */
export class ReadModelsBehind extends Schema.TaggedError<ReadModelsBehind>()("ReadModelsBehind", {
  path: Schema.String,
  saveId: Schema.String,
  projectedSeq: Schema.Number,
  head: Schema.Number,
}) {
  override get message(): string {
    return `${this.path}: save ${this.saveId}'s read models stop at seq ${this.projectedSeq} of ${this.head} (a run was stopped before catching them up); resume the run (hearsay run --resume --db ${this.path}) to catch them up`;
  }
}

/** Another connection holds the database's write lock past the busy timeout. */
export class DatabaseBusy extends Schema.TaggedError<DatabaseBusy>()("DatabaseBusy", {
  path: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: another process is writing to this database (a run, a chat's skip, serve); nothing was written — retry when it is done`;
  }
}

/** There is no file where a database to read was expected. */
export class DatabaseMissing extends Schema.TaggedError<DatabaseMissing>()("DatabaseMissing", {
  path: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: no such file; pass the --db of a recorded run (\`hearsay run --db PATH\`)`;
  }
}

/** An SQLite file that is not a hearsay database: empty, foreign tables, or no `saves`. */
export class NotAHearsayDatabase extends Schema.TaggedError<NotAHearsayDatabase>()(
  "NotAHearsayDatabase",
  {
    path: Schema.String,
    detail: Schema.String,
  },
) {
  override get message(): string {
    return `${this.path}: not a hearsay database (${this.detail}); pass the --db of a hearsay run, or a path where no file is yet`;
  }
}

/** The file is a hearsay database whose bytes are damaged (truncated, corrupt pages). */
export class DatabaseDamaged extends Schema.TaggedError<DatabaseDamaged>()("DatabaseDamaged", {
  path: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: the database is damaged (${this.detail}); restore it from a copy`;
  }
}

/** Another process holds the database's writer lock. */
export class DatabaseLocked extends Schema.TaggedError<DatabaseLocked>()("DatabaseLocked", {
  path: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: another hearsay process (run, chat, serve or branch) is writing it; stop that process first or use another --db (nothing was changed)`;
  }
}

/** An append's expected seq is not the save's head: someone else appended first. */
export class StaleSeq extends Schema.TaggedError<StaleSeq>()("StaleSeq", {
  saveId: Schema.String,
  expectedSeq: Schema.Number,
  headSeq: Schema.Number,
}) {
  override get message(): string {
    return `save ${this.saveId}: expectedSeq ${this.expectedSeq} is stale (head is ${this.headSeq}); re-read the head and retry; nothing was written`;
  }
}

/** An event in an append batch does not decode; the whole batch is refused. */
export class InvalidEvent extends Schema.TaggedError<InvalidEvent>()("InvalidEvent", {
  saveId: Schema.String,
  index: Schema.Number,
  eventType: Schema.NullOr(Schema.String),
  detail: Schema.String,
}) {
  override get message(): string {
    const what = this.eventType === null ? "event" : `${this.eventType} event`;
    return `save ${this.saveId}: ${what} at index ${this.index} does not decode: ${this.detail}; fix that event; nothing was written`;
  }
}

/** No save with that id. */
export class UnknownSave extends Schema.TaggedError<UnknownSave>()("UnknownSave", {
  saveId: Schema.String,
}) {
  override get message(): string {
    return `save ${this.saveId}: no such save; list saves or create it first`;
  }
}

/** A save with that id already exists. */
export class SaveExists extends Schema.TaggedError<SaveExists>()("SaveExists", {
  saveId: Schema.String,
}) {
  override get message(): string {
    return `save ${this.saveId}: already exists; choose another save id`;
  }
}

/** A branch point outside the parent's history (below 0 or past its head). */
export class InvalidBranchPoint extends Schema.TaggedError<InvalidBranchPoint>()(
  "InvalidBranchPoint",
  {
    saveId: Schema.String,
    parentSaveId: Schema.String,
    seq: Schema.Number,
    parentHead: Schema.Number,
  },
) {
  override get message(): string {
    return `save ${this.saveId}: branch seq ${this.seq} is outside parent ${this.parentSaveId} (0..${this.parentHead}); pick a seq within the parent's log`;
  }
}

/** No snapshot of that save at or before the asked seq. */
export class SnapshotNotFound extends Schema.TaggedError<SnapshotNotFound>()("SnapshotNotFound", {
  saveId: Schema.String,
  seq: Schema.NullOr(Schema.Number),
}) {
  override get message(): string {
    const at = this.seq === null ? "" : ` at or before seq ${this.seq}`;
    return `save ${this.saveId}: no snapshot${at}; take one or rebuild from the log`;
  }
}

/** An unexpected SQLite failure (disk full, I/O error, corrupt page, …). */
export class StoreFailure extends Schema.TaggedError<StoreFailure>()("StoreFailure", {
  operation: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `store ${this.operation} failed: ${this.detail}`;
  }
}

/** Every error the store raises. */
export type StoreError =
  | NotADatabase
  | FutureSchemaVersion
  | MigrationFailed
  | DatabaseUnavailable
  | DatabaseBusy
  | DatabaseMissing
  | NotAHearsayDatabase
  | DatabaseDamaged
  | DatabaseLocked
  | StaleSeq
  | InvalidEvent
  | UnknownSave
  | SaveExists
  | InvalidBranchPoint
  | SnapshotNotFound
  | ReadModelsBehind
  | StoreFailure;

const storeErrorTags = new Set([
  "NotADatabase",
  "FutureSchemaVersion",
  "MigrationFailed",
  "DatabaseUnavailable",
  "DatabaseBusy",
  "DatabaseMissing",
  "NotAHearsayDatabase",
  "DatabaseDamaged",
  "DatabaseLocked",
  "StaleSeq",
  "InvalidEvent",
  "UnknownSave",
  "SaveExists",
  "InvalidBranchPoint",
  "SnapshotNotFound",
  "ReadModelsBehind",
  "StoreFailure",
]);

/** True for any of the store's typed errors. */
export const isStoreError = (u: unknown): u is StoreError =>
  typeof u === "object" &&
  u !== null &&
  "_tag" in u &&
  storeErrorTags.has((u as { _tag: unknown })._tag as string);

/** Keeps a store error as it is; wraps anything else thrown by SQLite as a `StoreFailure`. */
export const toStoreError = (operation: string, u: unknown): StoreError =>
  isStoreError(u)
    ? u
    : new StoreFailure({ operation, detail: u instanceof Error ? u.message : String(u) });

/** SQLite's "the database is locked" (another connection holds the write lock). */
export const isSqliteBusy = (e: unknown): boolean =>
  typeof e === "object" &&
  e !== null &&
  typeof (e as { code?: unknown }).code === "string" &&
  (e as { code: string }).code.startsWith("SQLITE_BUSY");
