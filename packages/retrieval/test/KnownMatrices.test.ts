/**
 * The contiguous known-set copies (`KnownMatrices`) scanned by inner product at one
 * common scale: for random queries, times, k and knowledge, the result is the exact
 * knowledge-filtered top-k by cosine (ties compare by similarity) and never an item the
 * NPC does not know; the copy follows new facts, and sheds memories gone for good while
 * still answering exactly at any time asked, later or earlier.
 */
import {
  CoarseLists,
  commonScale,
  copyScaled,
  defaultNearestTuning,
  KnownMatrices,
  knownNearest,
  makeHashingEmbedder,
  SaveView,
  scanDot,
  VectorIndexes,
  VectorStore,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ev,
  memoryEvents,
  npcEvents,
  openWorld,
  Prng,
  sentence,
  type TestWorld,
  topics,
} from "./fixtures.ts";

const embedder = makeHashingEmbedder({ dimensions: 96 });
const MEMORIES = 1500;
let world: TestWorld;
let view: SaveView;
let index: VectorIndexes;

/** Which NPC learns memory i, and when (npc-0 … npc-3 know different shares). */
const learns = (npc: number, i: number): number | null => {
  const h = Math.imul(i + 1, 0x9e3779b1) >>> 0;
  const share = [0.8, 0.4, 0.15, 0.03][npc]!;
  return (h % 10_000) / 10_000 < share ? 3000 + ((h >>> 8) % 4) * 1000 : null;
};

beforeAll(() => {
  world = openWorld();
  world.append(npcEvents(4));
  const told = [];
  for (let i = 0; i < MEMORIES; i++) {
    for (let npc = 0; npc < 4; npc++) {
      const t = learns(npc, i);
      if (t === null) continue;
      told.push(
        ev("KnowledgeGained", t, {
          npcId: `npc-${npc}`,
          itemKind: "memory",
          itemId: `m${i}`,
          via: "told",
          fromNpcId: null,
          confidence: 1,
        }),
      );
    }
  }
  told.sort((a, b) => a.t - b.t);
  world.append([...memoryEvents(Prng.derive(3, "matrices"), 4, MEMORIES), ...told]);
  index = Effect.runSync(
    VectorIndexes.open(world.db, embedder, { store: { hnswMinSize: 1_000_000 } }),
  ).index;
  view = SaveView.load(world.db, world.saveId);
});

/** The truth: every item the NPC knows at t, by f16 cosine, best first. */
const bruteForce = (npc: number, t: number, q: Float32Array) => {
  const store = index.store("memories")!;
  const table = view.items.memories;
  const out: Array<number> = [];
  for (let local = 0; local < table.length; local++) {
    if (view.knows(npc, "memories", local, t)) out.push(store.similarity(q, table.rowids[local]!));
  }
  return out.sort((a, b) => b - a);
};

/** A world of a test's own, indexed exactly: its memory vectors, its view and npc-0. */
const indexedFor = (w: TestWorld) => {
  const idx = Effect.runSync(
    VectorIndexes.open(w.db, embedder, { store: { hnswMinSize: 1_000_000 } }),
  ).index;
  const v = SaveView.load(w.db, w.saveId);
  return { store: idx.store("memories")!, v, npc: v.npcs.find("npc-0") };
};

const words = topics.flat();
const viaMatrix = { ...defaultNearestTuning, exactMax: 1, matrixMin: 1, graphMax: 1 };

