/**
 * The peer-shaped workload of the retrieval bench: known sets shaped like a village's
 * gossip rather than by tier. N memories (clustered text, as in the main bench), each
 * known by its owner and by up to 9 witnesses, and 5 % of them known by every NPC, so a
 * known set averages about 5k of 100k. Memories are written through the event log; the
 * knowledge facts (about 5.5M at 100k, mostly the known-by-all ones) are written straight
 * into the `knowledge` table the log's fold fills, in one transaction — through the log
 * they would take most of an hour here, and retrieval reads only the table.
 *
 * Measured on the run path's code (`runSearchOptions`): the process's first dossier (its
 * start-up, timed apart), each NPC's first dossier (cold: nothing cached for it yet) and
 * three more (warm), wall and CPU, the vector search's recall@10 against
 * an exact scan of what it knows, and every returned memory checked with the store's SQL
 * `knowsAt` (leaks).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type Event, type GameTime, ids, makeEvent, Prng } from "@hearsay/core";
import { runSearchOptions } from "@hearsay/engine";
import {
  knownNearest,
  knownRowids,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { exactTop, pct, timed } from "./retrievalBaseline.ts";
import { makeWorld, NPCS, sentence, T_QUERY } from "./retrievalWorld.ts";

const path = (n: number) => join(tmpdir(), `hearsay-retrieval-peer-${n}.db`);

const writeWorld = (dbPath: string, n: number) => {
  const dir = tmpdir();
  const base = dbPath.slice(dir.length + 1);
  for (const f of readdirSync(dir)) if (f.startsWith(base)) rmSync(join(dir, f), { force: true });
  const db = openDatabase(dbPath);
  const log = new SqliteEventLog(db);
  const saveId = ids.save("bench");
  log.createSave({ saveId, campaignId: ids.campaign("bench"), name: "bench" });
  const w = makeWorld(Prng.derive(7, "names"));
  const p = Prng.derive(2027, "peer-bench", n);
  let seq = 0;
  let batch: Array<Event> = [];
  const flush = () => {
    if (batch.length > 0) log.append(saveId, log.head(saveId), batch);
    batch = [];
  };
  const push = (type: "NpcRegistered" | "MemoryRecorded", t: number, payload: object) => {
    batch.push(makeEvent(type, { id: ids.event(`e${++seq}`), t: t as GameTime, payload } as never));
    if (batch.length >= 5000) flush();
  };
  for (let i = 0; i < NPCS; i++) {
    push("NpcRegistered", 0, {
      npcId: `npc-${i}`,
      name: w.names[i],
      role: "villager",
      factionId: `faction-${i % 10}`,
      locationId: w.places[i % w.places.length],
      traits: [],
    });
  }
  const owner = new Int32Array(n);
  for (let m = 0; m < n; m++) {
    owner[m] = p.int(0, NPCS - 1);
    push("MemoryRecorded", 1 + m, {
      memoryId: `m${m}`,
      ownerNpcId: `npc-${owner[m]}`,
      text: sentence(p, w, p.int(0, w.topics.length - 1)),
      category: "observation",
      importance: Math.round(p.float() * 100) / 100,
      expiresAt: null,
      locationId: w.places[p.int(0, w.places.length - 1)],
      entities: [w.names[owner[m]!]],
      about: null,
    });
  }
  flush();
  const insert = db.prepare(
    "INSERT OR IGNORE INTO knowledge (save_id, campaign_id, npc_id, item_kind, item_id, t, via, from_npc_id, confidence) VALUES (?, 'bench', ?, 'memory', ?, ?, 'told', NULL, 0.5)",
  );
  let facts = 0;
  db.transaction(() => {
    for (let m = 0; m < n; m++) {
      const t = n + 10 + (m % 1000);
      if (p.chance(0.05)) {
        for (let i = 0; i < NPCS; i++) {
          if (i !== owner[m]) facts += insert.run(saveId, `npc-${i}`, `m${m}`, t).changes;
        }
        continue;
      }
      for (let k = p.int(0, 9); k > 0; k--) {
        const i = p.int(0, NPCS - 1);
        if (i !== owner[m]) facts += insert.run(saveId, `npc-${i}`, `m${m}`, t).changes;
      }
    }
  })();
  db.close();
  writeFileSync(`${dbPath}.done`, JSON.stringify({ facts }));
  return facts;
};

/** Builds (or reuses) the peer-shaped world of `n` memories and measures it. */
export const runPeerShaped = (n: number, reuseWorld: boolean) => {
  const dbPath = path(n);
  let t0 = performance.now();
  const reused = reuseWorld && existsSync(`${dbPath}.done`);
  const facts = reused
    ? (JSON.parse(readFileSync(`${dbPath}.done`, "utf8")) as { facts: number }).facts
    : writeWorld(dbPath, n);
  const worldMs = Math.round(performance.now() - t0);
  console.error(`[peer ${n}] world: ${n} memories, ${facts} facts (${worldMs} ms)`);
  const db = openDatabase(dbPath);
  const log = new SqliteEventLog(db);
  const saveId = ids.save("bench");
  const embedder = makeHashingEmbedder();
  t0 = performance.now();
  // A reused world loads the index its first run saved (BENCH_REUSE_INDEX=0 rebuilds it).
  const reuseIndex = reused && process.env.BENCH_REUSE_INDEX !== "0";
  const { index, reports } = Effect.runSync(
    (reuseIndex ? VectorIndexes.open : VectorIndexes.rebuild)(db, embedder, {
      collections: ["memories"],
    }),
  );
  const indexReused = reuseIndex && reports[0]!.outcome === "loaded";
  const indexMs = indexReused ? Number.NaN : Math.round(performance.now() - t0);
  const store = index.store("memories")!;
  console.error(
    indexReused
      ? `[peer ${n}] index loaded (saved by an earlier run) in ${Math.round(performance.now() - t0)} ms`
      : `[peer ${n}] index built in ${indexMs} ms`,
  );
  const engine = new RetrievalEngine(db, { log, embedder, index, ...runSearchOptions });
  const view = engine.view(saveId);
  const w = makeWorld(Prng.derive(7, "names"));
  const qp = Prng.derive(12, "peer-queries", n);
  const cold: Array<number> = [];
  const warm: Array<number> = [];
  const vector: Array<number> = [];
  const coldCpu: Array<number> = [];
  const warmCpu: Array<number> = [];
  const vectorCpu: Array<number> = [];
  const loadBefore = loadavg();
  // The process's first dossier compiles the search's code and prepares its statements:
  // a start-up cost, timed apart. No cache is kept per NPC (copies are off), so npc-0's
  // first measured dossier below is as cold as any other NPC's.
  const warmUp = Prng.derive(13, "peer-warm-up", n);
  const first = timed(() =>
    engine.dossier({
      saveId,
      npcId: "npc-0",
      t: T_QUERY,
      query: sentence(warmUp, w, warmUp.int(0, w.topics.length - 1)),
      scene: { locationId: w.places[0]!, present: ["npc-1"] },
    }),
  );
  const known: Array<number> = [];
  let hits = 0;
  let total = 0;
  let leaks = 0;
  let checked = 0;
  for (let i = 0; i < NPCS; i++) {
    const npcId = `npc-${i}`;
    const nix = view.npcs.find(npcId);
    const scene = { locationId: w.places[i % 50]!, present: [`npc-${(i + 1) % NPCS}`] };
    const ask = () => sentence(qp, w, qp.int(0, w.topics.length - 1));
    const c = timed(() => engine.dossier({ saveId, npcId, t: T_QUERY, query: ask(), scene }));
    cold.push(c.wall);
    coldCpu.push(c.cpu);
    const mine = knownRowids(view, nix, "memories", T_QUERY);
    known.push(mine.rowids.length);
    for (let k = 0; k < 3; k++) {
      const text = ask();
      const d = timed(() => engine.dossier({ saveId, npcId, t: T_QUERY, query: text, scene }));
      warm.push(d.wall);
      warmCpu.push(d.cpu);
      const q = embedder.embedSync!(text);
      const v = timed(() =>
        knownNearest(
          view,
          store,
          nix,
          "memories",
          T_QUERY,
          q,
          10,
          engine.tuning,
          undefined,
          engine.copies,
        ),
      );
      vector.push(v.wall);
      vectorCpu.push(v.cpu);
      const truth = exactTop((r) => store.similarity(q, r), mine.rowids);
      const tenth = truth.length === 10 ? truth[9]! : -Infinity;
      hits += Math.min(truth.length, v.value.filter((h) => h.similarity >= tenth - 1e-6).length);
      total += truth.length;
      const ids = [
        ...v.value.map((h) => view.items.memories.ids[h.local]!),
        ...d.value!.sections.find((s) => s.name === "memories")!.items.map((x) => x.id),
      ];
      for (const id of ids) {
        checked++;
        if (!log.knowsAt(saveId, npcId as never, "memory", id, T_QUERY)) leaks++;
      }
    }
    if (i % 250 === 249) console.error(`[peer ${n}] measured ${i + 1}/${NPCS} NPCs`);
  }
  const result = {
    memories: n,
    npcs: NPCS,
    facts,
    worldMs,
    worldReused: reused,
    indexReused,
    indexBuildMs: indexMs,
    knownMean: Math.round(known.reduce((a, x) => a + x, 0) / known.length),
    knownMax: Math.max(...known),
    firstDossierMs: { wall: first.wall, cpu: first.cpu },
    coldDossierMs: { p50: pct(cold, 0.5), p99: pct(cold, 0.99), max: Math.max(...cold) },
    warmDossierMs: { p50: pct(warm, 0.5), p99: pct(warm, 0.99) },
    vectorMs: { p50: pct(vector, 0.5), p99: pct(vector, 0.99) },
    coldDossierCpuMs: {
      p50: pct(coldCpu, 0.5),
      p99: pct(coldCpu, 0.99),
      max: Math.max(...coldCpu),
    },
    warmDossierCpuMs: { p50: pct(warmCpu, 0.5), p99: pct(warmCpu, 0.99) },
    vectorCpuMs: { p50: pct(vectorCpu, 0.5), p99: pct(vectorCpu, 0.99) },
    loadAverage: { before: loadBefore[0] ?? 0, after: loadavg()[0] ?? 0 },
    recallAt10: total > 0 ? hits / total : 1,
    leaks,
    checked,
    copiesBytesPerMemory: Math.round((engine.copies?.size ?? 0) / n),
  };
  db.close();
  return result;
};
