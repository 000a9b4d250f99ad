/**
 * Exact nearest rows of a collection, and the native i8 scan they run on. A scan gathers
 * the asked rows as i8, scans them natively and reranks the best `4k` (at least 40) by
 * cosine from f16: the top results and their scores are those of an f16 scan of every
 * row unless i8 ranks a true top-`k` row below 40th, and only the reranked rows' f16 is
 * read (from the vectors file, for rows saved). Small sets are scored in JS from f16.
 *
 * A set of many rows is first cut to a short list by the rows' one-bit sketches
 * (`SignCodes`): gathering scattered i8 rows costs far more than reading one cache line
 * a row, so only the best `max(256, 32k, n/256)` by sketch are gathered. The results are
 * those of the scan of every row unless a true top-`k` row's sketch ranks it below the
 * short list.
 */
import { nativeScan, quantizeInto } from "./nativeScan.ts";
import type { VectorRows } from "./VectorRows.ts";

/** A rowid with its cosine similarity to a query. */
export interface Scored {
  readonly rowid: number;
  readonly similarity: number;
}

/**
 * A scan's order of two scored rows, by their cosines and rowids: below zero when the first
 * goes first. Best first; ties by rowid, so a ranking never depends on the order rows came in.
 */
const order = (sa: number, ra: number, sb: number, rb: number): number => sb - sa || ra - rb;

/** {@link order} of two scored rows. */
export const bySimilarity = (a: Scored, b: Scored): number =>
  order(a.similarity, a.rowid, b.similarity, b.rowid);

/**
 * The first `k` of `n` scored rows (rowid `rowids[i]`, cosine `sims[i]`) in
 * {@link bySimilarity}'s order: what sorting them all and keeping `k` gives. Kept as they
 * come, best first, so only those returned become objects and nothing else is sorted;
 * an equal row goes after those before it, as the stable sort puts it. A NaN cosine, which
 * that order does not place consistently, sends them all to the sort instead.
 */
export const firstK = (
  rowids: ArrayLike<number>,
  sims: ArrayLike<number>,
  n: number,
  k: number,
): Array<Scored> => {
  const m = Math.min(k, n);
  if (m <= 0) return [];
  const top: Array<number> = [];
  for (let i = 0; i < n; i++) {
    const s = sims[i]!;
    const r = rowids[i]!;
    if (Number.isNaN(s)) {
      const all: Array<Scored> = [];
      for (let j = 0; j < n; j++) all.push({ rowid: rowids[j]!, similarity: sims[j]! });
      return all.sort(bySimilarity).slice(0, k);
    }
    if (top.length === m) {
      const last = top[m - 1]!;
      if (order(s, r, sims[last]!, rowids[last]!) >= 0) continue;
      top.pop();
    }
    let at = top.length;
    while (at > 0 && order(s, r, sims[top[at - 1]!]!, rowids[top[at - 1]!]!) < 0) at--;
    top.splice(at, 0, i);
  }
  return top.map((i) => ({ rowid: rowids[i]!, similarity: sims[i]! }));
};

/** Below this many rows an exact scan is done in JS (no gather). */
const EXACT_NATIVE_MIN = 192;
/** Candidates an i8 scan keeps for the f16 rerank: `k` × this, at least `RERANK_MIN`. */
const RERANK_FACTOR = 4;
const RERANK_MIN = 40;
/** Rows a sketch short list keeps: at least this many, ... */
const SHORTLIST_MIN = 256;
/** ... `k` × this, ... */
const SHORTLIST_FACTOR = 32;
/** ... and one in this many of the set. */
const SHORTLIST_SHARE = 256;

/** How many rows of a set of `n` a sketch short list keeps for a top-`k` scan. */
export const shortlistSize = (n: number, k: number): number =>
  Math.max(SHORTLIST_MIN, SHORTLIST_FACTOR * k, Math.ceil(n / SHORTLIST_SHARE));

