/** Retrieval: knowledge-filtered search and dossier latency, recall and size vs a brute-force scan.
 *
 * A seeded world of 1,000 NPCs and N memories (10k, 100k, 1M) is written through the
 * store's event log (`lib/retrievalWorld.ts`): memories with clustered text, each NPC
 * owning some and told others, so known sets run from tiny (10–200 items) through
 * small, medium and large to "most of the world" (50–90 %). The hashing embedder gives
 * real text vectors (384-d). Then, for every NPC, a few queries measure
 * (`lib/retrievalRun.ts`):
 * - vector search (the knowledge-filtered nearest neighbours the dossier uses),
 *   hybrid search (filters + FTS + vectors, scored) and a whole dossier, p50 / p99,
 *   in wall and in CPU time;
 * - recall@10 of the vector search against an exact knowledge-filtered scan (ties
 *   count: an item as close as the true 10th is a hit);
 * - leaks: every returned memory is checked with the store's SQL `knowsAt`;
 * - the baseline, in the same run: a brute-force cosine scan over all N vectors that
 *   keeps the best 10 the NPC knows (`lib/retrievalBaseline.ts`).
 *
 * `--workload=peer` runs the peer-shaped workload instead (`lib/retrievalPeerShaped.ts`):
 * known sets of ~5k of 100k (owner, up to 9 witnesses, 5 % known by all), cold and warm
 * dossier latency.
 *
 * Flags: `--sizes=10k,100k,1M` (or BENCH_SIZES; default 10k); `--reuse-world` (default;
 * `--fresh-world` rewrites it) reuses a world database a finished earlier run left in
 * the temp directory — the 1M world takes ~40 min to write; `--reuse-index` (or
 * BENCH_REUSE_INDEX=1) loads the saved index instead of rebuilding it, and the saved
 * hnswlib-node peer index too (its table row then reports the saved build's time);
 * `--reuse-peer-index` reads only the peer's, so our index is rebuilt and timed.
 * Queries per NPC: BENCH_QUERIES (3); the baseline is timed every BENCH_BRUTE_EVERY
 * queries (10). The hnswlib-node peer row (BENCH_PEER=0 leaves it out) indexes every row
 * and asks every query unless BENCH_PEER_ROWS_EVERY / BENCH_PEER_QUERIES_EVERY take a
 * uniform sample (`lib/retrievalPeer.ts`). Its single-threaded build of 1M points takes
 * over 1,000 s: `lib/retrievalPeerBuild.ts <size>` builds and saves it ahead of a
 * `--reuse-index` run (`lib/retrievalPeerIndex.ts`).
 */
import { printTable } from "./lib/printTable.ts";
import { runPeerShaped } from "./lib/retrievalPeerShaped.ts";
import { printRetrievalReport } from "./lib/retrievalReport.ts";
import { runSize } from "./lib/retrievalRun.ts";
import { NPCS, parseSize } from "./lib/retrievalWorld.ts";
import { writeResults } from "./lib/writeResults.ts";

const QUERIES = Number(process.env.BENCH_QUERIES ?? 3);
const flag = (name: string) => process.argv.includes(`--${name}`);
const sizeArg =
  process.argv.find((a) => a.startsWith("--sizes="))?.slice(8) ?? process.env.BENCH_SIZES ?? "10k";
const SIZES = sizeArg.split(",").map(parseSize);

const f = (x: number) => Math.round(x * 1000) / 1000;
if (process.argv.includes("--workload=peer")) {
  const peer = SIZES.map((n) => runPeerShaped(n, !flag("fresh-world")));
  printTable(
    "peer-shaped known sets (owner + up to 9 witnesses, 5 % known by all), ms",
    [
      "memories",
      "known mean",
      "first",
      "cold p50",
      "cold p99",
      "cold max",
      "warm p50",
      "warm p99",
      "vector p99",
      "cpu cold p99",
      "cpu cold max",
      "cpu warm p50",
      "cpu warm p99",
      "load",
      "recall@10",
      "leaks",
      "B/mem copies",
      "index build s",
    ],
    peer.map((r) => [
      r.memories,
      r.knownMean,
      `${f(r.firstDossierMs.wall)} (cpu ${f(r.firstDossierMs.cpu)})`,
      f(r.coldDossierMs.p50),
      f(r.coldDossierMs.p99),
      f(r.coldDossierMs.max),
      f(r.warmDossierMs.p50),
      f(r.warmDossierMs.p99),
      f(r.vectorMs.p99),
      f(r.coldDossierCpuMs.p99),
      f(r.coldDossierCpuMs.max),
      f(r.warmDossierCpuMs.p50),
      f(r.warmDossierCpuMs.p99),
      `${f(r.loadAverage.before)}→${f(r.loadAverage.after)}`,
      f(r.recallAt10),
      r.leaks,
      r.copiesBytesPerMemory,
      Number.isNaN(r.indexBuildMs) ? "loaded" : Math.round(r.indexBuildMs / 100) / 10,
    ]),
  );
  console.log(`results: ${writeResults(`retrieval-peer-${sizeArg}`, { sizes: peer })}`);
  process.exit(0);
}
const results = SIZES.map((n) =>
  runSize(n, {
    queries: QUERIES,
    bruteEvery: Number(process.env.BENCH_BRUTE_EVERY ?? 10),
    reuseIndex: flag("reuse-index") || process.env.BENCH_REUSE_INDEX === "1",
    reusePeerIndex: flag("reuse-peer-index"),
    reuseWorld: !flag("fresh-world"),
  }),
);
printRetrievalReport(results, NPCS, QUERIES);
const name = SIZES.length === 1 ? `retrieval-${sizeArg}` : "retrieval";
console.log(`results: ${writeResults(name, { sizes: results })}`);
