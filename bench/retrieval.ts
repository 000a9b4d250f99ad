/** Retrieval: knowledge-filtered search and dossier latency, recall and size vs a brute-force scan.
 *
 * A seeded world of 1,000 NPCs and N memories (10k, 100k, 1M) is written through the
 * store's event log: memories with clustered text (topics × names × places), each NPC
 * owning some and told others, so known sets run from tiny (10–200 items) through
 * small, medium and large to "most of the world" (50–90 %). The hashing embedder gives
 * real text vectors (384-d). Then, for every NPC, a few queries measure:
 * - vector search (the knowledge-filtered nearest neighbours the dossier uses),
 *   hybrid search (filters + FTS + vectors, scored) and a whole dossier, p50 / p99;
 * - recall@10 of the vector search against an exact knowledge-filtered scan (ties
 *   count: an item as close as the true 10th is a hit);
 * - leaks: every returned memory is checked with the store's SQL `knowsAt`;
 * - the baseline, in the same run: a brute-force cosine scan over all N vectors that
 *   keeps the best 10 the NPC knows.
 * Sizes: `--sizes=10k,100k,1M` or BENCH_SIZES (default 10k). Queries per NPC: BENCH_QUERIES (3).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type Event, type EventType, type GameTime, ids, makeEvent, Prng } from "@hearsay/core";
import {
  defaultNearestTuning,
  knownNearest,
  knownRowids,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
  type VectorStore,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

const NPCS = 1000;
/** Every how many queries the all-N brute-force baseline is timed (BENCH_BRUTE_EVERY). */
const BRUTE_EVERY = Number(process.env.BENCH_BRUTE_EVERY ?? 10);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 3);
const parseSize = (s: string): number => {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s.trim());
  if (!m) throw new Error(`bench retrieval: bad size '${s}' (use e.g. 10k, 100k, 1M)`);
  const mult = m[2]?.toLowerCase() === "k" ? 1e3 : m[2]?.toLowerCase() === "m" ? 1e6 : 1;
  return Math.round(Number(m[1]) * mult);
};
const sizeArg =
  process.argv.find((a) => a.startsWith("--sizes="))?.slice(8) ?? process.env.BENCH_SIZES ?? "10k";
const SIZES = sizeArg.split(",").map(parseSize);

// --- the world ----------------------------------------------------------------------

const SYLLABLES = "ka ri to mel an dor vi sa lun bre ek os tha gar wyn el mo fen ra quil".split(
  " ",
);
const BASE = (
  "grain harvest storm rain wolf bandit sword coin debt wedding funeral fever herb ale feast market tax " +
  "guard patrol fire smoke river bridge boat fish net forge iron horse cart road letter secret oath king " +
  "queen temple priest prayer ghost cellar wine dog sheep wool loom song bard dance thief lock key map " +
  "treasure cave mine silver gold loan bread oven mill wheel roof nail timber axe hunt deer bow arrow " +
  "spear shield banner war peace treaty envoy ship sail harbor tide salt spice silk dye paint portrait " +
  "candle wax bee honey apple orchard frost snow ice well bucket rope ladder tower bell clock"
).split(" ");
const VERBS =
  "saw heard found lost sold bought fixed broke hid stole carried praised cursed remembered promised feared".split(
    " ",
  );
const ADJS = "old new broken strange heavy bright dark cheap costly wet quiet loud".split(" ");

interface World {
  readonly names: ReadonlyArray<string>;
  readonly places: ReadonlyArray<string>;
  readonly topics: ReadonlyArray<ReadonlyArray<string>>;
}

const makeWorld = (p: Prng): World => {
  const name = () => {
    let s = "";
    for (let i = p.int(2, 3); i > 0; i--) s += p.pick(SYLLABLES);
    return s[0]!.toUpperCase() + s.slice(1);
  };
  return {
    names: Array.from({ length: NPCS }, (_, i) => `${name()}${i}`),
    places: Array.from({ length: 50 }, () => `${name()}ford`),
    topics: Array.from({ length: 300 }, () => Array.from({ length: 8 }, () => p.pick(BASE))),
  };
};

