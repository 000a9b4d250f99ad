import {
  defaultNearestTuning,
  importLore,
  knownNearest,
  knownRowids,
  LoreNearest,
  makeHashingEmbedder,
  RetrievalEngine,
  SaveView,
  VectorIndexes,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { npcEvents, openWorld } from "./fixtures.ts";

const embedder = makeHashingEmbedder({ dimensions: 48 });
const vocab = [
  "harbor",
  "storm",
  "mill",
  "grain",
  "guard",
  "venn",
  "autumn",
  "sea",
  "forge",
  "tax",
];
const text = fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 8 });

/** A lore file's bytes: a heading and a paragraph or two. */
const file = fc.record({
  path: fc.constantFrom("a.md", "b.md", "c.md"),
  title: text,
  paragraphs: fc.array(text, { minLength: 1, maxLength: 3 }),
});
const bytesOf = (f: { title: Array<string>; paragraphs: Array<Array<string>> }) =>
  `# ${f.title.join(" ")}\n\n${f.paragraphs.map((p) => `${p.join(" ")}.`).join("\n\n")}\n`;

/** Lore imported (new files, or new text for a file), or a lore search by some NPC. */
const step = fc.oneof(
  fc.record({ files: fc.array(file, { minLength: 1, maxLength: 2 }) }),
  // A few query texts: NPCs ask what others asked, as a run's turns rank by their place.
  fc.record({
    npc: fc.integer({ min: 0, max: 3 }),
    query: fc.constantFrom(["harbor"], ["storm", "mill"], ["venn", "guard", "sea"]),
  }),
);

const worldWithIndex = () => {
  const world = openWorld();
  world.append(npcEvents(4));
  const { index } = Effect.runSync(VectorIndexes.open(world.db, embedder));
  return { world, index };
};

describe("LoreNearest", () => {
  it("finds what a search of its own finds, as the lore changes", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const { world, index } = worldWithIndex();
        // Two engines through the same history: one embeds each query text once (so its
        // lore answers are kept), the other is given a new vector for every search.
        const kept = new RetrievalEngine(world.db, { log: world.log, embedder, index });
        const fresh = new RetrievalEngine(world.db, { log: world.log, embedder, index });
        let t = 10;
        for (const s of steps) {
          t += 10;
          if ("files" in s) {
            importLore(world.db, world.log, {
              saveId: world.saveId,
              t,
              files: s.files.map((f) => ({ path: f.path, bytes: bytesOf(f) })),
            });
            continue;
          }
          const query = s.query.join(" ");
          const req = {
            saveId: world.saveId,
            npcId: `npc-${s.npc}`,
            t,
            query,
            collections: ["lore" as const],
            limit: 3,
          };
          const got = kept.search(req);
          expect(got).toEqual(fresh.search({ ...req, queryVector: embedder.embedSync!(query) }));
        }
        world.db.close();
      }),
      { numRuns: 60 },
    );
  });

  it("keeps an answer per query vector until the lore or its vectors change", () => {
    const { world, index } = worldWithIndex();
    const files = [{ path: "a.md", bytes: "# Venn\n\nCaptain Venn guards the harbor.\n" }];
    importLore(world.db, world.log, { saveId: world.saveId, t: 10, files });
    // The engine brings the index level with the log.
    new RetrievalEngine(world.db, { log: world.log, embedder, index }).view(world.saveId);
    const view = SaveView.load(world.db, world.saveId);
    const store = index.store("lore")!;
    const known = knownRowids(view, 0, "lore", 20);
    const q = embedder.embedSync!("harbor guard");
    const lore = new LoreNearest();
    const first = lore.nearest(view, store, 0, 20, q, 2, defaultNearestTuning, known);
    expect(first).toEqual(knownNearest(view, store, 0, "lore", 20, q, 2));
    // Another NPC, another time: the same answer, kept.
    expect(lore.nearest(view, store, 1, 90, q, 2, defaultNearestTuning, known)).toBe(first);
    expect(lore.nearest(view, store, 1, 90, q, 1, defaultNearestTuning, known)).not.toBe(first);
    // The store's rows change: asked again.
    store.put([5000], [1], q);
    const again = lore.nearest(view, store, 0, 20, q, 2, defaultNearestTuning, known);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    // The lore changes, its vectors not yet (a model-backed embedder's wait): asked again.
    const more = [{ path: "b.md", bytes: "# Harbor\n\nThe harbor guard drills at dawn.\n" }];
    importLore(world.db, world.log, { saveId: world.saveId, t: 30, files: more });
    view.catchUp(world.log.read(world.saveId, { fromSeq: view.seq + 1 }), {});
    const grown = knownRowids(view, 0, "lore", 40);
    expect(grown.rowids.length).toBe(known.rowids.length + 1);
    const after = lore.nearest(view, store, 0, 40, q, 2, defaultNearestTuning, grown);
    expect(after).not.toBe(again);
    expect(after).toEqual(
      knownNearest(view, store, 0, "lore", 40, q, 2, defaultNearestTuning, grown),
    );
    world.db.close();
  });
});
