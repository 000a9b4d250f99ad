/**
 * The dialogue turns the view keeps for each NPC (`SaveView.turns`): every turn it spoke
 * or heard as its time and rowid, and the row a dossier's dialogue quotes — speaker,
 * conversation, index, text — of only its last {@link KEPT_TURN_ROWS}, the most a
 * dossier's dialogue shows. A dossier at the view's head so reads no table for its
 * dialogue (once the store appends off the main thread, a read of its tables waits for
 * the previous tick's commit), and the texts the view holds stay bounded by NPCs ×
 * {@link KEPT_TURN_ROWS} however long the run: a turn's row leaves an NPC's list once
 * that NPC has taken part in as many later turns, and is freed once no NPC's list keeps it.
 * A dossier asking for an older turn (one of an earlier time) reads its row.
 *
 * Each NPC's turns are one {@link TurnList}: the times and rowids in one typed array, the
 * kept rows in a ring. Why: the turns grow all run (every turn ever, per participant), and
 * as one object per turn they were tens of thousands of live heap objects by mid-run, which
 * the GC's concurrent marking visits again and again; a list is a handful of objects
 * however many turns it holds.
 */
import type { TurnRow } from "./DossierSource.ts";

/** Rows kept per NPC: the most turns a dossier's dialogue shows (`buildDossier`). */
export const KEPT_TURN_ROWS = 6;

/** Turns a new list has room for before it first grows. */
const FIRST_CAPACITY = 8;

/**
 * One NPC's dialogue turns, oldest first: turn `i`'s time and rowid, and its row while it
 * is among the last {@link KEPT_TURN_ROWS} (`undefined` before, and for a turn whose row
 * is not filled in yet). Rowids are item keys, which reach past 2^32 (`ItemKeys`): both
 * values are held as doubles, `t` and `rowid` of turn `i` at `2i` and `2i + 1`.
 */
export class TurnList {
  /** How many turns the list holds. */
  length = 0;
  private pairs = new Float64Array(2 * FIRST_CAPACITY);
  /** Turn `i`'s row, while kept, at `i % KEPT_TURN_ROWS`. */
  private readonly rows: Array<TurnRow | undefined> = new Array(KEPT_TURN_ROWS).fill(undefined);

  /** Turn `i`'s time. */
  t(i: number): number {
    return this.pairs[2 * i]!;
  }

  /** Turn `i`'s rowid. */
  rowid(i: number): number {
    return this.pairs[2 * i + 1]!;
  }

  /** Turn `i`'s row if it is among the last {@link KEPT_TURN_ROWS} and has one (else read it). */
  row(i: number): TurnRow | undefined {
    return this.kept(i) ? this.rows[i % KEPT_TURN_ROWS] : undefined;
  }

  /** Whether turn `i` is among the last {@link KEPT_TURN_ROWS}, the ones that keep a row. */
  kept(i: number): boolean {
    return i < this.length && i >= this.length - KEPT_TURN_ROWS && i >= 0;
  }

  /** Sets the row of turn `i`, one of the last {@link KEPT_TURN_ROWS}. */
  setRow(i: number, row: TurnRow | undefined): void {
    if (!this.kept(i)) throw new RangeError(`turn ${i} of ${this.length} keeps no row`);
    this.rows[i % KEPT_TURN_ROWS] = row;
  }

  /** How many turns are at or before `t`: the index of the first later one (times never fall). */
  countUpTo(t: number): number {
    let hi = this.length;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.pairs[2 * mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Appends a turn, dropping the row of the one that leaves the window (its slot in the
   * ring is the new turn's).
   */
  push(t: number, rowid: number, row: TurnRow | undefined): void {
    const i = this.length;
    if (2 * i === this.pairs.length) {
      const grown = new Float64Array(2 * this.pairs.length);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[2 * i] = t;
    this.pairs[2 * i + 1] = rowid;
    this.rows[i % KEPT_TURN_ROWS] = row;
    this.length = i + 1;
  }
}

/**
 * Gives the last {@link KEPT_TURN_ROWS} turns of every list their rows, read by rowid
 * (after a load, which reads no text of the turns it only keeps the times of); a turn in
 * several NPCs' windows is read once.
 */
export const fillTurnRows = (
  lists: Iterable<TurnList>,
  read: (rowid: number) => TurnRow | undefined,
): void => {
  const rows = new Map<number, TurnRow | undefined>();
  for (const list of lists) {
    for (let i = Math.max(0, list.length - KEPT_TURN_ROWS); i < list.length; i++) {
      const rowid = list.rowid(i);
      let row = rows.get(rowid);
      if (row === undefined && !rows.has(rowid)) {
        row = read(rowid);
        rows.set(rowid, row);
      }
      list.setRow(i, row);
    }
  }
};