/** A sentence about one topic, naming people and a place: clustered, realistic-ish text. */
const sentence = (p: Prng, w: World, topic: number): string => {
  const t = w.topics[topic]!;
  const parts = [p.pick(w.names), p.pick(VERBS), "the", p.pick(ADJS), p.pick(t)];
  for (let i = p.int(2, 4); i > 0; i--)
    parts.push(p.pick(["and", "with", "near", "after", "for"]), p.pick(t));
  parts.push("at", p.pick(w.places));
  if (p.chance(0.5)) parts.push("while", p.pick(w.names), p.pick(VERBS), "a", p.pick(t));
  return `${parts.join(" ")}.`;
};

interface Tier {
  readonly name: string;
  readonly share: number;
  readonly size: (n: number, p: Prng) => number;
}

const logUniform = (p: Prng, lo: number, hi: number) =>
  Math.round(Math.exp(Math.log(lo) + p.float() * (Math.log(hi) - Math.log(lo))));
const TIERS: ReadonlyArray<Tier> = [
  { name: "tiny", share: 0.565, size: (_, p) => logUniform(p, 10, 200) },
  {
    name: "small",
    share: 0.3,
    size: (n, p) => logUniform(p, 200, Math.max(400, Math.min(5000, n / 10))),
  },
  { name: "medium", share: 0.1, size: (n, p) => logUniform(p, n * 0.005 + 500, n * 0.02 + 1000) },
  { name: "large", share: 0.03, size: (n, p) => logUniform(p, n * 0.02, n * 0.1) },
  { name: "most", share: 0.005, size: (n, p) => Math.round(n * (0.5 + 0.4 * p.float())) },
];

interface Npc {
  readonly id: string;
  readonly tier: string;
  readonly target: number;
}

const T_QUERY = 10_000_000 as GameTime;

/** Writes the world through the event log; returns the cast and the number of facts. */
const buildWorld = (log: SqliteEventLog, saveId: string, n: number, w: World) => {
  const p = Prng.derive(2026, "retrieval-bench", n);
  const npcs: Array<Npc> = [];
  for (const tier of TIERS) {
    const count = Math.round(NPCS * tier.share);
    for (let i = 0; i < count && npcs.length < NPCS; i++) {
      npcs.push({
        id: `npc-${npcs.length}`,
        tier: tier.name,
        target: Math.min(n, Math.max(10, tier.size(n, p))),
      });
    }
  }
  let seq = 0;
  let batch: Array<Event> = [];
  const flush = () => {
    if (batch.length > 0) log.append(saveId, log.head(saveId), batch);
    batch = [];
  };
  const push = (type: EventType, t: number, payload: object) => {
    batch.push(makeEvent(type, { id: ids.event(`e${++seq}`), t: t as GameTime, payload } as never));
    if (batch.length >= 5000) flush();
  };
  for (const [i, npc] of npcs.entries()) {
    push("NpcRegistered", 0, {
      npcId: npc.id,
      name: w.names[i],
      role: "villager",
      factionId: `faction-${i % 10}`,
      locationId: w.places[i % w.places.length],
      traits: [],
    });
  }
  // Owners are drawn in proportion to each NPC's target known-set size.
  const cumulative: Array<number> = [];
  let sum = 0;
  for (const npc of npcs) {
    sum += npc.target;
    cumulative.push(sum);
  }
  const owned = new Array<number>(npcs.length).fill(0);
  const ownerOf = new Int32Array(n);
  for (let m = 0; m < n; m++) {
    const x = p.float() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    ownerOf[m] = lo;
    owned[lo]!++;
    const topic = p.int(0, w.topics.length - 1);
    push("MemoryRecorded", 1 + m, {
      memoryId: `m${m}`,
      ownerNpcId: npcs[lo]!.id,
      text: sentence(p, w, topic),
      category: "observation",
      importance: Math.round(p.float() * 100) / 100,
      expiresAt: p.chance(0.05) ? 1 + m + p.int(60, 100_000) : null,
      locationId: w.places[p.int(0, w.places.length - 1)],
      entities: [w.names[lo], w.names[p.int(0, NPCS - 1)]],
      about: null,
    });
  }
  // Facts bring each NPC up to its target: a stride walk gives distinct memories cheaply.
  let facts = 0;
  npcs.forEach((npc, i) => {
    const want = Math.max(0, npc.target - owned[i]!);
    let stride = p.int(1, n - 1);
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    while (gcd(stride, n) !== 1) stride++;
    let at = p.int(0, n - 1);
    for (let k = 0; k < want; k++, at = (at + stride) % n) {
      if (ownerOf[at] === i) continue;
      push("KnowledgeGained", n + 10 + (k % 1000), {
        npcId: npc.id,
        itemKind: "memory",
        itemId: `m${at}`,
        via: "told",
        fromNpcId: null,
        confidence: 0.5,
      });
      facts++;
    }
  });
  flush();
  return { npcs, facts };
};

