import {
  defaultNearestTuning,
  defaultSearchTuning,
  KnownMatrices,
  knownNearest,
  makeHashingEmbedder,
  RetrievalEngine,
  SaveView,
  VectorIndexes,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ev,
  globalRumour,
  memoryEvents,
  npcEvents,
  openWorld,
  Prng,
  sentence,
  type TestWorld,
} from "./fixtures.ts";

const embedder = makeHashingEmbedder({ dimensions: 96 });
let world: TestWorld;
let view: SaveView;
let index: VectorIndexes;

beforeAll(() => {
  world = openWorld();
  const p = Prng.derive(5, "nearest");
  world.append([
    ...npcEvents(4),
    ev("NpcRegistered", 0, {
      npcId: "wise",
      name: "Wise",
      role: "sage",
      factionId: null,
      locationId: "square",
      traits: [],
    }),
  ]);
  const mems = memoryEvents(p, 4, 2000);
  const told = [];
  for (let i = 0; i < 2000; i++) {
    // "wise" learns 90% of all memories; npc-3 learns 25 of them.
    if (i % 10 !== 0)
      told.push(
        ev("KnowledgeGained", 5000, {
          npcId: "wise",
          itemKind: "memory",
          itemId: `m${i}`,
          via: "told",
          fromNpcId: null,
          confidence: 1,
        }),
      );
    if (i % 120 === 7)
      told.push(
        ev("KnowledgeGained", 5000, {
          npcId: "npc-3",
          itemKind: "memory",
          itemId: `m${i}`,
          via: "told",
          fromNpcId: null,
          confidence: 1,
        }),
      );
  }
  world.append([...mems, ...told]);
  index = Effect.runSync(
    // One thread: a graph built by several threads depends on their timing, and the
    // widening test below needs the same graph every run.
    VectorIndexes.open(world.db, embedder, { store: { hnswMinSize: 1000 } }),
  ).index;
  view = SaveView.load(world.db, world.saveId);
});

/**
 * `count` world events known by all (`w0`…, at t 100 + i, each lapsing when `lapsesAt`
 * says), each witnessed by npc-0 as it happened.
 */
const witnessedRumours = (p: Prng, count: number, lapsesAt: (i: number) => number | null) =>
  Array.from({ length: count }, (_, i) => [
    globalRumour(`w${i}`, 100 + i, sentence(p, i), lapsesAt(i)),
    ev("KnowledgeGained", 100 + i, {
      npcId: "npc-0",
      itemKind: "world_event",
      itemId: `w${i}`,
      via: "witnessed",
      fromNpcId: null,
      confidence: 1,
    }),
  ]).flat();

const exactTuning = { ...defaultNearestTuning, exactMax: 1_000_000 };
// graphCost 0: the graph is tried whatever its probe costs, so these tests reach it.
const graphTuning = { ...defaultNearestTuning, exactMax: 100, graphCost: 0 };

