/**
 * The best `limit` search hits seen so far, in the order a search returns them (score
 * descending, then the later item first), kept by insertion into a short sorted array.
 * `couldTake` tells whether a candidate whose score is at most some bound could still
 * enter — what lets a search skip computing the similarity of hopeless candidates.
 */
import type { SearchHit } from "./HybridSearch.ts";

/** Search order: higher score first, ties by the later item (higher local) first. */
const before = (a: SearchHit, b: SearchHit): boolean =>
  a.score > b.score || (a.score === b.score && a.local > b.local);

export class TopHits {
  private readonly kept: Array<SearchHit> = [];

  constructor(readonly limit: number) {}

  /** Keeps the hit if it is among the best `limit` so far. */
  offer(h: SearchHit): void {
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
  hits(): Array<SearchHit> {
    return [...this.kept];
  }
}