// --- measuring ----------------------------------------------------------------------

const pct = (xs: ReadonlyArray<number>, q: number): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** The same vectors as one flat f32 matrix (what a brute-force scan would hold). */
const flatMatrix = (store: VectorStore, rowids: Int32Array): Float32Array => {
  const d = store.dimensions;
  const m = new Float32Array(rowids.length * d);
  for (let i = 0; i < rowids.length; i++) m.set(store.vector(rowids[i]!)!, i * d);
  return m;
};

/** The baseline: cosine against every vector of the matrix, best 10 the NPC knows. */
const bruteForce = (
  matrix: Float32Array,
  rowids: Int32Array,
  known: (rowid: number) => boolean,
  q: Float32Array,
): Array<number> => {
  const d = q.length;
  const top: Array<[number, number]> = [];
  for (let i = 0; i < rowids.length; i++) {
    let dot = 0;
    const o = i * d;
    for (let j = 0; j < d; j++) dot += matrix[o + j]! * q[j]!;
    if (top.length < 10 || dot > top[top.length - 1]![0]) {
      if (!known(rowids[i]!)) continue;
      top.push([dot, rowids[i]!]);
      top.sort((a, b) => b[0] - a[0]);
      if (top.length > 10) top.pop();
    }
  }
  return top.map((x) => x[1]);
};

/** Exact top-10 similarities among the given rows (the recall truth). */
const exactTop = (
  store: VectorStore,
  rowids: ReadonlyArray<number>,
  q: Float32Array,
): Array<number> => {
  const sims = rowids.map((r) => store.similarity(q, r));
  return sims.sort((a, b) => b - a).slice(0, 10);
};

