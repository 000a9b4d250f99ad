/**
 * The best `limit` search hits seen so far, in the order a search returns them (score
 * descending, then the later item first), kept by insertion into a short sorted array.
 * `couldTake` tells whether a candidate whose score is at most some bound could still
 * enter — what lets a search skip computing the similarity of hopeless candidates.
 */
/** What a search ranks a hit by: its score, then its item. */
export interface Ranked {
  readonly score: number;
  readonly local: number;
}

/** Search order: higher score first, ties by the later item (higher local) first. */
const before = (a: Ranked, b: Ranked): boolean =>
  a.score > b.score || (a.score === b.score && a.local > b.local);

export class TopHits<H extends Ranked> {
  private readonly kept: Array<H> = [];

  constructor(readonly limit: number) {}

  /** Keeps the hit if it is among the best `limit` so far. */
  offer(h: H): void {
    const kept = this.kept;
    if (this.limit <= 0) return;
    if (kept.length >= this.limit && !before(h, kept[kept.length - 1]!)) return;
    let i = kept.length;
    while (i > 0 && before(h, kept[i - 1]!)) i--;
    kept.splice(i, 0, h);
    if (kept.length > this.limit) kept.pop();
  }

  /**
   * False when a hit scoring at most `bound` could not enter: `limit` hits are kept and
   * the last scores more than `bound` (a tie could still enter by its item number).
   */
  couldTake(bound: number): boolean {
    return this.kept.length < this.limit || bound >= this.kept[this.kept.length - 1]!.score;
  }

  /** The kept hits, best first. */
  hits(): Array<H> {
    return [...this.kept];
  }
}