describe("knownNearest", () => {
  it("scans a small share exactly rather than asking the graph for thousands of candidates", () => {
    const store = index.store("memories")!;
    const npc = view.npcs.find("npc-3");
    const query = embedder.embedSync!("grain mill");
    expect(knownNearest(view, store, npc, "memories", 6000, query, 10, graphTuning)).toEqual(
      knownNearest(view, store, npc, "memories", 6000, query, 10, exactTuning),
    );
  });

  it("uses the HNSW graph for a large known set with high recall and no leaks", () => {
    const store = index.store("memories")!;
    expect(store.hasGraph).toBe(true);
    const npc = view.npcs.find("wise");
    const p = Prng.derive(6, "q");
    let overlap = 0;
    for (let q = 0; q < 40; q++) {
      const query = embedder.embedSync!(sentence(p, q));
      const exact = knownNearest(view, store, npc, "memories", 6000, query, 10, exactTuning);
      const approx = knownNearest(view, store, npc, "memories", 6000, query, 10, graphTuning);
      expect(approx).toHaveLength(10);
      for (const h of approx) expect(view.knows(npc, "memories", h.local, 6000)).toBe(true);
      const tenth = exact[9]!.similarity;
      overlap += approx.filter((h) => h.similarity >= tenth - 1e-6).length;
    }
    expect(overlap / 400).toBeGreaterThanOrEqual(0.95);
  });

  it("widens the graph search, then falls back to an exact scan, when too few candidates are known", () => {
    const store = index.store("memories")!;
    const npc = view.npcs.find("npc-3");
    const p = Prng.derive(7, "q");
    // A deliberately low oversample makes the first graph lists too short: 59, then 236, then exact.
    const tiny = {
      exactMax: 1,
      matrixMin: 1,
      matrixMax: 1,
      oversample: 0.05,
      graphMax: 4096,
      maxCandidates: 256,
      graphCost: 0,
    };
    for (let q = 0; q < 10; q++) {
      const query = embedder.embedSync!(sentence(p, q));
      const exact = knownNearest(view, store, npc, "memories", 6000, query, 10, exactTuning);
      expect(knownNearest(view, store, npc, "memories", 6000, query, 10, tiny)).toEqual(exact);
    }
  });

  it("ranks the same with or without a graph in the index when asked for exact vectors", () => {
    // The property a run needs: its results never depend on how the index cache was built.
    const graphFirst = {
      ...defaultSearchTuning,
      exactMax: 1,
      matrixMax: 1,
      oversample: 0.05,
      graphCost: 0,
    };
    const flat = Effect.runSync(
      VectorIndexes.open(world.db, embedder, { store: { hnswMinSize: 1_000_000_000 } }),
    ).index;
    expect(index.store("memories")!.hasGraph).toBe(true);
    expect(flat.store("memories")!.hasGraph).toBe(false);
    const engine = (ix: VectorIndexes) =>
      new RetrievalEngine(world.db, {
        log: world.log,
        embedder,
        index: ix,
        tuning: graphFirst,
        exactVectors: true,
      });
    const withGraph = engine(index);
    const withoutGraph = engine(flat);
    const p = Prng.derive(9, "q");
    for (let q = 0; q < 10; q++) {
      const req = {
        saveId: world.saveId,
        npcId: q % 2 === 0 ? "wise" : "npc-3",
        t: 6000,
        query: sentence(p, q),
        collections: ["memories"] as const,
      };
      const hits = withGraph.search(req);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits).toEqual(withoutGraph.search(req));
      // And the vector ranking under it is the exact knowledge-filtered top-k.
      const npc = view.npcs.find(req.npcId);
      const query = embedder.embedSync!(req.query);
      const store = index.store("memories")!;
      const { tuning, matrices } = withGraph;
      expect(
        knownNearest(view, store, npc, "memories", 6000, query, 40, tuning, undefined, matrices),
      ).toEqual(knownNearest(view, store, npc, "memories", 6000, query, 40, exactTuning));
    }
  });

  it("scans a large known set from its contiguous copy, kept up to date as the NPC learns", () => {
    const store = index.store("memories")!;
    const matrices = new KnownMatrices();
    const viaMatrix = { ...defaultNearestTuning, exactMax: 100, graphMax: 1 };
    const npc = view.npcs.find("wise");
    const p = Prng.derive(8, "q");
    for (let q = 0; q < 10; q++) {
      const query = embedder.embedSync!(sentence(p, q));
      for (const t of [4999, 5000, 6000]) {
        const exact = knownNearest(view, store, npc, "memories", t, query, 10, exactTuning);
        expect(
          knownNearest(view, store, npc, "memories", t, query, 10, viaMatrix, undefined, matrices),
        ).toEqual(exact);
      }
    }
    expect(matrices.size).toBeGreaterThan(0);
    // New facts reach the copy: "wise" learns the memories it did not know.
    world.append(
      Array.from({ length: 200 }, (_, i) =>
        ev("KnowledgeGained", 7000, {
          npcId: "wise",
          itemKind: "memory",
          itemId: `m${i * 10}`,
          via: "told",
          fromNpcId: null,
          confidence: 1,
        }),
      ),
    );
    const fresh = SaveView.load(world.db, world.saveId);
    const wise = fresh.npcs.find("wise");
    const query = embedder.embedSync!(sentence(Prng.derive(9, "q"), 3));
    expect(
      knownNearest(fresh, store, wise, "memories", 7000, query, 10, viaMatrix, undefined, matrices),
    ).toEqual(knownNearest(fresh, store, wise, "memories", 7000, query, 10, exactTuning));
    const small = new KnownMatrices(1);
    knownNearest(fresh, store, wise, "memories", 7000, query, 10, viaMatrix, undefined, small);
    expect(small.size).toBeGreaterThan(1); // the matrix in use is kept even over budget
    small.clear();
    expect(small.size).toBe(0);
  });

  it("knows nothing before the facts were learnt", () => {
    const store = index.store("memories")!;
    const npc = view.npcs.find("wise");
    const query = embedder.embedSync!("grain mill");
    expect(knownNearest(view, store, npc, "memories", 4999, query, 10, graphTuning)).toEqual([]);
    expect(knownNearest(view, store, npc, "memories", 5000, query, 10, graphTuning)).toHaveLength(
      10,
    );
  });
});

