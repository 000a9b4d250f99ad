/**
 * Hybrid search ranks filter and keyword candidates by a score that includes their
 * cosine, which it computes only while a candidate could still make the top: for random
 * NPCs, times, queries and limits, that gives exactly the hits (ids, scores, similarities,
 * order) of computing every candidate's cosine, and every hit is an item the NPC knows.
 */
import {
  defaultSearchTuning,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
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

const embedder = makeHashingEmbedder({ dimensions: 64 });
let world: TestWorld;
let bounded: RetrievalEngine;
let everyCosine: RetrievalEngine;

beforeAll(() => {
  world = openWorld();
  world.append(npcEvents(6));
  world.append(memoryEvents(Prng.derive(5, "hybrid"), 6, 1200));
  const { index } = Effect.runSync(
    VectorIndexes.open(world.db, embedder, { store: { hnswMinSize: 1_000_000 } }),
  );
  // A small exactMax sends some NPCs down the posting-list path, the rest enumerate.
  const tuning = { ...defaultSearchTuning, exactMax: 64 };
  bounded = new RetrievalEngine(world.db, { log: world.log, embedder, index, tuning });
  everyCosine = new RetrievalEngine(world.db, {
    log: world.log,
    embedder,
    index,
    tuning: { ...tuning, boundSimilarity: false },
  });
});

const words = [...topics.flat(), "Name1", "Name4", "square", "mill", "chapel"];

/** Random search requests: one of `npcs` NPCs, a time, query words, a limit, a place. */
const requests = (
  saveId: string,
  npcs: number,
  times: { readonly min: number; readonly max: number },
  maxLimit: number,
  present: (npc: number) => string,
) =>
  fc
    .tuple(
      fc.integer({ min: 0, max: npcs - 1 }),
      fc.integer(times),
      fc.array(fc.constantFrom(...words), { maxLength: 6 }),
      fc.integer({ min: 1, max: maxLimit }),
      fc.constantFrom(null, "square", "mill"),
    )
    .map(([npc, t, ws, limit, locationId]) => ({
      npc,
      t,
      req: {
        saveId,
        npcId: `npc-${npc}`,
        t,
        query: ws.join(" "),
        scene: { locationId, present: [present(npc)] },
        limit,
      },
    }));

describe("searchCollection", () => {
  it("gives the same hits whether or not it skips hopeless candidates' cosines", () => {
    fc.assert(
      fc.property(
        requests(world.saveId, 7, { min: 0, max: 1400 }, 30, () => "npc-1"),
        ({ npc, t, req }) => {
          const got = bounded.search(req);
          expect(got).toEqual(everyCosine.search(req));
          for (const h of got) {
            expect(
              world.log.knowsAt(world.saveId, `npc-${npc}` as never, "memory", h.id, t as never),
            ).toBe(true);
          }
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 1500 : 150 },
    );
  });
});

/**
 * Memories that mostly expire within minutes, a few kept for good and told to others:
 * each NPC ends with several hundred memory facts, but a few dozen at most are alive at
 * any time. Its search is then exact, whatever its fact count.
 */
const shortLived = (p: Prng, npcs: number, count: number) => {
  const out = [];
  for (let i = 0; i < count; i++) {
    const owner = p.int(0, npcs - 1);
    const t = 10 + i;
    const kept = p.chance(0.06);
    out.push(
      ev("MemoryRecorded", t, {
        memoryId: `s${i}`,
        ownerNpcId: `npc-${owner}`,
        text: sentence(p, p.int(0, topics.length - 1)),
        category: "observation",
        importance: p.float(),
        expiresAt: kept ? null : t + p.int(1, 12),
        locationId: ["square", "mill", "chapel"][p.int(0, 2)],
        entities: [`Name${p.int(0, npcs - 1)}`],
        about: null,
      }),
    );
    if (kept) {
      out.push(
        ev("KnowledgeGained", t, {
          npcId: `npc-${(owner + 1) % npcs}`,
          itemKind: "memory",
          itemId: `s${i}`,
          via: "told",
          fromNpcId: `npc-${owner}`,
          confidence: 0.5,
        }),
      );
    }
  }
  return out;
};

describe("searchCollection over a few live memories among many facts", () => {
  let brief: TestWorld;
  let counted: RetrievalEngine;
  let reference: RetrievalEngine;
  // Walks so short that the posting-list path visibly differs from an exact search.
  const tuning = { ...defaultSearchTuning, exactMax: 64, scanCap: 12, filterHits: 3 };

  beforeAll(() => {
    brief = openWorld();
    brief.append(npcEvents(4));
    brief.append(shortLived(Prng.derive(11, "brief"), 4, 1600));
    const { index } = Effect.runSync(
      VectorIndexes.open(brief.db, embedder, { store: { hnswMinSize: 1_000_000 } }),
    );
    counted = new RetrievalEngine(brief.db, { log: brief.log, embedder, index, tuning });
    reference = new RetrievalEngine(brief.db, {
      log: brief.log,
      embedder,
      index,
      tuning: { ...tuning, exactMax: 1_000_000 },
    });
  });

  it("is exact when what the NPC knows at t is few, however many facts it has", () => {
    const view = counted.view(brief.saveId);
    for (let npc = 0; npc < 4; npc++) {
      // Every NPC has far more facts than exactMax: counting facts would walk lists.
      expect(view.knownList(view.npcs.find(`npc-${npc}`), "memory")!.size).toBeGreaterThan(
        4 * tuning.exactMax,
      );
    }
    fc.assert(
      fc.property(
        requests(brief.saveId, 4, { min: 200, max: 1700 }, 20, (npc) => `npc-${(npc + 2) % 4}`),
        ({ req }) => {
          expect(counted.search(req)).toEqual(reference.search(req));
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 1500 : 200 },
    );
  });
});
