/**
 * The retrieval bench's measuring tools: percentiles, CPU-and-wall timing, and the two
 * references every run compares against — a brute-force cosine scan over all N vectors
 * (the speed baseline) and an exact scan of the NPC's known vectors (the recall truth).
 */
import type { VectorStore } from "@hearsay/retrieval";

/** The `q` quantile of samples (0 when empty). */
export const pct = (xs: ReadonlyArray<number>, q: number): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** The same vectors as one flat f32 matrix (what a brute-force scan would hold). */
export const flatMatrix = (store: VectorStore, rowids: Float64Array): Float32Array => {
  const d = store.dimensions;
  const m = new Float32Array(rowids.length * d);
  for (let i = 0; i < rowids.length; i++) m.set(store.vector(rowids[i]!)!, i * d);
  return m;
};

/** The baseline: cosine against every vector of the matrix, best 10 the NPC knows. */
export const bruteForce = (
  matrix: Float32Array,
  rowids: Float64Array,
  known: (rowid: number) => boolean,
  q: Float32Array,
): Array<number> => {
  const d = q.length;
  const top: Array<[number, number]> = [];
  for (let i = 0; i < rowids.length; i++) {
    let dot = 0;
    const o = i * d;
    for (let j = 0; j < d; j++) dot += matrix[o + j]! * q[j]!;
    if (top.length < 10 || dot > top[top.length - 1]![0]) {
      if (!known(rowids[i]!)) continue;
      top.push([dot, rowids[i]!]);
      top.sort((a, b) => b[0] - a[0]);
      if (top.length > 10) top.pop();
    }
  }
  return top.map((x) => x[1]);
};

/**
 * Exact top-10 similarities among the given rows (the recall truth), each scored by
 * `similarity` — `store.similarity` bound to a query, or a row of a flat matrix.
 */
export const exactTop = (
  similarity: (rowid: number) => number,
  rowids: ReadonlyArray<number>,
): Array<number> => {
  const sims = rowids.map(similarity);
  return sims.sort((a, b) => b - a).slice(0, 10);
};

/** Inner product of row `i` of a flat matrix with `q`. */
export const dotRow = (matrix: Float32Array, i: number, q: Float32Array): number => {
  const d = q.length;
  const o = i * d;
  let dot = 0;
  for (let j = 0; j < d; j++) dot += matrix[o + j]! * q[j]!;
  return dot;
};

/** Runs `f`, returning its result with its wall and CPU (user + system) time in ms. */
export const timed = <A>(
  f: () => A,
): { readonly value: A; readonly wall: number; readonly cpu: number } => {
  const cpu = process.cpuUsage();
  const s = performance.now();
  const value = f();
  const wall = performance.now() - s;
  const used = process.cpuUsage(cpu);
  return { value, wall, cpu: (used.user + used.system) / 1000 };
};
