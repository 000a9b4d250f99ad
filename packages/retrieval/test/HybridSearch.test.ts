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
import { memoryEvents, npcEvents, openWorld, Prng, type TestWorld, topics } from "./fixtures.ts";

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

describe("searchCollection", () => {
  it("gives the same hits whether or not it skips hopeless candidates' cosines", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 1400 }),
        fc.array(fc.constantFrom(...words), { maxLength: 6 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(null, "square", "mill"),
        (npc, t, ws, limit, locationId) => {
          const req = {
            saveId: world.saveId,
            npcId: `npc-${npc}`,
            t,
            query: ws.join(" "),
            scene: { locationId, present: ["npc-1"] },
            limit,
          };
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
