/**
 * How the partition tuning of big known-set copies trades recall for time: for the
 * `large` tier of a finished 1M bench world (known sets of 20k–100k), six queries per NPC,
 * the vector search's CPU time and recall@10 (ties count, as in the bench) under each
 * given tuning — each with its own `KnownMatrices`, built untimed first. A tool, not a
 * bench (it has no baseline): the numbers behind `defaultPartitionTuning`.
 *
 *   node --import tsx bench/lib/retrievalPartitionSweep.ts '[{"lists":128,"probeShare":0.2}]'
 */
import { Prng } from "@hearsay/core";
import { defaultNearestTuning, KnownMatrices, knownNearest, knownRowids } from "@hearsay/retrieval";
import { exactTop, pct, timed } from "./retrievalBaseline.ts";
import { openBenchWorld } from "./retrievalOpen.ts";
import { sentence, T_QUERY } from "./retrievalWorld.ts";

const n = 1_000_000;
const { built, db, saveId, w, embedder, index, engine } = openBenchWorld(n);
const view = engine.view(saveId);
const store = index.store("memories")!;
const large = built.npcs.filter((x) => x.tier === "large");
const qp = Prng.derive(99, "sweep");
const queries = large.flatMap((npc) =>
  Array.from({ length: 6 }, () => {
    const q = embedder.embedSync!(sentence(qp, w, qp.int(0, w.topics.length - 1)));
    const nix = view.npcs.find(npc.id);
    const known = knownRowids(view, nix, "memories", T_QUERY);
    return { nix, q, truth: exactTop((r) => store.similarity(q, r), known.rowids) };
  }),
);
console.error(`truth ready for ${queries.length} queries`);
const configs = JSON.parse(process.argv[2] ?? "[]") as Array<{ lists: number; probeShare: number }>;
for (const cfg of configs) {
  const m = new KnownMatrices(undefined, { minRows: 32_768, ...cfg });
  const warm = timed(() => {
    for (const x of queries)
      knownNearest(
        view,
        store,
        x.nix,
        "memories",
        T_QUERY,
        x.q,
        8,
        defaultNearestTuning,
        undefined,
        m,
      );
  });
  const cpu: Array<number> = [];
  let hits = 0;
  let total = 0;
  for (let rep = 0; rep < 2; rep++)
    for (const x of queries) {
      const r = timed(() =>
        knownNearest(
          view,
          store,
          x.nix,
          "memories",
          T_QUERY,
          x.q,
          10,
          defaultNearestTuning,
          undefined,
          m,
        ),
      );
      cpu.push(r.cpu);
      const tenth = x.truth.length === 10 ? x.truth[9]! : -Infinity;
      if (rep === 0) {
        hits += Math.min(
          r.value.filter((h) => h.similarity >= tenth - 1e-6).length,
          x.truth.length,
        );
        total += x.truth.length;
      }
    }
  console.log(
    `lists ${cfg.lists} share ${cfg.probeShare}: recall ${(hits / total).toFixed(4)}, vector cpu p50 ${pct(cpu, 0.5).toFixed(2)} p90 ${pct(cpu, 0.9).toFixed(2)} p99 ${pct(cpu, 0.99).toFixed(2)} ms (warm ${Math.round(warm.wall)} ms)`,
  );
}
db.close();
