/**
 * The fast replay: refolds a save's projections from its log into a scratch database
 * (in memory unless given one), checking every Checkpoint's state hash as it passes.
 * The user's database is only read. Events go through the store's own append (decode,
 * projector) in batches that end just before each Checkpoint, so the hash compared is
 * the scratch save's projection hash after exactly `throughSeq` — the same the engine
 * took when it wrote the Checkpoint.
 *
 * A Checkpoint written before the store kept an incremental digest carries the sha256
 * of the full canonical projection state (64 hex digits); those are checked against the
 * same full-state hash of the refold.
 */
import type { Event, SaveId, StoredEvent, Upcast } from "@hearsay/core";
import { hashProjectionState, InvalidEvent, openDatabase, SqliteEventLog } from "@hearsay/store";
import { ReplayRefused } from "./ReplayError.ts";
import { historyPages } from "./readHistory.ts";

/** Events appended to the scratch per transaction at most. */
const BATCH = 8192;

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
  /** Called after each batch with the last seq folded and the last seq to fold. */
  readonly onProgress?: (seq: number, last: number) => void;
  /** The scratch to fold into (default: a fresh in-memory database); must not hold the save. */
  readonly into?: SqliteEventLog;
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
  /** The scratch holding the refolded save (for inspection). */
  readonly scratch: SqliteEventLog;
}

/** The scratch's hash in the scheme the recorded one was written in. */
const hashLike = (scratch: SqliteEventLog, saveId: string, recorded: string): string => {
  const digest = scratch.projectionHash(saveId);
  if (recorded.length === digest.length) return digest;
  const full = hashProjectionState(scratch.projectionState(saveId));
  return recorded.length === full.length ? full : digest;
};

const strip = (e: StoredEvent): Event =>
  ({ type: e.type, version: e.version, id: e.id, t: e.t, payload: e.payload }) as Event;

/** Refolds the save's projections from its log. */
export const refoldLog = (opts: RefoldOptions): RefoldReport => {
  const { log, saveId } = opts;
  const save = log.save(saveId);
  const last = Math.min(opts.untilSeq ?? save.head, save.head);
  const scratch = opts.into ?? new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  scratch.createSave({ saveId: save.saveId, campaignId: save.campaignId, name: save.name });
  const check = opts.checkpoints ?? true;
  const mismatches: Array<CheckpointCheck> = [];
  let checked = 0;
  let head = 0;
  let batch: Array<Event> = [];
  const flush = () => {
    if (batch.length === 0) return;
    try {
      head = scratch.append(saveId, head, batch).head;
    } catch (e) {
      if (!(e instanceof InvalidEvent)) throw e;
      const bad = batch[e.index];
      throw new ReplayRefused({
        reason: `save "${saveId}": ${bad?.type ?? "an"} event at seq ${head + e.index + 1} (version ${bad?.version}) does not decode: ${e.detail}`,
        fix: "an event written at an older schema version needs its upcaster in core's eventUpcasters; otherwise the log is damaged",
      });
    }
    batch = [];
    opts.onProgress?.(head, last);
  };
  try {
    outer: for (const page of historyPages({
      log,
      saveId,
      toSeq: last,
      ...(opts.upcast ? { upcast: opts.upcast } : {}),
    })) {
      for (const e of page) {
        opts.onEvent?.(e);
        if (check && e.type === "Checkpoint") {
          flush();
          const expected = e.payload.stateHash;
          const actual = hashLike(scratch, saveId, expected);
          if (actual === expected && e.payload.throughSeq === head) checked += 1;
          else {
            mismatches.push({
              seq: e.seq,
              t: e.t,
              throughSeq: e.payload.throughSeq,
              expected,
              actual,
            });
            if (!opts.keepGoing) break outer;
          }
        }
        batch.push(strip(e));
        if (batch.length >= BATCH) flush();
      }
    }
    flush();
  } catch (e) {
    if (opts.into === undefined) scratch.db.close();
    throw e;
  }
  return {
    saveId,
    throughSeq: head,
    folded: head,
    checkpoints: checked,
    mismatch: mismatches[0] ?? null,
    mismatches,
    stateHash: scratch.projectionHash(saveId),
    scratch,
  };
};
