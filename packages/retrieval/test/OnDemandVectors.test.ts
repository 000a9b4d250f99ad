/**
 * Memories without graphs are embedded when a search first reads them, not when they are
 * recorded (`CollectionIndex.onDemand`). Whatever the log — memories recorded, told to
 * others and gone, searches now and at earlier moments, the files saved and opened again
 * between — every search ranks as it does over an index that embedded every memory as it
 * was recorded, and the on-demand index never holds a memory no search has read.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Event, StoredEvent } from "@hearsay/core";
import {
  type CollectionName,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
} from "@hearsay/retrieval";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ev, memoryEvents, npcEvents, openWorld, Prng, sentence } from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });
const embedder = makeHashingEmbedder({ dimensions: 32 });
/** The same vectors, from an embedder the index may not call during a search. */
const eagerEmbedder = { ...embedder, pure: false };
const graphCollections: ReadonlyArray<CollectionName> = [
  "world_events",
  "lore",
  "background_debates",
];
const NPCS = 4;

const step = fc.record({
  memories: fc.integer({ min: 1, max: 40 }),
  gone: fc.integer({ min: 0, max: 12 }),
  asks: fc.array(
    fc.record({
      npc: fc.integer({ min: 0, max: NPCS - 1 }),
      back: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 150 })),
      topic: fc.integer({ min: 0, max: 9 }),
    }),
    { maxLength: 4 },
  ),
  reopen: fc.boolean(),
  // Fed to the views as appended (rows given) or read back by an update of every table.
  given: fc.boolean(),
});

describe("memories embedded on demand", () => {
  it("property: every search ranks as over memories embedded when recorded", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.array(step, { minLength: 1, maxLength: 6 }),
        (seed, steps) => {
          const dir = mkdtempSync(join(tmpdir(), "hearsay-on-demand-"));
          const dbPath = join(dir, "world.db");
          const world = openWorld(dbPath);
          try {
            world.append(npcEvents(NPCS));
            const open = () =>
              Effect.runSync(VectorIndexes.open(world.db, embedder, { graphCollections })).index;
            let lazy = open();
            const eager = Effect.runSync(
              VectorIndexes.open(world.db, eagerEmbedder, {
                dbPath: ":memory:",
                graphCollections,
              }),
            ).index;
            expect(lazy.store("memories")!.onDemand).not.toBeNull();
            expect(eager.store("memories")!.onDemand).toBeNull();
            const engineOf = (index: VectorIndexes) =>
              new RetrievalEngine(world.db, { log: world.log, embedder, index });
            let a = engineOf(lazy);
            const b = engineOf(eager);
            a.view(world.saveId);
            b.view(world.saveId);
            const p = Prng.derive(seed, "on-demand");
            const recorded: Array<{ id: string; owner: string }> = [];
            let now = 10;
            steps.forEach((s, i) => {
              const made = memoryEvents(
                Prng.derive(seed, `s${i}`),
                NPCS,
                s.memories,
                now,
                `s${i}-`,
              );
              const events: Array<Event> = [...made];
              for (const e of made)
                if (e.type === "MemoryRecorded")
                  recorded.push({
                    id: String(e.payload.memoryId),
                    owner: String(e.payload.ownerNpcId),
                  });
              now += s.memories;
              for (let g = 0; g < s.gone && recorded.length > 0; g++) {
                const [m] = recorded.splice(p.int(0, recorded.length - 1), 1);
                events.push(
                  ev("MemoryExpired", now, {
                    memoryId: m!.id,
                    ownerNpcId: m!.owner,
                    reason: "expired",
                  }),
                );
              }
              now += 1;
              const head = world.log.head(world.saveId);
              const { appended } = world.log.append(world.saveId, head, events);
              if (s.given) {
                a.view(world.saveId, appended as ReadonlyArray<StoredEvent>);
                b.view(world.saveId, appended as ReadonlyArray<StoredEvent>);
              } else {
                Effect.runSync(lazy.update());
                Effect.runSync(eager.update());
                a.view(world.saveId);
                b.view(world.saveId);
              }
              for (const ask of s.asks) {
                const req = {
                  saveId: world.saveId,
                  npcId: `npc-${ask.npc}`,
                  t: Math.max(0, now - ask.back),
                  query: sentence(Prng.derive(seed + ask.topic, "q"), ask.topic),
                };
                expect(a.search(req), `step ${i}, ${JSON.stringify(ask)}`).toEqual(b.search(req));
              }
              // Only what a search read is held, and each as an eager index holds it.
              const held = lazy.store("memories")!.entries();
              const all = eager.store("memories")!;
              held.rowids.forEach((rowid, j) => {
                expect(held.fingerprints[j]).toBe(all.fingerprint(rowid));
              });
              if (s.reopen) {
                lazy.save({ level: true });
                lazy = open();
                a = engineOf(lazy);
                a.view(world.saveId);
              }
            });
          } finally {
            world.db.close();
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      runs(25),
    );
  });

  it("a run's update embeds no memory, and a search embeds only what the NPC knows", () => {
    const world = openWorld();
    try {
      world.append(npcEvents(NPCS));
      world.append(memoryEvents(Prng.derive(1, "few"), NPCS, 60));
      const { index } = Effect.runSync(
        VectorIndexes.open(world.db, embedder, { graphCollections }),
      );
      const store = index.store("memories")!;
      expect(store.size).toBe(0);
      const engine = new RetrievalEngine(world.db, { log: world.log, embedder, index });
      const hits = engine.search({
        saveId: world.saveId,
        npcId: "npc-1",
        t: 1_000,
        query: "the mill",
      });
      expect(hits.some((h) => h.collection === "memories")).toBe(true);
      const view = engine.view(world.saveId);
      const known = new Set<number>();
      const tab = view.items.memories;
      for (let local = 0; local < tab.length; local++)
        if (view.knows(view.npcs.intern("npc-1"), "memories", local, 1_000))
          known.add(tab.rowids[local]!);
      const held = [...store.entries().rowids];
      expect(held.length).toBeGreaterThan(0);
      expect(held.every((r) => known.has(r))).toBe(true);
      expect(held.length).toBe(known.size);
    } finally {
      world.db.close();
    }
  });
});
