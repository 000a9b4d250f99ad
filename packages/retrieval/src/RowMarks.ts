/**
 * Marks on a collection's rows (`VectorRows`): how many rows differ from what they were
 * when a mark was taken — a row present at one time only, or with another fingerprint
 * — counted in the rows changed since, not the rows held. The index job asks it daily of
 * a store that holds a year's 1.3 million memories, of which a few thousand change a day
 * (`IndexKeeper` in @hearsay/engine, which marks when it writes the files).
 *
 * A mark keeps, for each rowid put or removed since it was taken, the row's state just
 * before its first change (its fingerprint, or absent): a row is apart when its state now
 * differs from that one. Every change of a row's presence or fingerprint goes through
 * {@link RowMarks.touch} first. A change of every row at once (`VectorRows.restore`)
 * turns each mark into the full list of what the rows were at the mark, diffed in full
 * ({@link rowsApart}) from then on: a rare path (a store is restored when it is loaded,
 * before anyone marks it), which stays exact.
 *
 * Marks are independent (each is its own token), so several callers can mark one store.
 */

/** Every live rowid with its fingerprint, rowid-ordered (`VectorRows.entries`). */
export interface RowEntries {
  readonly rowids: Float64Array;
  readonly fingerprints: Uint32Array;
}

/** Rows present in one of two rowid-ordered entry lists only, or with another fingerprint. */
export const rowsApart = (a: RowEntries, b: RowEntries): number => {
  let i = 0;
  let j = 0;
  let apart = 0;
  while (i < a.rowids.length && j < b.rowids.length) {
    const x = a.rowids[i]!;
    const y = b.rowids[j]!;
    if (x === y) {
      if (a.fingerprints[i] !== b.fingerprints[j]) apart += 1;
      i++;
      j++;
    } else if (x < y) {
      apart += 1;
      i++;
    } else {
      apart += 1;
      j++;
    }
  }
  return apart + (a.rowids.length - i) + (b.rowids.length - j);
};

/** A row's state as `touch` is told it and `apart` reads it: -1 when absent. */
const ABSENT = -1;

/**
 * The rows changed since a mark, by their state before their first change: present
 * (rowid → fingerprint as a signed 32-bit number, which V8 keeps inline — a fingerprint
 * past 2^31 as itself would be a heap number each, and a mark can hold half a year's
 * rows between two writes) or absent.
 */
interface Changed {
  readonly present: Map<number, number>;
  readonly absent: Set<number>;
}

/**
 * One mark: the rows changed since it (`changed`), or, once every row was replaced at
 * once, the full entries at the mark (`all`).
 */
type Mark =
  | { readonly changed: Changed; readonly all?: undefined }
  | { readonly changed?: undefined; readonly all: RowEntries };

export class RowMarks {
  private readonly marks = new Map<number, Mark>();
  /** The marks that record changes one row at a time (those without `all`). */
  private recording: Array<Changed> = [];
  private next = 1;

  /** True when some mark records changes: callers skip {@link touch} otherwise. */
  get any(): boolean {
    return this.recording.length > 0;
  }

  /** A new mark of the rows as they are now; its token names it. */
  mark(): number {
    const token = this.next++;
    const changed: Changed = { present: new Map(), absent: new Set() };
    this.marks.set(token, { changed });
    this.recording.push(changed);
    return token;
  }

  /** Forgets a mark (an unknown token is ignored). */
  release(token: number): void {
    const m = this.marks.get(token);
    if (m === undefined) return;
    this.marks.delete(token);
    if (m.changed !== undefined) this.recording = this.recording.filter((c) => c !== m.changed);
  }

  /**
   * Notes a row about to be put or removed: `fingerprint` is its state before (-1 when
   * absent). Only its first change since each mark is kept.
   */
  touch(rowid: number, fingerprint: number): void {
    const recording = this.recording;
    for (let i = 0; i < recording.length; i++) {
      const { present, absent } = recording[i]!;
      if (present.has(rowid) || absent.has(rowid)) continue;
      if (fingerprint === ABSENT) absent.add(rowid);
      else present.set(rowid, fingerprint | 0);
    }
  }

  /**
   * Every row is about to be replaced: `before` gives the rows as they are now. Each
   * recording mark is turned into the full entries at the mark.
   */
  replacing(before: () => RowEntries): void {
    if (this.recording.length === 0) return;
    const now = before();
    for (const [token, m] of this.marks) {
      if (m.changed !== undefined) this.marks.set(token, { all: entriesAt(now, m.changed) });
    }
    this.recording = [];
  }

  /**
   * Rows apart from the mark `token`, given the rows' fingerprints now (`fingerprintOf`:
   * -1 when absent) and, for a mark turned full, their entries; null for an unknown token.
   */
  apart(
    token: number,
    fingerprintOf: (rowid: number) => number,
    entries: () => RowEntries,
  ): number | null {
    const m = this.marks.get(token);
    if (m === undefined) return null;
    if (m.all !== undefined) return rowsApart(entries(), m.all);
    let apart = 0;
    for (const [rowid, was] of m.changed.present) {
      const now = fingerprintOf(rowid);
      if (now === ABSENT || (now | 0) !== was) apart += 1;
    }
    for (const rowid of m.changed.absent) if (fingerprintOf(rowid) !== ABSENT) apart += 1;
    return apart;
  }
}

/** The entries `now` with the rows of `changed` set back to their recorded state. */
const entriesAt = (now: RowEntries, changed: Changed): RowEntries => {
  const rows: Array<[number, number]> = [];
  for (let i = 0; i < now.rowids.length; i++) {
    const r = now.rowids[i]!;
    if (!changed.present.has(r) && !changed.absent.has(r)) rows.push([r, now.fingerprints[i]!]);
  }
  for (const [r, fp] of changed.present) rows.push([r, fp >>> 0]);
  rows.sort((a, b) => a[0] - b[0]);
  return {
    rowids: Float64Array.from(rows, ([r]) => r),
    fingerprints: Uint32Array.from(rows, ([, fp]) => fp),
  };
};
