/**
 * A CPU profile of the peer-shaped workload's dossiers (`bench retrieval --workload=peer`
 * must have written its world and saved its index): loads the world, builds one dossier
 * per NPC to warm up, then records a V8 CPU profile of `queries` more per NPC and prints
 * self time by function, inclusive time of the dossier's parts, GC and CPU percentiles.
 *
 *   TMPDIR=… node --import tsx bench/lib/retrievalPeerProfile.ts [size=100k] [queries=2] [out]
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids, Prng } from "@hearsay/core";
import { runSearchOptions } from "@hearsay/engine";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { inclusiveTimes, printGcs, selfTimes, shareLine, startProfiling } from "./cpuProfile.ts";
import { pct, timed } from "./retrievalBaseline.ts";
import { makeWorld, NPCS, sentence, T_QUERY } from "./retrievalWorld.ts";

const arg = (i: number, d: string) => process.argv[2 + i] ?? d;
const n = Number(arg(0, "100k").replace(/k$/, "000"));
const QUERIES = Number(arg(1, "2"));
const out = arg(2, join(tmpdir(), "peer.cpuprofile"));

const main = async () => {
  const db = openDatabase(join(tmpdir(), `hearsay-retrieval-peer-${n}.db`));
  const log = new SqliteEventLog(db);
  const saveId = ids.save("bench");
  const embedder = makeHashingEmbedder();
  const { index } = Effect.runSync(VectorIndexes.open(db, embedder, { collections: ["memories"] }));
  const engine = new RetrievalEngine(db, { log, embedder, index, ...runSearchOptions });
  const w = makeWorld(Prng.derive(7, "names"));
  const qp = Prng.derive(12, "peer-queries", n);
  const ask = () => sentence(qp, w, qp.int(0, w.topics.length - 1));
  const scene = (i: number) => ({
    locationId: w.places[i % 50]!,
    present: [`npc-${(i + 1) % NPCS}`],
  });
  const dossier = (i: number) =>
    timed(() =>
      engine.dossier({ saveId, npcId: `npc-${i}`, t: T_QUERY, query: ask(), scene: scene(i) }),
    );
  const load = timed(() => engine.view(saveId));
  console.error(`view loaded in ${Math.round(load.wall)} ms`);
  const cold: Array<number> = [];
  for (let i = 0; i < NPCS; i++) cold.push(dossier(i).cpu);
  const profiling = await startProfiling();
  const cpu: Array<number> = [];
  const wall: Array<number> = [];
  for (let k = 0; k < QUERIES; k++) {
    for (let i = 0; i < NPCS; i++) {
      const d = dossier(i);
      cpu.push(d.cpu);
      wall.push(d.wall);
    }
  }
  const { profile, nodes, gcs } = await profiling.stop();
  writeFileSync(out, JSON.stringify(profile));
  console.log(
    `first dossiers cpu p50 ${pct(cold, 0.5).toFixed(2)} p99 ${pct(cold, 0.99).toFixed(2)} max ${Math.max(...cold).toFixed(2)}`,
  );
  console.log(
    `${cpu.length} dossiers: cpu p50 ${pct(cpu, 0.5).toFixed(2)} p90 ${pct(cpu, 0.9).toFixed(2)} p99 ${pct(cpu, 0.99).toFixed(2)}; wall p50 ${pct(wall, 0.5).toFixed(2)} p99 ${pct(wall, 0.99).toFixed(2)}`,
  );
  printGcs(gcs);
  const { rows, total } = selfTimes(nodes);
  for (const [k, v] of rows.slice(0, 40)) console.log(shareLine(v, total, k));
  console.log("inclusive:");
  const inclusive = [...inclusiveTimes(nodes).entries()].sort((a, b) => b[1] - a[1]);
  for (const [name, v] of inclusive.slice(0, 60)) console.log(shareLine(v, total, name));
  db.close();
};

await main();