describe("KnownMatrices", () => {
  it("returns exactly the knowledge-filtered top-k, and only known items", () => {
    const store = index.store("memories")!;
    const matrices = new KnownMatrices();
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(2999, 3000, 4500, 6000, 9000),
        fc.integer({ min: 1, max: 20 }),
        (ws, n, t, k) => {
          const npc = view.npcs.find(`npc-${n}`);
          const q = embedder.embedSync!(ws.join(" "));
          const got = knownNearest(
            view,
            store,
            npc,
            "memories",
            t,
            q,
            k,
            viaMatrix,
            undefined,
            matrices,
          );
          for (const h of got) expect(view.knows(npc, "memories", h.local, t)).toBe(true);
          const truth = bruteForce(npc, t, q).slice(0, k);
          expect(got.map((h) => h.similarity)).toEqual(truth.map((s) => expect.closeTo(s, 6)));
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 1500 : 80 },
    );
  });

  it("scans a big copy by its nearest coarse lists: known items only, high recall, exact at probeShare 1", () => {
    const store = index.store("memories")!;
    const grouped = new KnownMatrices(undefined, { minRows: 200, lists: 8, probeShare: 0.3 });
    const whole = new KnownMatrices(undefined, { minRows: 200, lists: 8, probeShare: 1 });
    let hits = 0;
    let total = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(2999, 3000, 4500, 6000, 9000),
        fc.integer({ min: 1, max: 20 }),
        (ws, n, t, k) => {
          const npc = view.npcs.find(`npc-${n}`);
          const q = embedder.embedSync!(ws.join(" "));
          const truth = bruteForce(npc, t, q).slice(0, k);
          const exact = knownNearest(
            view,
            store,
            npc,
            "memories",
            t,
            q,
            k,
            viaMatrix,
            undefined,
            whole,
          );
          expect(exact.map((h) => h.similarity)).toEqual(truth.map((s) => expect.closeTo(s, 6)));
          const got = knownNearest(
            view,
            store,
            npc,
            "memories",
            t,
            q,
            k,
            viaMatrix,
            undefined,
            grouped,
          );
          for (const h of got) expect(view.knows(npc, "memories", h.local, t)).toBe(true);
          // Never fewer than k when the NPC knows k: short lists fall back to every row.
          expect(got).toHaveLength(truth.length);
          const kth = truth[truth.length - 1] ?? 1;
          hits += got.filter((h) => h.similarity >= kth - 1e-6).length;
          total += truth.length;
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 1500 : 120 },
    );
    expect(hits / Math.max(1, total)).toBeGreaterThanOrEqual(0.9);
    console.log(`partitioned recall ${hits}/${total}`);
  });

  it("assigns each row the same coarse list in a batch of thousands as on its own", () => {
    const store = new VectorStore({ dimensions: 96, hnswMinSize: 1_000_000 });
    const p = Prng.derive(12, "lists");
    const n = 5000;
    const vectors = new Float32Array(n * 96);
    for (let i = 0; i < n; i++) {
      const text = Array.from({ length: 6 }, () => p.pick(words)).join(" ");
      vectors.set(embedder.embedSync!(text), i * 96);
    }
    const rowids = Int32Array.from({ length: n }, (_, i) => i + 1);
    store.put(rowids, new Uint32Array(n), vectors);
    const batch = CoarseLists.train(store, 16)!;
    const single = CoarseLists.train(store, 16)!;
    const all = batch.listsOf(rowids);
    const sizes = new Set(all);
    expect(sizes.size).toBeGreaterThan(4); // the rows really are spread over lists
    for (let i = 0; i < n; i += 37) expect(single.listsOf([rowids[i]!])[0]).toBe(all[i]);
    // A row's list is among the nearest: its centroid ranks first for the row's own vector.
    for (let i = 0; i < n; i += 101) {
      expect(batch.rank(store.vector(rowids[i]!)!).indexOf(all[i]!)).toBeLessThan(2);
    }
    expect(CoarseLists.train(new VectorStore({ dimensions: 96 }), 16)).toBeNull();
  });

  it("follows facts learnt after its copy was made, answering as a copy made afresh", () => {
    // A world of its own: the NPC learns half its memories, its copy is made, then it
    // learns the rest (in an order unlike the items') and the copy must catch up on them.
    const w = openWorld();
    w.append(npcEvents(2));
    const n = 600;
    const fact = (i: number, t: number) =>
      ev("KnowledgeGained", t, {
        npcId: "npc-0",
        itemKind: "memory",
        itemId: `m${i}`,
        via: "told",
        fromNpcId: null,
        confidence: 1,
      });
    const early = Array.from({ length: n }, (_, i) => i).filter((i) => i % 2 === 0);
    w.append([...memoryEvents(Prng.derive(5, "follow"), 2, n), ...early.map((i) => fact(i, 3000))]);
    const { store, v, npc } = indexedFor(w);
    const kept = new KnownMatrices();
    const ask = (m: KnownMatrices, text: string, k: number) =>
      knownNearest(
        v,
        store,
        npc,
        "memories",
        9000,
        embedder.embedSync!(text),
        k,
        viaMatrix,
        undefined,
        m,
      );
    const before = ask(kept, words.slice(0, 3).join(" "), 10);
    expect(before.every((h) => v.knows(npc, "memories", h.local, 9000))).toBe(true);
    const late = Array.from({ length: n }, (_, i) => n - 1 - i).filter((i) => i % 2 === 1);
    const from = w.log.head(w.saveId);
    for (let at = 0; at < late.length; at += 50) {
      w.append(late.slice(at, at + 50).map((i) => fact(i, 4000 + at)));
      v.catchUp(w.log.read(w.saveId, { fromSeq: from + 1 }));
      ask(kept, words[at % words.length]!, 5); // the copy syncs between batches
    }
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 30 }),
        (ws, k) => {
          const got = ask(kept, ws.join(" "), k);
          const fresh = ask(new KnownMatrices(), ws.join(" "), k);
          expect(got).toEqual(fresh);
          // Items learnt late are found: the truth is every memory known now, by cosine.
          const q = embedder.embedSync!(ws.join(" "));
          const truth = Array.from({ length: v.items.memories.length }, (_, local) => local)
            .filter((local) => v.knows(npc, "memories", local, 9000))
            .map((local) => store.similarity(q, v.items.memories.rowids[local]!))
            .sort((a, b) => b - a);
          expect(got.map((h) => h.similarity)).toEqual(
            truth.slice(0, k).map((x) => expect.closeTo(x, 6)),
          );
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 30 },
    );
  });

  it("sheds memories gone for good as time goes on, and still answers exactly at any time", () => {
    // One NPC owns 900 memories; most expire or are forgotten between t = 1,000 and
    // 9,000, so a copy queried late holds mostly rows it can never return.
    const w = openWorld();
    w.append(npcEvents(1));
    const p = Prng.derive(8, "shed");
    const events = [];
    const forgotten: Array<{ id: string; t: number }> = [];
    for (let i = 0; i < 900; i++) {
      const t = 10 + i;
      const fate = p.int(0, 9);
      events.push(
        ev("MemoryRecorded", t, {
          memoryId: `m${i}`,
          ownerNpcId: "npc-0",
          text: sentence(p, i),
          category: "observation",
          importance: p.float(),
          expiresAt: fate < 5 ? p.int(1000, 9000) : null,
          locationId: "square",
          entities: [],
          about: null,
        }),
      );
      if (fate >= 5 && fate < 8) forgotten.push({ id: `m${i}`, t: p.int(1000, 9000) });
    }
    forgotten.sort((a, b) => a.t - b.t);
    w.append([
      ...events,
      ...forgotten.map((f) =>
        ev("MemoryExpired", f.t, { memoryId: f.id, ownerNpcId: "npc-0", reason: "forgotten" }),
      ),
    ]);
    const { store, v, npc } = indexedFor(w);
    const table = v.items.memories;
    const kept = new KnownMatrices();
    fc.assert(
      fc.property(
        // Mostly forwards, as a run asks; sometimes back in time, as an inspector may.
        fc.array(
          fc.record({
            t: fc.integer({ min: 900, max: 10_000 }),
            ws: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }),
            k: fc.integer({ min: 1, max: 25 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.boolean(),
        (asks, forwards) => {
          const order = forwards ? [...asks].sort((a, b) => a.t - b.t) : asks;
          for (const { t, ws, k } of order) {
            const q = embedder.embedSync!(ws.join(" "));
            const got = knownNearest(
              v,
              store,
              npc,
              "memories",
              t,
              q,
              k,
              viaMatrix,
              undefined,
              kept,
            );
            const truth = Array.from({ length: table.length }, (_, local) => local)
              .filter((local) => v.knows(npc, "memories", local, t))
              .map((local) => store.similarity(q, table.rowids[local]!))
              .sort((a, b) => b - a);
            expect(got.map((h) => h.similarity)).toEqual(
              truth.slice(0, k).map((x) => expect.closeTo(x, 6)),
            );
          }
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 400 : 40 },
    );
    // Asked late, a copy sheds what is gone: it is made with all 900 rows, and after one
    // scan that finds most of them gone it keeps little more than the live ones.
    const fresh = new KnownMatrices();
    const ask = () =>
      knownNearest(
        v,
        store,
        npc,
        "memories",
        9500,
        embedder.embedSync!("mill"),
        5,
        viaMatrix,
        undefined,
        fresh,
      );
    const first = ask();
    const live = Array.from({ length: table.length }, (_, l) => l).filter((l) =>
      v.knows(npc, "memories", l, 9500),
    ).length;
    expect(live).toBeGreaterThan(50);
    expect(live).toBeLessThan(300);
    expect(fresh.size).toBeLessThanOrEqual(2 * live * store.dimensions);
    expect(ask()).toEqual(first);
  });

  it("SaveView.knower answers exactly as SaveView.knows, for every item, NPC and time", () => {
    for (const c of ["memories", "world_events", "lore", "background_debates"] as const) {
      for (const id of ["npc-0", "npc-1", "npc-2", "npc-3", "nobody"]) {
        const npc = view.npcs.find(id);
        for (const t of [0, 2999, 3000, 4000, 6000, 1e9]) {
          const knows = view.knower(npc, c, t);
          const differ: Array<number> = [];
          for (let local = -1; local <= view.items[c].length; local++) {
            if (knows(local) !== view.knows(npc, c, local, t)) differ.push(local);
          }
          expect(differ).toEqual([]);
        }
      }
    }
  });

  it("scans rows stored at one common scale, clipping only outsized components", () => {
    const store = index.store("memories")!;
    const d = store.dimensions;
    const row = new Int8Array(d);
    const rowid = view.items.memories.rowids[0]!;
    expect(copyScaled(store, rowid, row, 0)).toBe(true);
    const v = store.vector(rowid)!;
    for (let i = 0; i < d; i++) {
      const want = Math.max(-127, Math.min(127, Math.round(v[i]! * commonScale(d))));
      expect(row[i]).toBe(want + 0); // +0: an i8 has no negative zero
    }
    expect(copyScaled(store, -5, row, 0)).toBe(false);
    // The dot scan ranks by inner product: a row is its own best match.
    const rows = new Int8Array(50 * d);
    for (let i = 0; i < 50; i++) copyScaled(store, view.items.memories.rowids[i]!, rows, i * d);
    const q = store.quantize(store.vector(view.items.memories.rowids[17]!)!);
    expect(scanDot(rows, 50, q, d, 1)).toEqual([17]);
  });
});
