import { ids } from "@hearsay/core";
import {
  Embedder,
  hashingEmbedderLayer,
  makeOllamaEmbedder,
  Retrieval,
  VectorIndex,
  VectorIndexes,
} from "@hearsay/retrieval";
import { StoreDatabase } from "@hearsay/store";
import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { startFakeOllama } from "./fakeOllama.ts";
import { memoryEvents, npcEvents, Prng } from "./fixtures.ts";

const retrievalOver = <E>(embedder: Layer.Layer<Embedder, E>) =>
  Retrieval.layer().pipe(
    Layer.provideMerge(VectorIndex.layer()),
    Layer.provideMerge(embedder),
    Layer.provideMerge(StoreDatabase.layerMemory()),
  );

/** Creates a save with NPCs and memories, then asks for a dossier and a search. */
const scenario = Effect.gen(function* () {
  const { log, db } = yield* StoreDatabase;
  const saveId = ids.save("s");
  log.createSave({ saveId, campaignId: ids.campaign("c"), name: "s" });
  log.append(saveId, 0, [...npcEvents(3), ...memoryEvents(Prng.derive(3, "r"), 3, 60)]);
  const retrieval = yield* Retrieval;
  const dossier = yield* retrieval.dossier({
    saveId,
    npcId: "npc-0",
    t: 10_000,
    query: "grain in the mill cellar",
  });
  const hits = yield* retrieval.search({
    saveId,
    npcId: "npc-1",
    t: 10_000,
    query: "storm on the river",
  });
  return { db, saveId, dossier, hits };
});

describe("Retrieval service", () => {
  it("composes with the store, an embedder and the vector index as layers", async () => {
    const { dossier, hits } = await Effect.runPromise(
      scenario.pipe(Effect.provide(retrievalOver(hashingEmbedderLayer()))),
    );
    expect(dossier?.npcName).toBe("Name0");
    expect(dossier!.sections.find((s) => s.name === "memories")!.items.length).toBeGreaterThan(0);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.kind === "memory")).toBe(true);
  });

  it("with a live model: embeds each text once, rows and queries alike, caching vectors in SQLite", async () => {
    const server = await startFakeOllama(32, ["nomic-embed-text"]);
    try {
      const ollama = Layer.effect(Embedder, makeOllamaEmbedder({ host: server.url }));
      const program = Effect.gen(function* () {
        const out = yield* scenario;
        const cached = out.db
          .prepare("SELECT count(*) FROM embeddings WHERE model = 'ollama:nomic-embed-text'")
          .pluck()
          .get();
        return { ...out, cached: Number(cached) };
      });
      const { db, dossier, hits, cached } = await Effect.runPromise(
        program.pipe(Effect.provide(retrievalOver(ollama))),
      );
      expect(dossier).not.toBeNull();
      expect(hits.length).toBeGreaterThan(0);
      // 60 memory texts plus the two query texts went through the model once each.
      expect(cached).toBe(62);
      expect(server.batches.reduce((a, n) => a + n, 0)).toBe(1 + 60 + 2);
      expect(db.open).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("rebuilds from the embeddings cache with the model server gone", async () => {
    const server = await startFakeOllama(16, ["nomic-embed-text"]);
    const program = Effect.gen(function* () {
      const { db, log } = yield* StoreDatabase;
      const saveId = ids.save("s");
      log.createSave({ saveId, campaignId: ids.campaign("c"), name: "s" });
      log.append(saveId, 0, [...npcEvents(2), ...memoryEvents(Prng.derive(4, "r"), 2, 40)]);
      const embedder = yield* makeOllamaEmbedder({ host: server.url });
      yield* VectorIndexes.open(db, embedder);
      const calls = server.batches.length;
      yield* Effect.promise(() => server.close());
      const { reports } = yield* VectorIndexes.rebuild(db, embedder);
      return { calls, after: server.batches.length, reports };
    });
    const { calls, after, reports } = await Effect.runPromise(
      program.pipe(Effect.provide(StoreDatabase.layerMemory()), Effect.scoped),
    );
    expect(after).toBe(calls);
    expect(reports.find((r) => r.collection === "memories")).toMatchObject({
      outcome: "rebuilt",
      count: 40,
      added: 40,
    });
  });
});
