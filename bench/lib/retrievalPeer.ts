/**
 * The peer row of the retrieval bench: hnswlib-node's HNSW with its filter callback (the
 * strongest off-the-shelf filtered search in Node), built over the same vectors and asked
 * the same queries with the same visibility rule, its recall counted against the same
 * exact truth. Single-threaded build (hnswlib-node adds one point per call).
 */
import type { VectorStore } from "@hearsay/retrieval";
import hnswlib from "hnswlib-node";
import { pct, timed } from "./retrievalBaseline.ts";

/** One query as the run asked it, with its truth (the exact 10th similarity, how many exist). */
export interface PeerQuery {
  readonly q: Float32Array;
  readonly known: ReadonlySet<number>;
  readonly tenth: number;
  readonly want: number;
}

export const hnswlibPeer = (
  store: VectorStore,
  rowids: Float64Array,
  queries: ReadonlyArray<PeerQuery>,
  opts: { readonly m: number; readonly efConstruction: number; readonly ef: number },
) => {
  const index = new hnswlib.HierarchicalNSW("cosine", store.dimensions);
  const build = timed(() => {
    index.initIndex({ maxElements: rowids.length, m: opts.m, efConstruction: opts.efConstruction });
    for (const r of rowids) index.addPoint(Array.from(store.vector(r)!), r);
  });
  index.setEf(opts.ef);
  const wall: Array<number> = [];
  let hits = 0;
  let total = 0;
  for (const { q, known, tenth, want } of queries) {
    const query = Array.from(q);
    // hnswlib-node throws when its filtered search finds fewer than asked: a miss.
    const got = timed(() => {
      try {
        return index.searchKnn(query, Math.min(10, want), (l) => known.has(l)).neighbors;
      } catch {
        return [];
      }
    });
    wall.push(got.wall);
    const ok = got.value.filter((r) => store.similarity(q, r) >= tenth - 1e-6).length;
    hits += Math.min(ok, want);
    total += want;
  }
  return {
    buildMs: Math.round(build.wall),
    m: opts.m,
    efConstruction: opts.efConstruction,
    ef: opts.ef,
    vectorMs: { p50: pct(wall, 0.5), p99: pct(wall, 0.99) },
    recallAt10: total > 0 ? hits / total : 1,
  };
};
