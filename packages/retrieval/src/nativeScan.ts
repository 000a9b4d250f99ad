/**
 * The native exact scan every i8 search runs: USearch's `exactSearch` over `n` contiguous
 * rows, and the per-row i8 quantisation those rows are written with.
 */
import usearch, { type Matches } from "usearch";

/** Writes a row as i8, scaled so its largest component is ±127 (cosine ignores scale). */
export const quantizeInto = (v: ArrayLike<number>, out: Int8Array, at: number, d: number): void => {
  let m = 0;
  for (let i = 0; i < d; i++) m = Math.max(m, Math.abs(v[i]!));
  const scale = m > 0 ? 127 / m : 0;
  for (let i = 0; i < d; i++) out[at + i] = Math.round(v[i]! * scale);
};

/**
 * The best `count` of `n` contiguous `d`-dimensional i8 rows for an i8 query — by inner
 * product (`ip`: rows written at one common scale, no norms computed) or by cosine —
 * as row positions (bigints) and distances, best first; null when there is nothing to
 * scan. `rows` must start its buffer: the native scan reads from the buffer's start
 * whatever a typed array's offset, so a subarray would scan the wrong rows.
 */
export const nativeScan = (
  rows: Int8Array,
  n: number,
  q: Int8Array,
  d: number,
  count: number,
  metric: "ip" | "cos",
): Matches | null => {
  if (n === 0 || count <= 0) return null;
  if (rows.byteOffset !== 0) throw new RangeError("nativeScan: rows must start their buffer");
  return usearch.exactSearch(
    rows.subarray(0, n * d),
    q,
    d,
    Math.min(n, count),
    metric === "ip" ? usearch.MetricKind.IP : usearch.MetricKind.Cos,
    1,
  ) as Matches;
};
