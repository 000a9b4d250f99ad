/**
 * One size of the retrieval bench: build or reuse the world database, load or rebuild
 * the index, then for every NPC time vector search, hybrid search and a dossier, check
 * recall against an exact scan of what it knows and every returned memory against the
 * store's SQL `knowsAt`, and time the brute-force baseline on a sample of queries.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { GCProfiler } from "node:v8";
import { ids, Prng } from "@hearsay/core";
import { runSearchOptions } from "@hearsay/engine";
import {
  indexPaths,
  knownNearest,
  knownRowids,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
  VectorStore,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { bruteForce, dotRow, exactTop, flatMatrix, pct, timed } from "./retrievalBaseline.ts";
import {
  hnswlibPeer,
  type PeerQuery,
  peerOptionsFromEnv,
  peerSampleFromEnv,
} from "./retrievalPeer.ts";
import { buildWorld, makeWorld, NPCS, sentence, T_QUERY } from "./retrievalWorld.ts";

const dirBytes = (dir: string, prefix: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .reduce((a, f) => a + statSync(join(dir, f)).size, 0);

const ms = (from: number) => Math.round(performance.now() - from);

/**
 * The world database for a size. Writing 1M memories and millions of facts through the
 * log takes long on a busy machine, so a finished world is kept in the temp directory
 * (BENCH_KEEP_WORLD=0 to delete it) and reused; the index is rebuilt and timed unless
 * `--reuse-index`.
 */
export const worldPath = (n: number) => join(tmpdir(), `hearsay-retrieval-bench-${n}.db`);
const KEEP_WORLD = process.env.BENCH_KEEP_WORLD !== "0";
/** The hnswlib-node peer row (BENCH_PEER=0 leaves it out). */
const PEER = process.env.BENCH_PEER !== "0";
/** Which part of the data the peer row indexes and asks (read now: a bad value fails first). */
const PEER_SAMPLE = peerSampleFromEnv();

const removeWorld = (dbPath: string) => {
  const dir = tmpdir();
  const base = dbPath.slice(dir.length + 1);
  for (const f of readdirSync(dir)) if (f.startsWith(base)) rmSync(join(dir, f), { force: true });
};

/** How one size is run. */
export interface RunOptions {
  /** Queries per NPC. */
  readonly queries: number;
  /** Every how many queries the all-N brute-force baseline is timed. */
  readonly bruteEvery: number;
  /**
   * Load the index a previous run saved instead of rebuilding (and timing) it, and the
   * hnswlib-node peer index too when one over the same rows and vectors was saved.
   */
  readonly reuseIndex: boolean;
  /**
   * Read a saved hnswlib-node peer index over the same rows and vectors even when our
   * index is rebuilt (its files are named by a hash of what it was built from).
   */
  readonly reusePeerIndex?: boolean;
  /**
   * Reuse a finished world database of this size from an earlier run (its `.done` marker
   * holds the cast and how long it took to write); false writes it afresh.
   */
  readonly reuseWorld: boolean;
}