export class ExactScan {
  private readonly dimensions: number;
  private scratch = new Int8Array(0);
  /** The rows an exact scan keeps (those present) and their slots, reused between scans. */
  private present = new Float64Array(0);
  private slots = new Int32Array(0);
  /** Cosines of the rows a scan scores, and the rowids of an i8 scan's best, reused. */
  private sims = new Float64Array(0);
  private bestRowids = new Float64Array(0);

  constructor(private readonly rows: VectorRows) {
    this.dimensions = rows.dimensions;
  }

  /** Bytes of the buffers reused between scans. */
  get residentBytes(): number {
    return (
      this.scratch.byteLength +
      this.present.byteLength +
      this.slots.byteLength +
      this.sims.byteLength +
      this.bestRowids.byteLength
    );
  }

  /** A query as the i8 scans take it. */
  quantize(query: Float32Array): Int8Array {
    const q = new Int8Array(this.dimensions);
    quantizeInto(query, q, 0, this.dimensions);
    return q;
  }

  /** Positions of the best `count` of `n` contiguous i8 rows for an i8 query (native scan). */
  scanQuantized(rows: Int8Array, n: number, q: Int8Array, count: number): Array<number> {
    return Array.from(nativeScan(rows, n, q, this.dimensions, count, "cos")?.keys ?? [], Number);
  }

  /**
   * Exact top-`k` over the given rowids (absent ones skipped), by cosine from f16. Sets
   * of at most `4k` (at least 40) rows, and small sets held wholly in memory, are scored
   * in JS from f16; larger ones are gathered as i8, scanned natively, and the best `4k`
   * (at least 40) reranked from f16. Sets of more than twice {@link shortlistSize} rows
   * gather only that many, the best by their sketches.
   */
  exact(query: Float32Array, rowids: ArrayLike<number>, k: number): Array<Scored> {
    const d = this.dimensions;
    const rows = this.rows;
    if (k <= 0 || rowids.length === 0) return [];
    if (this.present.length < rowids.length) {
      const size = Math.max(rowids.length, this.present.length * 2);
      this.present = new Float64Array(size);
      this.slots = new Int32Array(size);
    }
    const present = this.present;
    const slots = this.slots;
    let n = rows.presentSlotsOf(rowids, present, slots);
    if (n === 0) return [];
    const short = shortlistSize(n, k);
    if (n > 2 * short) {
      const best = rows.shortlist(query, slots, n, short);
      // Ascending positions: each is written at or before where it is read.
      for (let i = 0; i < best.length; i++) {
        present[i] = present[best[i]!]!;
        slots[i] = slots[best[i]!]!;
      }
      n = best.length;
    }
    const keep = Math.max(k * RERANK_FACTOR, RERANK_MIN);
    // Rows read from the file cost a read each: past `keep` of them, i8 picks which.
    if (this.sims.length < Math.max(n, keep)) {
      this.sims = new Float64Array(Math.max(n, keep, this.sims.length * 2));
      this.bestRowids = new Float64Array(this.sims.length);
    }
    const sims = this.sims;
    if (n <= keep || (n < EXACT_NATIVE_MIN && rows.halvesResident)) {
      for (let j = 0; j < n; j++) sims[j] = rows.similarityAt(query, slots[j]!);
      return firstK(present, sims, n, k);
    }
    if (this.scratch.length < n * d) {
      this.scratch = new Int8Array(Math.max(n * d, this.scratch.length * 2));
    }
    rows.gatherSlots(slots, n, this.scratch);
    const best = this.scanQuantized(this.scratch, n, this.quantize(query), keep);
    const bestRowids = this.bestRowids;
    for (let i = 0; i < best.length; i++) {
      bestRowids[i] = present[best[i]!]!;
      sims[i] = rows.similarityAt(query, slots[best[i]!]!);
    }
    return firstK(bestRowids, sims, best.length, k);
  }
}
