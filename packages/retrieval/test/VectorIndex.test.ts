import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type IndexProgress,
  indexPaths,
  makeHashingEmbedder,
  RetrievalEngine,
  type SearchHit,
  VectorIndexes,
  type VectorIndexOptions,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ev,
  memoryEvents,
  npcEvents,
  openWorld,
  Prng,
  sentence,
  type TestWorld,
} from "./fixtures.ts";

const embedder = makeHashingEmbedder();
let dir: string;
let dbPath: string;
let world: TestWorld;

const open = (opts: VectorIndexOptions = {}) =>
  Effect.runSync(VectorIndexes.open(world.db, embedder, opts));

/** A fixed battery of searches whose results the index must reproduce. */
const battery = (index: VectorIndexes, exactVectors = false): Array<Array<string>> => {
  const engine = new RetrievalEngine(world.db, { log: world.log, embedder, index, exactVectors });
  const p = Prng.derive(9, "queries");
  const out: Array<Array<string>> = [];
  for (let npc = 0; npc < 6; npc++) {
    for (let q = 0; q < 3; q++) {
      const hits: Array<SearchHit> = engine.search({
        saveId: world.saveId,
        npcId: `npc-${npc}`,
        t: 10_000,
        query: sentence(p, q + npc),
      });
      out.push(hits.map((h) => `${h.collection}:${h.id}:${h.score.toFixed(6)}`));
    }
  }
  return out;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-index-"));
  dbPath = join(dir, "world.db");
  world = openWorld(dbPath);
  const p = Prng.derive(1, "index");
  world.append(npcEvents(6));
  world.append(memoryEvents(p, 6, 400));
});

