/**
 * A CPU profile of the peer-shaped workload's dossiers (`bench retrieval --workload=peer`
 * must have written its world and saved its index): loads the world, builds one dossier
 * per NPC to warm up, then records a V8 CPU profile of `queries` more per NPC and prints
 * self time by function, inclusive time of the dossier's parts, GC and CPU percentiles.
 *
 *   TMPDIR=… node --import tsx bench/lib/retrievalPeerProfile.ts [size=100k] [queries=2] [out]
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GCProfiler } from "node:v8";
import { ids, Prng } from "@hearsay/core";
import { runSearchOptions } from "@hearsay/engine";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { pct, timed } from "./retrievalBaseline.ts";
import { makeWorld, NPCS, sentence, T_QUERY } from "./retrievalWorld.ts";

const arg = (i: number, d: string) => process.argv[2 + i] ?? d;
const n = Number(arg(0, "100k").replace(/k$/, "000"));
const QUERIES = Number(arg(1, "2"));
const out = arg(2, join(tmpdir(), "peer.cpuprofile"));

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: Array<number>;
}

const post = <T>(s: Session, method: string, params?: object) =>
  new Promise<T>((res, rej) => {
    s.post(method, params ?? {}, (err, r) => (err ? rej(err) : res(r as T)));
  });

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
  const session = new Session();
  session.connect();
  await post(session, "Profiler.enable");
  await post(session, "Profiler.setSamplingInterval", { interval: 100 });
  await post(session, "Profiler.start");
  const gc = new GCProfiler();
  gc.start();
  const cpu: Array<number> = [];
  const wall: Array<number> = [];
  for (let k = 0; k < QUERIES; k++) {
    for (let i = 0; i < NPCS; i++) {
      const d = dossier(i);
      cpu.push(d.cpu);
      wall.push(d.wall);
    }
  }
  const gcs = new Map<string, { count: number; ms: number; max: number }>();
  for (const e of gc.stop()?.statistics ?? []) {
    const g = gcs.get(e.gcType) ?? { count: 0, ms: 0, max: 0 };
    g.count++;
    g.ms += e.cost / 1000;
    g.max = Math.max(g.max, e.cost / 1000);
    gcs.set(e.gcType, g);
  }
  const { profile } = await post<{ profile: { nodes: Array<Node> } }>(session, "Profiler.stop");
  writeFileSync(out, JSON.stringify(profile));
  console.log(
    `first dossiers cpu p50 ${pct(cold, 0.5).toFixed(2)} p99 ${pct(cold, 0.99).toFixed(2)} max ${Math.max(...cold).toFixed(2)}`,
  );
  console.log(
    `${cpu.length} dossiers: cpu p50 ${pct(cpu, 0.5).toFixed(2)} p90 ${pct(cpu, 0.9).toFixed(2)} p99 ${pct(cpu, 0.99).toFixed(2)}; wall p50 ${pct(wall, 0.5).toFixed(2)} p99 ${pct(wall, 0.99).toFixed(2)}`,
  );
  for (const [kind, g] of gcs)
    console.log(`gc ${kind}: ${g.count}×, ${g.ms.toFixed(1)} ms, longest ${g.max.toFixed(1)} ms`);
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const file = f.url.split("/").slice(-1)[0] ?? "";
    const key = `${f.functionName || "(anon)"} ${file}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (node.hitCount ?? 0));
    total += node.hitCount ?? 0;
  }
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const inclusive = new Map<string, number>();
  const stackWalk = (node: Node, stack: Array<string>) => {
    const name = node.callFrame.functionName;
    const next = name ? [...stack, name] : stack;
    const h = node.hitCount ?? 0;
    if (h > 0) for (const nm of new Set(next)) inclusive.set(nm, (inclusive.get(nm) ?? 0) + h);
    for (const c of node.children ?? []) stackWalk(byId.get(c)!, next);
  };
  stackWalk(profile.nodes[0]!, []);
  console.log("inclusive:");
  for (const [name, v] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, 60))
    console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${name}`);
  db.close();
};

await main();
