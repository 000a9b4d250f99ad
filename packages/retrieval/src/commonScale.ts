/**
 * Rows at one common i8 scale, the layout of the per-NPC copies (`KnownMatrices`): a
 * unit vector's components up to `8/√d` fit in ±127 (larger ones, rare, are clipped;
 * the f16 rerank corrects for them), so the inner product of two such rows is
 * proportional to their cosine and a scan of them computes no norms — about twice as
 * fast per row as the cosine scan of rows each scaled to its own largest component.
 */
import type { Matches } from "usearch";
import { nativeScan } from "./nativeScan.ts";
import type { VectorStore } from "./VectorStore.ts";

/** The one scale every row is written with at `dimensions`. */
export const commonScale = (dimensions: number): number => (127 * Math.sqrt(dimensions)) / 8;

/** One row decoded from f16, reused between copies. */
let decoded = new Float32Array(0);

/**
 * Copies a store's row into `out` at `at` as i8 at {@link commonScale}; false when the
 * row has no vector.
 */
export const copyScaled = (
  store: VectorStore,
  rowid: number,
  out: Int8Array,
  at: number,
): boolean => {
  const d = store.dimensions;
  if (decoded.length !== d) decoded = new Float32Array(d);
  if (!store.vectorInto(rowid, decoded, 0)) return false;
  const s = commonScale(d);
  for (let i = 0; i < d; i++) {
    const x = Math.round(decoded[i]! * s);
    out[at + i] = Math.max(-127, Math.min(127, x));
  }
  return true;
};

/**
 * The best `count` of `n` contiguous `d`-dimensional rows written by {@link copyScaled},
 * by inner product with an i8 query (native SIMD scan): positions and distances, or null.
 */
export const scanDotRaw = (
  rows: Int8Array,
  n: number,
  q: Int8Array,
  d: number,
  count: number,
): Matches | null => nativeScan(rows, n, q, d, count, "ip");

/** {@link scanDotRaw}'s positions, best first. */
export const scanDot = (
  rows: Int8Array,
  n: number,
  q: Int8Array,
  d: number,
  count: number,
): Array<number> => Array.from(scanDotRaw(rows, n, q, d, count)?.keys ?? [], Number);