afterEach(() => {
  world.db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("vector index files", () => {
  it("holds no f16 row in memory for a database file and ranks as an index held in memory", () => {
    const d = embedder.dimensions;
    const inMemory = open({ dbPath: ":memory:" });
    const held = inMemory.index.store("memories")!;
    const heldBytes = held.residentBytes;
    expect(heldBytes).toBeGreaterThanOrEqual(held.size * 3 * d);
    const expected = battery(inMemory.index);
    // Rebuilt (no files yet), then loaded from them.
    for (const outcome of ["rebuilt", "loaded"]) {
      const opened = open();
      expect(opened.reports.find((r) => r.collection === "memories")?.outcome).toBe(outcome);
      const store = opened.index.store("memories")!;
      expect(store.size).toBe(held.size);
      expect(store.residentBytes).toBeLessThanOrEqual(heldBytes - store.size * 2 * d);
      expect(battery(opened.index)).toEqual(expected);
    }
    // Rows a run adds are held until the index is saved, then read from the new file.
    const opened = open();
    const store = opened.index.store("memories")!;
    const before = store.residentBytes;
    world.append(memoryEvents(Prng.derive(2, "more"), 6, 50, 5_000, "late"));
    expect(opened.index.updateSync()).toBe(true);
    expect(store.size).toBe(held.size + 50);
    expect(store.residentBytes).toBeGreaterThanOrEqual(before + 50 * 2 * d);
    opened.index.save();
    expect(store.residentBytes).toBeLessThanOrEqual(before);
    const fresh = open({ dbPath: ":memory:" });
    expect(battery(opened.index)).toEqual(battery(fresh.index));
  });

  it("rebuilds when files are missing, then loads them unchanged", () => {
    const first = open();
    expect(first.reports.find((r) => r.collection === "memories")).toMatchObject({
      outcome: "rebuilt",
      count: 400,
    });
    const expected = battery(first.index);
    expect(expected.some((r) => r.length > 0)).toBe(true);
    const second = open();
    expect(second.reports.every((r) => r.outcome === "loaded")).toBe(true);
    expect(battery(second.index)).toEqual(expected);
  });

  it("reports a rebuild's scan against the table's row count, never past it", () => {
    const reports: Array<IndexProgress> = [];
    open({ onProgress: (p) => reports.push(p) });
    const scans = reports.filter((r) => r.collection === "memories" && r.phase === "scan");
    // Told before the first row is read how many there are, and at the end all of them.
    expect(scans[0]).toMatchObject({ done: 0, total: 400 });
    expect(scans.at(-1)).toMatchObject({ done: 400, total: 400 });
    for (const r of reports) {
      expect(r.done).toBeGreaterThanOrEqual(0);
      expect(r.done).toBeLessThanOrEqual(r.total);
    }
  });

  it("rebuilds from SQLite when the vectors or manifest are corrupt, with the same results", () => {
    const expected = battery(open().index);
    const paths = indexPaths(dbPath, "memories");
    const bytes = readFileSync(paths.vectors);
    writeFileSync(paths.vectors, bytes.subarray(0, bytes.length - 100));
    let r = open();
    expect(r.reports.find((x) => x.collection === "memories")).toMatchObject({
      outcome: "rebuilt",
    });
    expect(r.reports.find((x) => x.collection === "memories")!.reason).toMatch(/corrupt/);
    expect(battery(r.index)).toEqual(expected);
    writeFileSync(paths.manifest, "{ not json");
    r = open();
    expect(r.reports.find((x) => x.collection === "memories")!.outcome).toBe("rebuilt");
    expect(battery(r.index)).toEqual(expected);
    // Flip one byte of a rowid, then of a float: either way the file is refused.
    for (const at of [40, readFileSync(paths.vectors).length - 7]) {
      const flipped = readFileSync(paths.vectors);
      flipped[at] = flipped[at]! ^ 0xff;
      writeFileSync(paths.vectors, flipped);
      r = open();
      expect(r.reports.find((x) => x.collection === "memories")!.reason).toMatch(/corrupt/);
      expect(battery(r.index)).toEqual(expected);
    }
  });

  it("repairs a stale index (rows added and changed since it was saved) to match a rebuild", () => {
    const summary = (text: string) =>
      ev("ConversationSummarized", 4000, {
        conversationId: "c1",
        npcId: "npc-0",
        partnerId: "npc-1",
        throughTurn: 3,
        summary: text,
      });
    world.append([summary("We talked about the flood on the river.")]);
    open();
    world.append([
      ...memoryEvents(Prng.derive(2, "more"), 6, 50, 5000, "late"),
      summary("We argued about the sword and the forge."),
    ]);
    const repaired = open();
    const mem = repaired.reports.find((r) => r.collection === "memories")!;
    expect(mem.outcome).toBe("repaired");
    expect(mem.added).toBe(50);
    expect(repaired.reports.find((r) => r.collection === "conversation_summaries")).toMatchObject({
      outcome: "repaired",
      added: 1,
      count: 1,
    });
    const rebuilt = Effect.runSync(VectorIndexes.rebuild(world.db, embedder, {}));
    expect(battery(repaired.index)).toEqual(battery(rebuilt.index));
  });

  it("rebuilds when the saved index is for another model or dimension", () => {
    open();
    const other = Effect.runSync(
      VectorIndexes.open(world.db, makeHashingEmbedder({ dimensions: 64 }), {}),
    );
    expect(other.reports.find((r) => r.collection === "memories")!.reason).toMatch(/mismatch/);
  });

  it("keeps an HNSW graph in step and rebuilds it from the vectors when its file is corrupt", () => {
    const opts = { store: { hnswMinSize: 100 } };
    const first = open(opts);
    expect(first.index.store("memories")!.hasGraph).toBe(true);
    const expected = battery(first.index);
    const segments = indexPaths(dbPath, "memories").segmentFiles().sort();
    expect(segments.length).toBeGreaterThan(0);
    const graphPath = segments[0]!;
    const bytes = readFileSync(graphPath);
    bytes[Math.floor(bytes.length / 2)] = bytes[Math.floor(bytes.length / 2)]! ^ 0x5a;
    writeFileSync(graphPath, bytes);
    const second = open(opts);
    expect(second.reports.find((r) => r.collection === "memories")).toMatchObject({
      outcome: "repaired",
      reason: "graph file damaged: rebuilt from the vectors",
    });
    expect(second.index.store("memories")!.hasGraph).toBe(true);
    expect(battery(second.index)).toEqual(expected);
    expect(open(opts).reports.find((r) => r.collection === "memories")!.outcome).toBe("loaded");
    writeFileSync(graphPath, "garbage");
    const third = open(opts);
    expect(third.index.store("memories")!.hasGraph).toBe(true);
    expect(battery(third.index)).toEqual(expected);
  });

  it("keeps no graph when told not to, ranks exactly the same, and leaves one to be rebuilt", () => {
    const withGraph = open({ store: { hnswMinSize: 100 } });
    expect(withGraph.index.store("memories")!.hasGraph).toBe(true);
    const expected = battery(withGraph.index, true);
    // A saved graph is neither loaded nor kept, and saving drops its file.
    const noGraph = open({ store: { hnswMinSize: 100, graph: false } });
    const report = noGraph.reports.find((r) => r.collection === "memories")!;
    expect(report).toMatchObject({ outcome: "loaded", graph: false });
    const store = noGraph.index.store("memories")!;
    expect(store.hasGraph).toBe(false);
    expect(battery(noGraph.index, true)).toEqual(expected);
    world.append(memoryEvents(Prng.derive(2, "more"), 6, 50, 500, "n"));
    Effect.runSync(noGraph.index.update());
    expect(store.hasGraph).toBe(false);
    // Without a graph, memories are embedded when a search first reads them, not before.
    const held = withGraph.index.store("memories")!.size;
    expect(store.size).toBe(held);
    const exact = battery(noGraph.index, true);
    expect(store.size).toBeGreaterThan(held);
    expect(store.size).toBeLessThanOrEqual(held + 50);
    noGraph.index.save();
    expect(indexPaths(dbPath, "memories").segmentFiles()).toEqual([]);
    // A caller that wants the graph gets it back, built from the vectors.
    const again = open({ store: { hnswMinSize: 100 } });
    expect(again.index.store("memories")!.hasGraph).toBe(true);
    expect(battery(again.index, true)).toEqual(exact);
  });

  it("can be disabled: no vectors, search still answers from filters and keywords", () => {
    const r = open({ mode: "disabled" });
    expect(r.reports.every((x) => x.outcome === "disabled")).toBe(true);
    expect(r.index.store("memories")).toBeNull();
    const results = battery(r.index);
    expect(results.some((x) => x.length > 0)).toBe(true);
  });
});
