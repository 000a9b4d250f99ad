/**
 * The fast replay: refolds a save's projections from its log into a scratch database
 * (in memory unless given one), checking every Checkpoint's state hash as it passes.
 * The user's database is only read. The store imports the history as one bulk fold
 * (`SqliteEventLog.importHistory`: folded without the per-row digest triggers or a
 * second Schema decode), and at each Checkpoint hands over the digest of the state
 * folded through the event before it — the same the engine took when it wrote the
 * Checkpoint.
 *
 * A refold that only checks (the default) makes a scratch to throw away: a log on disk
 * is folded from where it lies, with no event row copied, and the scratch's indexes and
 * full-text search are not rebuilt at the end — on a 1,000-NPC year those were a third
 * of the refold. `keepScratch` makes a whole store of the refolded save instead, events
 * and search included, for queries (a dossier at a point in the past).
 *
 * A Checkpoint written before the store kept an incremental digest carries the sha256
 * of the full canonical projection state (64 hex digits); those are checked against the
 * same full-state hash of the refold.
 */
import type { EventType, SaveId, StoredEvent, Upcast } from "@hearsay/core";
import {
  type CheckpointProbe,
  hashProjectionState,
  InvalidEvent,
  openDatabase,
  SqliteEventLog,
} from "@hearsay/store";
import { ReplayRefused } from "./ReplayError.ts";

export interface RefoldOptions {
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  /** Refold through this seq (default: the head). */
  readonly untilSeq?: number;
  readonly upcast?: Upcast;
  /** Check each Checkpoint's state hash (default true). */
  readonly checkpoints?: boolean;
  /** Keep going after a checkpoint that does not match (default: stop there). */
  readonly keepGoing?: boolean;
  /** Sees every event, in seq order, before it is folded. */
  readonly onEvent?: (e: StoredEvent) => void;
  /**
   * The event types `onEvent` sees (default: every one). Seeing every event reads the
   * whole log into JS; seeing a few leaves SQLite its share of the fold.
   */
  readonly onEventTypes?: ReadonlyArray<EventType>;
  /** Called after each batch with the last seq folded and the last seq to fold. */
  readonly onProgress?: (seq: number, last: number) => void;
  /**
   * The scratch to fold into (default: a fresh in-memory database); must not hold the
   * save. Unless `keepScratch`, it is left fit only to be thrown away: no events, no
   * search, secondary indexes dropped.
   */
  readonly into?: SqliteEventLog;
  /** Return a whole, queryable store of the refolded save as `scratch` (default false). */
  readonly keepScratch?: boolean;
  /**
   * With `keepScratch`, whether the scratch holds the save's event rows too (default
   * true). Without them (a log on disk is then folded from where it lies) it holds the
   * read models, their indexes and search, and the save's head: enough for a dossier.
   */
  readonly keepEvents?: boolean;
}

/** One Checkpoint, checked. */
export interface CheckpointCheck {
  readonly seq: number;
  readonly t: number;
  readonly throughSeq: number;
  /** What the log says. */
  readonly expected: string;
  /** What the refold gives. */
  readonly actual: string;
}

export interface RefoldReport {
  readonly saveId: SaveId;
  /** The last seq folded. */
  readonly throughSeq: number;
  readonly folded: number;
  /** Checkpoints checked and found equal. */
  readonly checkpoints: number;
  /** The first checkpoint that did not match, or null. */
  readonly mismatch: CheckpointCheck | null;
  /** All checkpoints that did not match (more than one only with `keepGoing`). */
  readonly mismatches: ReadonlyArray<CheckpointCheck>;
  /** The scratch save's projection hash at the end. */
  readonly stateHash: string;
  /** With `keepScratch`, the store holding the refolded save (the caller closes it). */
  readonly scratch: SqliteEventLog | null;
}

/** The refold's hash in the scheme the recorded one was written in. */
const hashLike = (probe: CheckpointProbe, recorded: string): string => {
  const digest = probe.digest();
  if (recorded.length === digest.length) return digest;
  const full = hashProjectionState(probe.state());
  return recorded.length === full.length ? full : digest;
};

/** Refolds the save's projections from its log. */
export const refoldLog = (opts: RefoldOptions): RefoldReport => {
  const { log, saveId } = opts;
  const save = log.save(saveId);
  const last = Math.min(opts.untilSeq ?? save.head, save.head);
  const scratch = opts.into ?? new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  const check = opts.checkpoints ?? true;
  const keep = opts.keepScratch === true;
  const own = opts.into === undefined;
  const mismatches: Array<CheckpointCheck> = [];
  let checked = 0;
  let imported: { readonly head: number };
  try {
    imported = scratch.importHistory(log, {
      saveId: save.saveId,
      untilSeq: last,
      ...(keep ? (opts.keepEvents === false ? { withoutEvents: true } : {}) : { discard: true }),
      ...(opts.upcast ? { upcast: opts.upcast } : {}),
      ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
      ...(opts.onEventTypes ? { onEventTypes: opts.onEventTypes } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(check
        ? {
            onCheckpoint: (e, probe) => {
              const expected = e.payload.stateHash;
              const actual = hashLike(probe, expected);
              if (actual === expected && e.payload.throughSeq === probe.throughSeq) {
                checked += 1;
                return true;
              }
              mismatches.push({
                seq: e.seq,
                t: e.t,
                throughSeq: e.payload.throughSeq,
                expected,
                actual,
              });
              return opts.keepGoing === true;
            },
          }
        : {}),
    });
  } catch (e) {
    if (own) scratch.db.close();
    if (!(e instanceof InvalidEvent)) throw e;
    const seq = e.index + 1;
    const [read] = log.read(saveId, { fromSeq: seq, toSeq: seq });
    const bad = (opts.upcast && read ? opts.upcast(read) : read) as StoredEvent | undefined;
    throw new ReplayRefused({
      reason: `save "${saveId}": ${e.eventType ?? "an"} event at seq ${seq} (version ${bad?.version}) does not decode: ${e.detail}`,
      fix: "an event written at an older schema version needs its upcaster in core's eventUpcasters; otherwise the log is damaged",
    });
  }
  const stateHash = scratch.projectionHash(saveId);
  if (own && !keep) scratch.db.close();
  return {
    saveId,
    throughSeq: imported.head,
    folded: imported.head,
    checkpoints: checked,
    mismatch: mismatches[0] ?? null,
    mismatches,
    stateHash,
    scratch: keep ? scratch : null,
  };
};
