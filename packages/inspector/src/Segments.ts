/**
 * A save's history as segments: a branch shares its parent's events up to the branch
 * seq without copying them, so reading a save's events by seq means reading its
 * ancestors' rows for the shared part. Mirrors the store's rule, read from `saves`.
 */
import type { SqliteDatabase } from "@hearsay/store";

/** A run of `saveId`'s own rows, seqs `fromSeq..toSeq`, inside another save's history. */
export interface Segment {
  readonly saveId: string;
  readonly fromSeq: number;
  readonly toSeq: number;
}

interface SaveRow {
  readonly save_id: string;
  readonly parent_save_id: string | null;
  readonly parent_seq: number | null;
  readonly head_seq: number;
}

/** The segments of `saveId`'s history up to `cap` (default its head), oldest first. */
export const segmentsOf = (
  db: SqliteDatabase,
  saveId: string,
  cap = Number.POSITIVE_INFINITY,
): ReadonlyArray<Segment> => {
  const row = db.prepare("SELECT * FROM saves WHERE save_id = ?").get(saveId) as
    | SaveRow
    | undefined;
  if (!row) return [];
  const upTo = Math.min(row.head_seq, cap);
  const own = row.parent_seq ?? 0;
  const inherited =
    row.parent_save_id === null ? [] : segmentsOf(db, row.parent_save_id, Math.min(own, upTo));
  return upTo > own ? [...inherited, { saveId, fromSeq: own + 1, toSeq: upTo }] : inherited;
};

/** The save whose rows hold `seq` of this history, or undefined. */
export const rowSaveOf = (segments: ReadonlyArray<Segment>, seq: number): string | undefined =>
  segments.find((s) => seq >= s.fromSeq && seq <= s.toSeq)?.saveId;