const dirBytes = (dir: string, prefix: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .reduce((a, f) => a + statSync(join(dir, f)).size, 0);

const ms = (from: number) => Math.round(performance.now() - from);

/** Runs `f`, returning its result with its wall and CPU (user + system) time in ms. */
const timed = <A>(
  f: () => A,
): { readonly value: A; readonly wall: number; readonly cpu: number } => {
  const cpu = process.cpuUsage();
  const s = performance.now();
  const value = f();
  const wall = performance.now() - s;
  const used = process.cpuUsage(cpu);
  return { value, wall, cpu: (used.user + used.system) / 1000 };
};

/**
 * The world database for a size. Writing 1M memories and millions of facts through the
 * log takes long on a busy machine, so a finished world is kept in the temp directory
 * (BENCH_KEEP_WORLD=0 to delete it) and reused; the index is always rebuilt and timed.
 */
const worldPath = (n: number) => join(tmpdir(), `hearsay-retrieval-bench-${n}.db`);
const KEEP_WORLD = process.env.BENCH_KEEP_WORLD !== "0";

const removeWorld = (dbPath: string) => {
  const dir = tmpdir();
  const base = dbPath.slice(dir.length + 1);
  for (const f of readdirSync(dir)) if (f.startsWith(base)) rmSync(join(dir, f), { force: true });
};

const runSize = (n: number) => {
  const dbPath = worldPath(n);
  const done = `${dbPath}.done`;
  if (!existsSync(done)) removeWorld(dbPath);
  try {
    const db = openDatabase(dbPath);
    const log = new SqliteEventLog(db);
    const saveId = ids.save("bench");
    const w = makeWorld(Prng.derive(7, "names"));
    let t0 = performance.now();
    let worldMs = 0;
    let built: ReturnType<typeof buildWorld>;
    if (existsSync(done)) {
      built = JSON.parse(String(readFileSync(done))) as ReturnType<typeof buildWorld>;
      worldMs = (built as { worldMs?: number }).worldMs ?? 0;
      console.error(`[${n}] reusing the world in ${dbPath}`);
    } else {
      log.createSave({ saveId, campaignId: ids.campaign("bench"), name: "bench" });
      built = buildWorld(log, saveId, n, w);
      worldMs = ms(t0);
      writeFileSync(done, JSON.stringify({ ...built, worldMs }));
    }
    const { npcs, facts } = built;
    console.error(`[${n}] world: ${n} memories, ${facts} facts (written in ${worldMs} ms)`);

    const embedder = makeHashingEmbedder();
    t0 = performance.now();
    let lastLog = 0;
    // BENCH_REUSE_INDEX=1 loads the index a previous run saved (its build time was
    // reported by that run) instead of rebuilding it.
    const reuse = process.env.BENCH_REUSE_INDEX === "1";
    const { index, reports } = Effect.runSync(
      (reuse ? VectorIndexes.open : VectorIndexes.rebuild)(db, embedder, {
        collections: ["memories"],
        onProgress: (pr) => {
          if (performance.now() - lastLog > 15_000) {
            lastLog = performance.now();
            console.error(`[${n}] index ${pr.phase} ${pr.done}/${pr.total}`);
          }
        },
      }),
    );
    const indexMs = reuse && reports[0]!.outcome === "loaded" ? Number.NaN : ms(t0);
    const store = index.store("memories")!;
    console.error(
      `[${n}] index built in ${indexMs} ms (${reports[0]!.outcome}, graph ${store.hasGraph})`,
    );

    const heapBefore = process.memoryUsage().heapUsed;
    t0 = performance.now();
    const engine = new RetrievalEngine(db, { log, embedder, index });
    const view = engine.view(saveId);
    const viewMs = ms(t0);
    const viewBytes = Math.max(0, process.memoryUsage().heapUsed - heapBefore);

    const qp = Prng.derive(11, "queries", n);
    const all = store.entries().rowids;
    const matrix = flatMatrix(store, all);
    const allQ8 = new Int8Array(all.length * store.dimensions);
    all.forEach((r, i) => {
      store.copyQuantized(r, allQ8, i * store.dimensions);
    });
    const series = () => ({
      vector: [] as Array<number>,
      search: [] as Array<number>,
      dossier: [] as Array<number>,
      brute: [] as Array<number>,
      scan: [] as Array<number>,
    });
    const lat = series();
    const cpu = series();
    const byTier = new Map<
      string,
      {
        dossier: Array<number>;
        dossierCpu: Array<number>;
        vector: Array<number>;
        hits: number;
        total: number;
        known: Array<number>;
      }
    >();
    let hits = 0;
    let total = 0;
    let leaks = 0;
    let checked = 0;
    // Warm-up, untimed: one dossier per NPC, as in a running simulation (JIT, page cache,
    // and each large known set's contiguous copy, built once per NPC and then kept).
    const warm = timed(() => {
      for (const npc of npcs) {
        engine.dossier({ saveId, npcId: npc.id, t: T_QUERY, query: sentence(qp, w, 0) });
      }
    });
    for (const [i, npc] of npcs.entries()) {
      const nix = view.npcs.find(npc.id);
      const tier = byTier.get(npc.tier) ?? {
        dossier: [],
        dossierCpu: [],
        vector: [],
        hits: 0,
        total: 0,
        known: [],
      };
      byTier.set(npc.tier, tier);
      const known = knownRowids(view, nix, "memories", T_QUERY);
      tier.known.push(known.rowids.length);
      const knownSet = new Set(known.rowids);
      for (let k = 0; k < QUERIES; k++) {
        const text = sentence(qp, w, qp.int(0, w.topics.length - 1));
        const q = embedder.embedSync!(text);
        const vector = timed(() =>
          knownNearest(
            view,
            store,
            nix,
            "memories",
            T_QUERY,
            q,
            10,
            defaultNearestTuning,
            undefined,
            engine.matrices,
          ),
        );
        const near = vector.value;
        const search = timed(() =>
          engine.search({
            saveId,
            npcId: npc.id,
            t: T_QUERY,
            query: text,
            collections: ["memories"],
            limit: 10,
          }),
        );
        const found = search.value;
        const dossier = timed(() =>
          engine.dossier({
            saveId,
            npcId: npc.id,
            t: T_QUERY,
            query: text,
            scene: { locationId: w.places[i % 50]!, present: [npcs[(i + 1) % NPCS]!.id] },
          }),
        );
        const d = dossier.value;
        // The baseline (a cosine scan over all N vectors) on a sample of queries: at 1M
        // one scan takes about a second.
        if ((i * QUERIES + k) % BRUTE_EVERY === 0) {
          const brute = timed(() => bruteForce(matrix, all, (r) => knownSet.has(r), q));
          lat.brute.push(brute.wall);
          cpu.brute.push(brute.cpu);
          // The floor of any brute force: one native SIMD pass over all N i8 rows, unfiltered.
          const q8 = store.quantize(q);
          const scan = timed(() => store.scanQuantized(allQ8, all.length, q8, 10));
          lat.scan.push(scan.wall);
          cpu.scan.push(scan.cpu);
        }
        lat.vector.push(vector.wall);
        lat.search.push(search.wall);
        lat.dossier.push(dossier.wall);
        cpu.vector.push(vector.cpu);
        cpu.search.push(search.cpu);
        cpu.dossier.push(dossier.cpu);
        tier.dossier.push(dossier.wall);
        tier.dossierCpu.push(dossier.cpu);
        tier.vector.push(vector.wall);
        // Recall against an exact scan of the NPC's known vectors, counting ties.
        const truth = exactTop(store, known.rowids, q);
        const tenth = truth.length === 10 ? truth[9]! : -Infinity;
        const got = near.filter((h) => h.similarity >= tenth - 1e-6).length;
        const want = truth.length;
        hits += Math.min(got, want);
        total += want;
        tier.hits += Math.min(got, want);
        tier.total += want;
        // Leaks, checked by the store's SQL rule (every memory returned anywhere).
        const memIds = [
          ...found.map((h) => h.id),
          ...d!.sections
            .find((x) => x.name === "memories")!
            .items.filter((x) => x.kind === "memory")
            .map((x) => x.id),
          ...near.map((h) => view.items.memories.ids[h.local]!),
        ];
        for (const id of memIds) {
          checked++;
          if (!log.knowsAt(saveId, npc.id as never, "memory", id, T_QUERY)) leaks++;
        }
      }
      if (i % 200 === 199) console.error(`[${n}] measured ${i + 1}/${NPCS} NPCs`);
    }
    index.save();
    const dir = tmpdir();
    const base = dbPath.slice(dir.length + 1);
    const fileBytes = dirBytes(dir, `${base}.memories.`);
    const dbBytes = statSync(dbPath).size;
    const result = {
      memories: n,
      npcs: NPCS,
      facts,
      queries: lat.vector.length,
      worldBuildMs: worldMs,
      indexBuildMs: indexMs,
      viewLoadMs: viewMs,
      graph: store.hasGraph,
      warmUpMs: Math.round(warm.wall),
      bytesPerMemory: {
        knownMatrices: Math.round(engine.matrices.size / n),
        vectorFiles: Math.round(fileBytes / n),
        viewHeap: Math.round(viewBytes / n),
        sqlite: Math.round(dbBytes / n),
      },
      vectorMs: { p50: pct(lat.vector, 0.5), p99: pct(lat.vector, 0.99) },
      searchMs: { p50: pct(lat.search, 0.5), p99: pct(lat.search, 0.99) },
      dossierMs: { p50: pct(lat.dossier, 0.5), p99: pct(lat.dossier, 0.99) },
      cpuMs: {
        vector: { p50: pct(cpu.vector, 0.5), p99: pct(cpu.vector, 0.99) },
        search: { p50: pct(cpu.search, 0.5), p99: pct(cpu.search, 0.99) },
        dossier: { p50: pct(cpu.dossier, 0.5), p99: pct(cpu.dossier, 0.99) },
        brute: { p50: pct(cpu.brute, 0.5), p99: pct(cpu.brute, 0.99) },
      },
      bruteMs: { p50: pct(lat.brute, 0.5), p99: pct(lat.brute, 0.99) },
      scanMs: { p50: pct(lat.scan, 0.5), p99: pct(lat.scan, 0.99) },
      speedupVsBrute: pct(lat.brute, 0.5) / Math.max(1e-6, pct(lat.vector, 0.5)),
      speedupVsNativeScan: pct(lat.scan, 0.5) / Math.max(1e-6, pct(lat.vector, 0.5)),
      recallAt10: total > 0 ? hits / total : 1,
      leaks,
      checked,
      tiers: [...byTier.entries()].map(([name, t]) => ({
        tier: name,
        npcs: t.known.length,
        knownMedian: pct(t.known, 0.5),
        knownMax: Math.max(...t.known),
        vectorP50: pct(t.vector, 0.5),
        vectorP99: pct(t.vector, 0.99),
        dossierP50: pct(t.dossier, 0.5),
        dossierP99: pct(t.dossier, 0.99),
        dossierCpuP50: pct(t.dossierCpu, 0.5),
        dossierCpuP99: pct(t.dossierCpu, 0.99),
        recall: t.total > 0 ? t.hits / t.total : 1,
      })),
      loadavg: loadavg(),
    };
    db.close();
    return result;
  } finally {
    if (!KEEP_WORLD) removeWorld(dbPath);
  }
};

const results = SIZES.map(runSize);
const f = (x: number) => Math.round(x * 1000) / 1000;
printTable(
  `retrieval: ${NPCS} NPCs, ${QUERIES} queries each, hashing 384-d, latencies in ms (load avg ${loadavg()[0]!.toFixed(1)})`,
  [
    "memories",
    "facts",
    "vector p50",
    "vector p99",
    "search p50",
    "search p99",
    "dossier p50",
    "dossier p99",
    "brute p50",
    "speedup",
    "native scan p50",
    "speedup vs scan",
    "recall@10",
    "leaks",
    "B/mem files",
    "B/mem view",
    "index build s",
  ],
  results.map((r) => [
    r.memories,
    r.facts,
    f(r.vectorMs.p50),
    f(r.vectorMs.p99),
    f(r.searchMs.p50),
    f(r.searchMs.p99),
    f(r.dossierMs.p50),
    f(r.dossierMs.p99),
    f(r.bruteMs.p50),
    Math.round(r.speedupVsBrute * 10) / 10,
    f(r.scanMs.p50),
    Math.round(r.speedupVsNativeScan * 10) / 10,
    f(r.recallAt10),
    r.leaks,
    r.bytesPerMemory.vectorFiles,
    r.bytesPerMemory.viewHeap,
    Math.round(r.indexBuildMs / 100) / 10,
  ]),
);
printTable(
  "the same, CPU time of this process per call (ms; less disturbed by other load)",
  [
    "memories",
    "vector p50",
    "vector p99",
    "search p50",
    "search p99",
    "dossier p50",
    "dossier p99",
    "brute p50",
    "speedup (cpu)",
  ],
  results.map((r) => [
    r.memories,
    f(r.cpuMs.vector.p50),
    f(r.cpuMs.vector.p99),
    f(r.cpuMs.search.p50),
    f(r.cpuMs.search.p99),
    f(r.cpuMs.dossier.p50),
    f(r.cpuMs.dossier.p99),
    f(r.cpuMs.brute.p50),
    Math.round((r.cpuMs.brute.p50 / Math.max(1e-6, r.cpuMs.vector.p50)) * 10) / 10,
  ]),
);
for (const r of results) {
  printTable(
    `by known-set size, ${r.memories} memories`,
    [
      "tier",
      "npcs",
      "known median",
      "known max",
      "vector p50",
      "vector p99",
      "dossier p50",
      "dossier p99",
      "dossier cpu p50",
      "dossier cpu p99",
      "recall@10",
    ],
    r.tiers.map((t) => [
      t.tier,
      t.npcs,
      t.knownMedian,
      t.knownMax,
      f(t.vectorP50),
      f(t.vectorP99),
      f(t.dossierP50),
      f(t.dossierP99),
      f(t.dossierCpuP50),
      f(t.dossierCpuP99),
      f(t.recall),
    ]),
  );
}
const name = SIZES.length === 1 ? `retrieval-${sizeArg}` : "retrieval";
console.log(`results: ${writeResults(name, { sizes: results })}`);