describe("knownNearest on a collection known by many", () => {
  // 300 world events every NPC knows: a shared collection, so graphs exist from 16 rows on.
  const shared = openWorld();
  const p = Prng.derive(11, "shared");
  const count = 300;
  shared.append([...npcEvents(2), ...witnessedRumours(p, count, () => null)]);
  const ix = Effect.runSync(VectorIndexes.open(shared.db, embedder)).index;
  const sharedView = SaveView.load(shared.db, shared.saveId);
  const store = ix.store("world_events")!;
  const npc = sharedView.npcs.find("npc-0");
  const t = 100 + count;
  const queries = Array.from({ length: 20 }, (_, q) => embedder.embedSync!(sentence(p, q + 7)));
  /** The true top-k: every known row scored by the exact scan. */
  const truth = (query: Float32Array, k: number) => {
    const rowids = sharedView.items.world_events.rowids.slice(0, count);
    return store.exact(query, rowids, k).map((s) => ({
      local: sharedView.items.world_events.localOfRowid.get(s.rowid)!,
      similarity: s.similarity,
    }));
  };

  it("scans a known set up to exactMax exactly, not through the graph, and copies nothing", () => {
    expect(store.hasGraph).toBe(true);
    const graphCalls: Array<number> = [];
    const filtered = store.filtered.bind(store);
    store.filtered = (...args) => {
      graphCalls.push(args[1]);
      return filtered(...args);
    };
    try {
      const matrices = new KnownMatrices();
      for (const query of queries) {
        expect(
          knownNearest(
            sharedView,
            store,
            npc,
            "world_events",
            t,
            query,
            8,
            defaultNearestTuning,
            undefined,
            matrices,
          ),
        ).toEqual(truth(query, 8));
      }
      expect(graphCalls).toEqual([]);
      // Every NPC knows these rows: a per-NPC copy of them would repeat the collection.
      expect(matrices.size).toBe(0);
      // Past exactMax, 300 rows in many small segments: each segment would return its
      // 32 candidates, more than the rows an exact scan reads, so the scan is chosen.
      const pastExactMax = { ...defaultNearestTuning, exactMax: count - 1 };
      expect(store.graphProbeRows(8, 32, shared.saveId) * pastExactMax.graphCost).toBeGreaterThan(
        count,
      );
      const scanned = knownNearest(
        sharedView,
        store,
        npc,
        "world_events",
        t,
        queries[0]!,
        8,
        pastExactMax,
      );
      expect(scanned).toEqual(truth(queries[0]!, 8));
      expect(graphCalls).toEqual([]);
      // With graph candidates priced as rows the graph is the path for a large share.
      const large = { ...pastExactMax, graphCost: 1 };
      const hits = knownNearest(sharedView, store, npc, "world_events", t, queries[0]!, 8, large);
      expect(hits).toHaveLength(8);
      expect(graphCalls).toEqual([8]);
    } finally {
      store.filtered = filtered;
    }
  });
});

describe("knownNearest over lapsed world events", () => {
  it("never returns a world event that lapsed by t, however large the known set", () => {
    // 1,200 rumours the NPC heard, every other one lapsed by t: past exactMax, the set is
    // enumerated by the vector path itself, which must apply the lapse as `knows` does.
    const w = openWorld();
    const p = Prng.derive(12, "lapsed");
    const count = 1200;
    const t = 100 + count + 10;
    w.append([
      ...npcEvents(2),
      ...witnessedRumours(p, count, (i) => (i % 2 === 0 ? 100 + count : null)),
    ]);
    const ix = Effect.runSync(
      VectorIndexes.open(w.db, embedder, { store: { graph: false } }),
    ).index;
    const v = SaveView.load(w.db, w.saveId);
    const store = ix.store("world_events")!;
    const npc = v.npcs.find("npc-0");
    for (let q = 0; q < 10; q++) {
      const query = embedder.embedSync!(sentence(p, q));
      const hits = knownNearest(v, store, npc, "world_events", t, query, 10);
      expect(hits).toHaveLength(10);
      for (const h of hits) expect(v.knows(npc, "world_events", h.local, t)).toBe(true);
    }
  });
});
