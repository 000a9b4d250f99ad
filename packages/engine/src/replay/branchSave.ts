/**
 * Branching a save: a new save whose history is its parent's up to a tick boundary —
 * nothing is copied; the store keeps a reference to the parent's log up to that seq —
 * and which `hearsay run --resume --save <branch>` continues, with another seed or brain
 * if asked. The parent is not touched. A branch may only start where a committed batch
 * ends, since that is where a run can resume; a seq inside a tick is refused, naming the
 * boundaries on either side.
 */
import { gameTime, ids, type SaveId, type Upcast } from "@hearsay/core";
import type { SaveInfo, SqliteEventLog } from "@hearsay/store";
import { lastSeqAtOrBefore, tickBoundaries } from "./historyPoints.ts";
import { ReplayRefused } from "./ReplayError.ts";
import { eventAt } from "./readHistory.ts";

/** Where to branch: after a seq, or as the world stood at 00:00 of a game day. */
export type BranchPoint = { readonly seq: number } | { readonly day: number };

export interface BranchSpec {
  readonly log: SqliteEventLog;
  readonly from: SaveId;
  readonly at: BranchPoint;
  /** The new save's id (and name). */
  readonly into: string;
  readonly upcast?: Upcast;
}

export interface BranchResult {
  readonly save: SaveInfo;
  /** The last seq it shares with its parent. */
  readonly seq: number;
  /** The game time of that event (the branch's present), or null for an empty branch. */
  readonly t: number | null;
}

/** The seq a branch point names. @throws ReplayRefused when it is not a tick boundary. */
export const branchSeq = (
  log: SqliteEventLog,
  saveId: string,
  at: BranchPoint,
  upcast?: Upcast,
): number => {
  const head = log.head(saveId);
  if ("day" in at) {
    // A day the log never reached is refused: branching at its head instead would be a
    // branch at another moment than the one asked for.
    const last = head === 0 ? undefined : eventAt(log, saveId, head, upcast);
    if (last === undefined || gameTime(at.day) > last.t) {
      const lastDay = last === undefined ? null : Math.floor(last.t / 1440);
      throw new ReplayRefused({
        reason: `day ${at.day} is past the end of save "${saveId}" (${lastDay === null ? "it holds no events" : `its log ends on day ${lastDay}`})`,
        fix:
          lastDay === null
            ? "run it first, or branch with --at 0"
            : `branch at a day from 0 to ${lastDay}, or use --at SEQ`,
      });
    }
    const upTo = lastSeqAtOrBefore(log, saveId, gameTime(at.day));
    return tickBoundaries(log, saveId, upTo, upcast).atOrBefore;
  }
  if (!Number.isInteger(at.seq) || at.seq < 0 || at.seq > head) {
    throw new ReplayRefused({
      reason: `seq ${at.seq} is outside save "${saveId}" (seq 0–${head})`,
      fix: `branch at a seq from 0 to ${head}, or use --at-day`,
    });
  }
  const around = tickBoundaries(log, saveId, at.seq, upcast);
  if (around.atOrBefore !== at.seq) {
    const after = around.after === null ? "" : ` or ${around.after}`;
    throw new ReplayRefused({
      reason: `seq ${at.seq} is inside a tick of save "${saveId}" (a run can only resume where a tick ends)`,
      fix: `branch at seq ${around.atOrBefore}${after}, or use --at-day`,
    });
  }
  return at.seq;
};

/** Creates the branch. @throws ReplayRefused for a taken name or a bad point. */
export const branchSave = (spec: BranchSpec): BranchResult => {
  const { log } = spec;
  const parent = log.save(spec.from);
  if (spec.into.trim() === "") {
    throw new ReplayRefused({ reason: "the branch needs a name", fix: "pass --into NAME" });
  }
  if (log.saves().some((s) => s.saveId === spec.into)) {
    throw new ReplayRefused({
      reason: `a save named "${spec.into}" already exists`,
      fix: "choose another --into",
    });
  }
  const seq = branchSeq(log, parent.saveId, spec.at, spec.upcast);
  const save = log.createSave({
    saveId: ids.save(spec.into),
    campaignId: parent.campaignId,
    name: spec.into,
    parent: { saveId: parent.saveId, seq },
  });
  return { save, seq, t: seq === 0 ? null : eventAt(log, parent.saveId, seq, spec.upcast)!.t };
};
