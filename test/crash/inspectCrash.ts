/**
 * The state a SIGKILL left behind, measured the way the next `hearsay run --resume`
 * would meet it: SQLite's own integrity check, the committed log compared with the
 * uninterrupted reference (a prefix of it, ending at a whole tick), and the projections
 * compared with a rebuild from the log (the read models caught up with the log first, as
 * a writable open does). It all runs inside a transaction that is rolled back, so
 * inspecting changes nothing the resume will see.
 */
import { existsSync, statSync } from "node:fs";
import { stateHash } from "@hearsay/core";
import { runGraphCollections } from "@hearsay/engine";
import { makeHashingEmbedder, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import Database from "better-sqlite3";
import { Effect } from "effect";
import { entriesHash, type LogEntry, logEntries } from "../support/logDigest.ts";
import { type CrashReference, SAVE } from "./crashReference.ts";

/** What one crash left. */
export interface CrashState {
  /** `PRAGMA integrity_check`'s answer ("ok" when sound). */
  readonly integrity: string;
  /** Committed events of the save (0 when nothing was committed). */
  readonly head: number;
  /** The type of the last committed event, if any. */
  readonly lastType: string | null;
  /** The committed log equals the reference's first `head` events. */
  readonly isPrefix: boolean;
  /** Where it first differs from the reference (null when it is a prefix of it). */
  readonly firstDifference: string | null;
  /** The log ends at a batch boundary: nothing, the whole genesis, or a ClockAdvanced. */
  readonly wholeTick: boolean;
  /** The projection hash as found, and after rebuilding from the log (null: no save). */
  readonly projectionHash: string | null;
  readonly rebuiltHash: string | null;
}

const integrityOf = (path: string): string => {
  const raw = new Database(path);
  try {
    const rows = raw.pragma("integrity_check") as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join("; ");
  } finally {
    raw.close();
  }
};

const describeDifference = (
  found: ReadonlyArray<LogEntry>,
  expected: ReadonlyArray<LogEntry>,
): string => {
  const i = found.findIndex((e, k) => stateHash(e) !== stateHash(expected[k] ?? null));
  const show = (e: LogEntry | undefined) =>
    e === undefined ? "nothing" : JSON.stringify(e).slice(0, 300);
  return `seq ${i + 1}: found ${show(found[i])}, expected ${show(expected[i])}`;
};

/**
 * What opening the vector index beside the database finds, per collection
 * (`loaded`: the saved files are whole and match SQLite).
 */
export const indexOutcomes = (path: string): ReadonlyArray<string> => {
  const db = openDatabase(path);
  try {
    const { reports } = Effect.runSync(
      // As a run opens them: graphs for what many know, memories embedded when searched.
      VectorIndexes.open(db, makeHashingEmbedder(), {
        dbPath: path,
        graphCollections: runGraphCollections,
      }),
    );
    return reports.map(
      (r) => `${r.collection} ${r.outcome}${r.outcome === "loaded" ? "" : ` (${r.reason})`}`,
    );
  } finally {
    db.close();
  }
};

/** The state of a database (or of no file at all) that holds no event of the save. */
const nothingCommitted = (integrity: string): CrashState => ({
  integrity,
  head: 0,
  lastType: null,
  isPrefix: true,
  firstDifference: null,
  wholeTick: true,
  projectionHash: null,
  rebuiltHash: null,
});

/** Inspects the database a killed run left at `path`. */
export const inspectCrash = (path: string, reference: CrashReference): CrashState => {
  if (!existsSync(path) || statSync(path).size === 0) {
    return nothingCommitted("ok");
  }
  const integrity = integrityOf(path);
  const db = openDatabase(path);
  // Everything is read inside one transaction that is rolled back: a writable open catches
  // the read models up with the log (a run appends log rows only), and the resume must
  // meet the file as the kill left it.
  db.exec("BEGIN IMMEDIATE");
  try {
    const log = new SqliteEventLog(db);
    if (!log.saves().some((s) => s.saveId === SAVE)) {
      return nothingCommitted(integrity);
    }
    const entries = logEntries(log, SAVE);
    const head = entries.length;
    const lastType = entries[head - 1]?.type ?? null;
    const isPrefix =
      head <= reference.head &&
      entriesHash(entries) === entriesHash(reference.entries.slice(0, head));
    const firstDifference = isPrefix ? null : describeDifference(entries, reference.entries);
    const wholeTick =
      head === 0 || head === reference.genesisLength || lastType === "ClockAdvanced";
    const projectionHash = log.projectionHash(SAVE);
    log.rebuildProjections(SAVE);
    const rebuiltHash = log.projectionHash(SAVE);
    return {
      integrity,
      head,
      lastType,
      isPrefix,
      firstDifference,
      wholeTick,
      projectionHash,
      rebuiltHash,
    };
  } finally {
    db.exec("ROLLBACK");
    db.close();
  }
};
