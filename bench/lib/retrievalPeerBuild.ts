/**
 * Builds the retrieval bench's hnswlib-node peer index ahead of a run and saves it beside
 * the world database, so `pnpm bench retrieval --sizes=<size> --reuse-index` reads it
 * instead of spending the build (over 1,000 s single-threaded at 1M) inside the run; the
 * run's table reports the build time this saved. The world must exist, its index saved
 * (a finished `bench retrieval` run of that size). Rows: every one, or every
 * BENCH_PEER_ROWS_EVERY-th as the run would sample them; parameters as the run's.
 *
 *   NODE_OPTIONS=--conditions=@hearsay/source npx tsx bench/lib/retrievalPeerBuild.ts [size=1M]
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { openBenchWorld } from "./retrievalOpen.ts";
import { peerOptionsFromEnv, peerSampleFromEnv, sampledRows } from "./retrievalPeer.ts";
import { peerIndex } from "./retrievalPeerIndex.ts";
import { worldPath } from "./retrievalRun.ts";
import { parseSize } from "./retrievalWorld.ts";

const sizeText = process.argv[2] ?? "1M";
const n = parseSize(sizeText);
if (!existsSync(`${worldPath(n)}.done`)) {
  console.error(
    `${worldPath(n)}.done: no finished ${sizeText} world; run \`pnpm bench retrieval --sizes=${sizeText}\` first`,
  );
  process.exit(1);
}
const sample = peerSampleFromEnv();
const { db, index } = openBenchWorld(n);
const store = index.store("memories")!;
const rows = sampledRows(store.entries().rowids, sample.rowsEvery);
console.error(`peer index over ${rows.length} of ${store.size} rows (load ${loadavg()[0]})`);
const built = peerIndex(store, rows, peerOptionsFromEnv(), worldPath(n), true);
console.log(
  `${built.loaded ? "already saved" : "built"}: ${built.file} (build ${built.buildMs} ms, ` +
    `${built.buildCpuMs} ms CPU, load ${built.buildLoad?.join("→") ?? "?"}; now ${loadavg()[0]})`,
);
db.close();
