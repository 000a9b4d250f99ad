/**
 * The peer row of the retrieval bench: hnswlib-node's HNSW with its filter callback (the
 * strongest off-the-shelf filtered search in Node), built over the same vectors and asked
 * the same queries with the same visibility rule, its recall counted against the same
 * exact truth. Single-threaded build (hnswlib-node adds one point per call), saved beside
 * the world and reused by `--reuse-index` (`retrievalPeerIndex.ts`).
 */
import type { VectorStore } from "@hearsay/retrieval";
import { pct, timed } from "./retrievalBaseline.ts";
import { peerIndex } from "./retrievalPeerIndex.ts";

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

/** The peer's build parameters and search breadth (BENCH_PEER_EF, default 128). */
export const peerOptionsFromEnv = (): PeerOptions => ({
  m: 16,
  efConstruction: 128,
  ef: Number(process.env.BENCH_PEER_EF ?? 128),
});

/** Where the peer index is kept: beside the world database, read back when `reuse`. */
export interface PeerSaved {
  readonly dbPath: string;
  readonly reuse: boolean;
}

/** The rows a sample indexes (every `rowsEvery`-th, in rowid order). */
export const sampledRows = (rowids: Float64Array, rowsEvery: number): Float64Array =>
  rowsEvery > 1 ? rowids.filter((_, i) => i % rowsEvery === 0) : rowids;

export const hnswlibPeer = (
  store: VectorStore,
  rowids: Float64Array,
  queries: ReadonlyArray<PeerQuery>,
  opts: PeerOptions,
  saved: PeerSaved,
  sample: PeerSample = { rowsEvery: 1, queriesEvery: 1 },
) => {
  if (sample.rowsEvery > 1 || sample.queriesEvery > 1) {
    const kept = sampledRows(rowids, sample.rowsEvery);
    const inSample = sample.rowsEvery > 1 ? new Set(kept) : null;
    const asked = queries
      .filter((_, i) => i % sample.queriesEvery === 0)
      .map((asked) => {
        // Every row indexed: the known set and its truth are the run's own.
        if (inSample === null) return asked;
        const { q, known } = asked;
        const cut = new Set([...known].filter((r) => inSample.has(r)));
        const sims = [...cut].map((r) => store.similarity(q, r)).sort((a, b) => b - a);
        const want = Math.min(10, sims.length);
        return { q, known: cut, tenth: want > 0 ? sims[want - 1]! : -Infinity, want };
      });
    return { ...peerRun(store, kept, asked, opts, saved), sample };
  }
  return { ...peerRun(store, rowids, queries, opts, saved), sample };
};

const peerRun = (
  store: VectorStore,
  rowids: Float64Array,
  queries: ReadonlyArray<PeerQuery>,
  opts: PeerOptions,
  saved: PeerSaved,
) => {
  const { index, buildMs, buildCpuMs, buildLoad, loaded } = peerIndex(
    store,
    rowids,
    opts,
    saved.dbPath,
    saved.reuse,
  );
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
    buildMs,
    /** The build's CPU time, and the load average as it began and ended (NaN / null: not kept). */
    buildCpuMs,
    buildLoad,
    /** The index was read from the file an earlier build saved (`buildMs` is that build's). */
    loaded,
    m: opts.m,
    efConstruction: opts.efConstruction,
    ef: opts.ef,
    vectorMs: { p50: pct(wall, 0.5), p99: pct(wall, 0.99) },
    recallAt10: total > 0 ? hits / total : 1,
    indexed: rowids.length,
    asked: queries.length,
  };
};
