/**
 * A growable, seq-ordered table of numbers in typed arrays: the inspector's in-memory
 * index keeps one per NPC, per edge, and for running totals, and answers "the last entry
 * at or before seq S" by binary search — how every panel shows the world as it was.
 */

export class SeqSeries {
  private seqs: Int32Array;
  private readonly cols: Array<Float64Array>;
  private n = 0;

  constructor(
    readonly width: number,
    capacity = 16,
  ) {
    this.seqs = new Int32Array(capacity);
    this.cols = Array.from({ length: width }, () => new Float64Array(capacity));
  }

  get length(): number {
    return this.n;
  }

  /** Appends an entry (up to five values); seqs must not decrease. */
  push(seq: number, a = 0, b = 0, c = 0, d = 0, e = 0): void {
    if (this.n === this.seqs.length) this.grow();
    const i = this.n;
    this.seqs[i] = seq;
    const v = [a, b, c, d, e];
    for (let k = 0; k < this.width; k++) this.cols[k]![i] = v[k]!;
    this.n += 1;
  }

  /** Appends an entry whose values are the last entry's plus these (running totals). */
  pushDelta(seq: number, a = 0, b = 0, c = 0, d = 0, e = 0): void {
    const last = this.n - 1;
    const at = (k: number) => (last < 0 ? 0 : (this.cols[k]?.[last] ?? 0));
    this.push(seq, at(0) + a, at(1) + b, at(2) + c, at(3) + d, at(4) + e);
  }

  /** Index of the last entry with seq ≤ `seq`, or -1. */
  indexAt(seq: number): number {
    let lo = 0;
    let hi = this.n - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.seqs[mid]! <= seq) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  seqOf(i: number): number {
    return this.seqs[i]!;
  }

  value(i: number, col: number): number {
    return this.cols[col]![i]!;
  }

  /** Column `col` of the last entry at or before `seq`, or `fallback` when there is none. */
  valueAt(seq: number, col: number, fallback = 0): number {
    const i = this.indexAt(seq);
    return i < 0 ? fallback : this.cols[col]![i]!;
  }

  private grow(): void {
    const size = this.seqs.length * 2;
    const seqs = new Int32Array(size);
    seqs.set(this.seqs);
    this.seqs = seqs;
    for (let c = 0; c < this.width; c++) {
      const col = new Float64Array(size);
      col.set(this.cols[c]!);
      this.cols[c] = col;
    }
  }
}
