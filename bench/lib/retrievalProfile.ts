/**
 * A focused profile of the retrieval bench's slow tiers: loads a finished bench world
 * (`bench retrieval` must have written it, and saved its index), warms up the NPCs of the
 * asked tiers, then records a V8 CPU profile (through `node:inspector`, so loading the
 * million-row view is not in it) of just their dossiers, and prints self time by function
 * and by part (vector scan, keyword FTS, section SQL, the rest).
 *
 *   node --import tsx bench/lib/retrievalProfile.ts [size=1M] [tiers=large,medium] [queries=3]
 *
 * Also prints per-query CPU percentiles of the same dossiers, with page faults and GC
 * counts around them, so the wall/CPU gap can be read off directly.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Prng } from "@hearsay/core";
import { inclusiveTimes, printGcs, selfTimes, shareLine, startProfiling } from "./cpuProfile.ts";
import { pct, timed } from "./retrievalBaseline.ts";
import { openBenchWorld } from "./retrievalOpen.ts";
import { NPCS, sentence, T_QUERY } from "./retrievalWorld.ts";

const arg = (i: number, d: string) => process.argv[2 + i] ?? d;
const sizeText = arg(0, "1M");
const n = sizeText.endsWith("M")
  ? Number(sizeText.slice(0, -1)) * 1e6
  : sizeText.endsWith("k")
    ? Number(sizeText.slice(0, -1)) * 1e3
    : Number(sizeText);
const tiers = new Set(arg(1, "large,medium").split(","));
const QUERIES = Number(arg(2, "3"));
const exact = process.env.PROFILE_EXACT === "1";

const main = async () => {
  const { built, db, saveId, w, engine } = openBenchWorld(n, exact);
  const load = timed(() => engine.view(saveId));
  console.error(`view loaded in ${Math.round(load.wall)} ms`);
  const qp = Prng.derive(11, "queries", n);
  const chosen = built.npcs.map((npc, i) => ({ npc, i })).filter(({ npc }) => tiers.has(npc.tier));
  const warm = timed(() => {
    for (const { npc } of chosen)
      engine.dossier({ saveId, npcId: npc.id, t: T_QUERY, query: sentence(qp, w, 0) });
  });
  console.error(`warm-up of ${chosen.length} NPCs: ${Math.round(warm.wall)} ms`);
  const profiling = await startProfiling();
  const byTier = new Map<string, { cpu: Array<number>; wall: Array<number> }>();
  const ru0 = process.resourceUsage();
  for (const { npc, i } of chosen) {
    const s = byTier.get(npc.tier) ?? { cpu: [], wall: [] };
    byTier.set(npc.tier, s);
    for (let k = 0; k < QUERIES; k++) {
      const text = sentence(qp, w, qp.int(0, w.topics.length - 1));
      const d = timed(() =>
        engine.dossier({
          saveId,
          npcId: npc.id,
          t: T_QUERY,
          query: text,
          scene: { locationId: w.places[i % 50]!, present: [built.npcs[(i + 1) % NPCS]!.id] },
        }),
      );
      s.cpu.push(d.cpu);
      s.wall.push(d.wall);
    }
  }
  const ru1 = process.resourceUsage();
  const { profile, nodes, gcs } = await profiling.stop();
  printGcs(gcs);
  writeFileSync(join(tmpdir(), "retrieval.cpuprofile"), JSON.stringify(profile));
  for (const [tier, s] of byTier) {
    console.log(
      `${tier}: ${s.cpu.length} dossiers, cpu p50 ${pct(s.cpu, 0.5).toFixed(2)} p90 ${pct(s.cpu, 0.9).toFixed(2)} p99 ${pct(s.cpu, 0.99).toFixed(2)} max ${Math.max(...s.cpu).toFixed(2)}; wall p50 ${pct(s.wall, 0.5).toFixed(2)} p99 ${pct(s.wall, 0.99).toFixed(2)}`,
    );
  }
  console.log(
    `page faults major ${ru1.majorPageFault - ru0.majorPageFault}, minor ${ru1.minorPageFault - ru0.minorPageFault}; vol ctx ${ru1.voluntaryContextSwitches - ru0.voluntaryContextSwitches}, invol ${ru1.involuntaryContextSwitches - ru0.involuntaryContextSwitches}; rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`,
  );
  const { rows, total } = selfTimes(nodes);
  for (const [k, v] of rows.slice(0, 45)) console.log(shareLine(v, total, k));
  // Inclusive time of a few entry points.
  const inclusive = inclusiveTimes(nodes);
  console.log("inclusive:");
  for (const name of [
    "dossier",
    "buildDossier",
    "dossierFrame",
    "context",
    "searchIn",
    "searchCollection",
    "knownNearest",
    "nearest",
    "sync",
    "candidates",
    "scanDotScored",
    "rank",
    "similarity",
    "search",
    "isCommon",
    "walk",
    "matchesFilter",
    "score",
    "knownRowids",
    "hitText",
    "item",
    "fromHits",
    "cutSection",
    "threadCandidates",
    "recentTurns",
    "edges",
    "openTasks",
    "character",
    "profile",
    "activity",
    "embedQuery",
    "mentionedEntities",
    "(garbage collector)",
  ])
    console.log(shareLine(inclusive.get(name) ?? 0, total, name));
  db.close();
};

await main();
