/**
 * The peer row of the retrieval bench: hnswlib-node's HNSW with its filter callback (the
 * strongest off-the-shelf filtered search in Node), built over the same vectors and asked
 * the same queries with the same visibility rule, its recall counted against the same
 * exact truth. Single-threaded build (hnswlib-node adds one point per call).
 */
import type { VectorStore } from "@hearsay/retrieval";
import hnswlib from "hnswlib-node";
import { pct, timed } from "./retrievalBaseline.ts";

/**
 * A peer run on part of the data: every `rowsEvery`-th row (in rowid order) indexed, every
 * `queriesEvery`-th query asked, each query's known set cut to the indexed rows and its
 * truth recomputed over them (from f16, as the store scores). hnswlib-node adds one point
 * per call on one thread, so a 1M build takes hours here; a uniform sample keeps each
 * known set's share of the index, and a smaller index only makes the peer faster.
 */
export interface PeerSample {
  readonly rowsEvery: number;
  readonly queriesEvery: number;
}

/** The sample from BENCH_PEER_ROWS_EVERY and BENCH_PEER_QUERIES_EVERY (default: everything). */
export const peerSampleFromEnv = (): PeerSample => {
  const every = (name: string) => {
    const text = process.env[name] ?? "1";
    const v = Number(text);
    if (!Number.isInteger(v) || v < 1) {
      throw new Error(`${name}: "${text}" is not a whole number ≥ 1; give e.g. ${name}=10`);
    }
    return v;
  };
  return {
    rowsEvery: every("BENCH_PEER_ROWS_EVERY"),
    queriesEvery: every("BENCH_PEER_QUERIES_EVERY"),
  };
};

/** One query as the run asked it, with its truth (the exact 10th similarity, how many exist). */
export interface PeerQuery {
  readonly q: Float32Array;
  readonly known: ReadonlySet<number>;
  readonly tenth: number;
  readonly want: number;
}

type PeerOptions = { readonly m: number; readonly efConstruction: number; readonly ef: number };

export const hnswlibPeer = (
  store: VectorStore,
  rowids: Float64Array,
  queries: ReadonlyArray<PeerQuery>,
  opts: PeerOptions,
  sample: PeerSample = { rowsEvery: 1, queriesEvery: 1 },
) => {
  if (sample.rowsEvery > 1 || sample.queriesEvery > 1) {
    const kept = rowids.filter((_, i) => i % sample.rowsEvery === 0);
    const inSample = new Set(kept);
    const asked = queries
      .filter((_, i) => i % sample.queriesEvery === 0)
      .map(({ q, known }) => {
        const cut = new Set([...known].filter((r) => inSample.has(r)));
        const sims = [...cut].map((r) => store.similarity(q, r)).sort((a, b) => b - a);
        const want = Math.min(10, sims.length);
        return { q, known: cut, tenth: want > 0 ? sims[want - 1]! : -Infinity, want };
      });
    return { ...peerRun(store, kept, asked, opts), sample };
  }
  return { ...peerRun(store, rowids, queries, opts), sample };
};

const peerRun = (
  store: VectorStore,
  rowids: Float64Array,
  queries: ReadonlyArray<PeerQuery>,
  opts: PeerOptions,
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
    indexed: rowids.length,
    asked: queries.length,
  };
};
