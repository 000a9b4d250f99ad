/**
 * Snapshot rows: a save's canonical projection state at a seq (plus, optionally, the
 * engine's actor snapshots as JSON). A snapshot is a cache — the log stays the truth —
 * so loading one and folding the events after it must equal folding the whole log.
 */

import { canonicalJson } from "@hearsay/core";
import type { Segment } from "./EventHistory.ts";
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";
import { readDigest } from "./ProjectionDigest.ts";
import type { ProjectionState } from "./ProjectionState.ts";

/** A stored snapshot's header. */
export interface SnapshotInfo {
  readonly saveId: string;
  readonly seq: number;
  readonly stateHash: string;
}

/** A stored snapshot with its state. */
export interface Snapshot extends SnapshotInfo {
  readonly state: ProjectionState;
  /** Actor snapshots the engine stored with it (any JSON), or null. */
  readonly actors: unknown;
}

interface SnapshotRow {
  save_id: string;
  seq: number;
  state: string;
  state_hash: string;
  actors: string | null;
}

export class SnapshotStore {
  private readonly put: SqliteStatement;
  private readonly latestIn: SqliteStatement;
  private readonly list: SqliteStatement;

  constructor(private readonly db: SqliteDatabase) {
    this.put =
      db.prepare(`INSERT INTO snapshots (save_id, seq, campaign_id, state, state_hash, actors)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (save_id, seq) DO UPDATE SET campaign_id = excluded.campaign_id,
        state = excluded.state, state_hash = excluded.state_hash, actors = excluded.actors`);
    this.latestIn = db.prepare(
      "SELECT * FROM snapshots WHERE save_id = ? AND seq >= ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
    );
    this.list = db.prepare(
      "SELECT save_id, seq, state_hash FROM snapshots WHERE save_id = ? ORDER BY seq",
    );
  }

  /**
   * Stores (or replaces) the snapshot of `saveId` at `seq` — the state as it is now —
   * with the save's projection digest as its hash; returns it.
   */
  write(
    saveId: string,
    campaignId: string,
    seq: number,
    state: ProjectionState,
    actors: unknown,
  ): SnapshotInfo {
    const text = canonicalJson(state);
    const stateHash = readDigest(this.db, saveId);
    this.put.run(
      saveId,
      seq,
      campaignId,
      text,
      stateHash,
      actors == null ? null : JSON.stringify(actors),
    );
    return { saveId, seq, stateHash };
  }

  /**
   * The newest snapshot valid for a save's history at or before `atOrBefore`: its own, or
   * an ancestor's taken at or before the seq the history leaves that ancestor (its state
   * is then the same prefix of events).
   */
  latest(segments: ReadonlyArray<Segment>, atOrBefore: number): Snapshot | undefined {
    let best: SnapshotRow | undefined;
    for (const seg of segments) {
      const row = this.latestIn.get(seg.saveId, 0, Math.min(seg.toSeq, atOrBefore)) as
        | SnapshotRow
        | undefined;
      if (row && (!best || row.seq > best.seq)) best = row;
    }
    if (!best) return undefined;
    return {
      saveId: best.save_id,
      seq: best.seq,
      stateHash: best.state_hash,
      state: JSON.parse(best.state) as ProjectionState,
      actors: best.actors === null ? null : JSON.parse(best.actors),
    };
  }

  /** The snapshots stored for `saveId` itself, oldest first. */
  of(saveId: string): ReadonlyArray<SnapshotInfo> {
    return (
      this.list.all(saveId) as Array<{ save_id: string; seq: number; state_hash: string }>
    ).map((r) => ({ saveId: r.save_id, seq: r.seq, stateHash: r.state_hash }));
  }
}