/** Builds (or reuses) the world of `n` memories and measures it. */
export const runSize = (n: number, o: RunOptions) => {
  const QUERIES = o.queries;
  const BRUTE_EVERY = o.bruteEvery;
  const dbPath = worldPath(n);
  const done = `${dbPath}.done`;
  const worldReused = o.reuseWorld && existsSync(done);
  if (!worldReused) removeWorld(dbPath);
  try {
    const db = openDatabase(dbPath);
    const log = new SqliteEventLog(db);
    const saveId = ids.save("bench");
    const w = makeWorld(Prng.derive(7, "names"));
    let t0 = performance.now();
    let worldMs = 0;
    let built: ReturnType<typeof buildWorld>;
    if (worldReused) {
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
    const buildCpu0 = process.cpuUsage();
    let lastLog = 0;
    /** When the last row was embedded: the graphs are built after it. */
    let graphFrom = 0;
    // --reuse-index loads the index a previous run saved (its build time was reported by
    // that run) instead of rebuilding it.
    const reuse = o.reuseIndex;
    const { index, reports } = Effect.runSync(
      (reuse ? VectorIndexes.open : VectorIndexes.rebuild)(db, embedder, {
        collections: ["memories"],
        onProgress: (pr) => {
          if (pr.phase === "embed" && pr.done === pr.total) graphFrom = performance.now();
          if (performance.now() - lastLog > 15_000) {
            lastLog = performance.now();
            console.error(`[${n}] index ${pr.phase} ${pr.done}/${pr.total}`);
          }
        },
      }),
    );
    const indexReused = reuse && reports[0]!.outcome === "loaded";
    const indexMs = indexReused ? Number.NaN : ms(t0);
    const graphMs = indexReused || graphFrom === 0 ? Number.NaN : ms(graphFrom);
    // The whole process's CPU: the graph-building worker threads included.
    const buildCpu = process.cpuUsage(buildCpu0);
    const indexCpuMs = indexReused
      ? Number.NaN
      : Math.round((buildCpu.user + buildCpu.system) / 1000);
    const store = index.store("memories")!;
    console.error(
      indexReused
        ? `[${n}] index loaded from the files a previous run saved (that run timed its build; graph ${store.hasGraph})`
        : `[${n}] index built in ${indexMs} ms (graphs: ${graphMs} ms), ${indexCpuMs} ms of CPU (${reports[0]!.outcome}, graph ${store.hasGraph})`,
    );

    // The floor of the build: one fresh graph segment over the first 20k vectors, built as
    // every segment is (single-threaded, rowid order), so rows/s × n is what any rebuild
    // of this collection costs at the least; the vectors, read back from the store, cost
    // nothing extra here.
    const sample = store.entries().rowids.subarray(0, Math.min(20_000, store.size));
    const floorStore = new VectorStore({
      dimensions: store.dimensions,
      hnswMinSize: sample.length,
    });
    const sampleVectors = new Float32Array(sample.length * store.dimensions);
    sample.forEach((r, i) => {
      sampleVectors.set(store.vector(r)!, i * store.dimensions);
    });
    floorStore.put(sample, new Uint32Array(sample.length), sampleVectors, false);
    const floorT0 = performance.now();
    floorStore.syncGraphs();
    const graphAddsPerSec = Math.round(sample.length / ((performance.now() - floorT0) / 1000));
    console.error(`[${n}] build floor: ${graphAddsPerSec} graph adds/s single-threaded`);

    const heapBefore = process.memoryUsage().heapUsed;
    t0 = performance.now();
    // The run's own search options (`retrievalDossiers`): graphs on, copies scanned whole.
    const engine = new RetrievalEngine(db, { log, embedder, index, ...runSearchOptions });
    const view = engine.view(saveId);
    const viewMs = ms(t0);
    const viewBytes = Math.max(0, process.memoryUsage().heapUsed - heapBefore);

    const qp = Prng.derive(11, "queries", n);
    const all = store.entries().rowids;
    const matrix = flatMatrix(store, all);
    // Each rowid's row in `matrix` (the truth is scored from it: f16 decoded, as the store's).
    const slotOf = new Map<number, number>();
    all.forEach((r, i) => {
      slotOf.set(r, i);
    });
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
    // What the measured part costs besides its own work: page faults, context switches
    // (other processes on the machine) and garbage collections (their pauses land in
    // whichever call is running; concurrent marking's CPU is charged to this process).
    // The queries, made before anything is timed.
    const asked = npcs.map(() =>
      Array.from({ length: QUERIES }, () => {
        const text = sentence(qp, w, qp.int(0, w.topics.length - 1));
        return { text, q: embedder.embedSync!(text) };
      }),
    );
    const tierOf = (tierName: string) => {
      const tier = byTier.get(tierName) ?? {
        dossier: [],
        dossierCpu: [],
        vector: [],
        hits: 0,
        total: 0,
        known: [],
      };
      byTier.set(tierName, tier);
      return tier;
    };
    // Pass 1, timed: vector search, hybrid search and a dossier per query, and nothing
    // else, so the garbage collections that land in these timings are the retrieval's own
    // (the checks below build known sets of up to ~700k rows and scan all N vectors).
    const answers: Array<Array<{ near: ReturnType<typeof knownNearest>; memIds: Array<string> }>> =
      [];
    const gc = new GCProfiler();
    gc.start();
    const usage0 = process.resourceUsage();
    for (const [i, npc] of npcs.entries()) {
      const nix = view.npcs.find(npc.id);
      const tier = tierOf(npc.tier);
      const mine: (typeof answers)[number] = [];
      answers.push(mine);
      for (const { text, q } of asked[i]!) {
        const vector = timed(() =>
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
        const dossier = timed(() =>
          engine.dossier({
            saveId,
            npcId: npc.id,
            t: T_QUERY,
            query: text,
            scene: { locationId: w.places[i % 50]!, present: [npcs[(i + 1) % NPCS]!.id] },
          }),
        );
        lat.vector.push(vector.wall);
        lat.search.push(search.wall);
        lat.dossier.push(dossier.wall);
        cpu.vector.push(vector.cpu);
        cpu.search.push(search.cpu);
        cpu.dossier.push(dossier.cpu);
        tier.dossier.push(dossier.wall);
        tier.dossierCpu.push(dossier.cpu);
        tier.vector.push(vector.wall);
        // Every memory returned anywhere, for the leak check below.
        const memIds = [
          ...search.value.map((h) => h.id),
          ...dossier
            .value!.sections.find((x) => x.name === "memories")!
            .items.filter((x) => x.kind === "memory")
            .map((x) => x.id),
          ...vector.value.map((h) => view.items.memories.ids[h.local]!),
        ];
        mine.push({ near: vector.value, memIds });
      }
      if (i % 200 === 199) console.error(`[${n}] measured ${i + 1}/${NPCS} NPCs`);
    }
    const usage1 = process.resourceUsage();
    // GCProfiler records each collection as it ends (cost in µs), even in a loop that
    // never yields; perf_hooks' gc entries would wait for the event loop.
    const gcs = (gc.stop()?.statistics ?? []).map((g) => ({ type: g.gcType, ms: g.cost / 1000 }));
    const peerQueries: Array<PeerQuery> = [];
    // Pass 2, untimed: recall against an exact scan, leaks by the store's SQL rule, and the
    // brute-force baseline on a sample of queries.
    for (const [i, npc] of npcs.entries()) {
      const nix = view.npcs.find(npc.id);
      const tier = tierOf(npc.tier);
      const known = knownRowids(view, nix, "memories", T_QUERY);
      tier.known.push(known.rowids.length);
      const knownSet = new Set(known.rowids);
      for (const [k, { q }] of asked[i]!.entries()) {
        const { near, memIds } = answers[i]![k]!;
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
        // Recall against an exact scan of the NPC's known vectors, counting ties.
        const truth = exactTop((r) => dotRow(matrix, slotOf.get(r)!, q), known.rowids);
        const tenth = truth.length === 10 ? truth[9]! : -Infinity;
        const got = near.filter((h) => h.similarity >= tenth - 1e-6).length;
        const want = truth.length;
        if (PEER) peerQueries.push({ q, known: knownSet, tenth, want });
        hits += Math.min(got, want);
        total += want;
        tier.hits += Math.min(got, want);
        tier.total += want;
        for (const id of memIds) {
          checked++;
          if (!log.knowsAt(saveId, npc.id as never, "memory", id, T_QUERY)) leaks++;
        }
      }
    }
    const major = gcs.filter((g) => g.type === "MarkSweepCompact");
    const measured = {
      majorPageFaults: usage1.majorPageFault - usage0.majorPageFault,
      minorPageFaults: usage1.minorPageFault - usage0.minorPageFault,
      involuntaryContextSwitches:
        usage1.involuntaryContextSwitches - usage0.involuntaryContextSwitches,
      gcCount: gcs.length,
      gcMs: Math.round(gcs.reduce((a, g) => a + g.ms, 0)),
      majorGcCount: major.length,
      majorGcMs: Math.round(major.reduce((a, g) => a + g.ms, 0)),
      longestGcMs: Math.round(Math.max(0, ...gcs.map((g) => g.ms)) * 10) / 10,
      peakRssMiB: Math.round(usage1.maxRSS / 1024),
    };
    index.save();
    // Search memory, every structure counted: what the store holds in memory (the i8 rows,
    // f16 rows not yet in the saved file, the rowid maps and the scan buffers, as it
    // counts them), the HNSW graph segments (as saved: USearch keeps the file's layout
    // in memory) and the per-NPC contiguous copies. The f16 rows the store reads from its
    // vectors file are on disk (the page cache's, not the process's).
    const vectorBytes = store.residentBytes;
    const graphBytes = indexPaths(dbPath, "memories")
      .segmentFiles()
      .reduce((a, f) => a + statSync(f).size, 0);
    const copyBytes = engine.copies?.size ?? 0;
    if (PEER) {
      const { rowsEvery, queriesEvery } = PEER_SAMPLE;
      console.error(
        `[${n}] hnswlib-node peer: building over every ${rowsEvery} of ${all.length} vectors, asking every ${queriesEvery} of ${peerQueries.length} queries`,
      );
    }
    const peer = PEER
      ? hnswlibPeer(
          store,
          all,
          peerQueries,
          peerOptionsFromEnv(),
          { dbPath, reuse: o.reuseIndex || o.reusePeerIndex === true },
          PEER_SAMPLE,
        )
      : null;
    const dir = tmpdir();
    const base = dbPath.slice(dir.length + 1);
    const fileBytes = dirBytes(dir, `${base}.memories.`);
    const dbBytes = statSync(dbPath).size;
    const result = {
      memories: n,
      npcs: NPCS,
      facts,
      queries: lat.vector.length,
      worldReused,
      worldBuildMs: worldMs,
      indexReused,
      indexBuildMs: indexMs,
      indexBuildCpuMs: indexCpuMs,
      /** Wall time of the graph build (after the last row was embedded). */
      indexGraphMs: graphMs,
      /** Single-threaded HNSW inserts per second (the build's floor) and what n of them take. */
      buildFloor: { graphAddsPerSec, graphMsForAll: Math.round((n / graphAddsPerSec) * 1000) },
      viewLoadMs: viewMs,
      graph: store.hasGraph,
      warmUpMs: Math.round(warm.wall),
      graphSegments: store.graphShapes().length,
      searchBytesPerMemory: {
        vectors: Math.round(vectorBytes / n),
        graph: Math.round(graphBytes / n),
        perNpcCopies: Math.round(copyBytes / n),
        total: Math.round((vectorBytes + graphBytes + copyBytes) / n),
      },
      peer,
      bytesPerMemory: {
        knownMatrices: Math.round((engine.copies?.size ?? 0) / n),
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
      measured,
      loadavg: loadavg(),
    };
    db.close();
    return result;
  } finally {
    if (!KEEP_WORLD) removeWorld(dbPath);
  }
};

/** What one size measured. */
export type SizeResult = ReturnType<typeof runSize>;
