import { ids } from "@hearsay/core";
import { makeOllamaEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { startFakeOllama } from "./fakeOllama.ts";
import { memoryEvents, npcEvents, Prng } from "./fixtures.ts";

/** A database with a save of `npcs` NPCs and `memories` memories. */
const saveWith = (seed: number, npcs: number, memories: number) => {
  const db = openDatabase(":memory:");
  const log = new SqliteEventLog(db);
  const saveId = ids.save("s");
  log.createSave({ saveId, campaignId: ids.campaign("c"), name: "s" });
  log.append(saveId, 0, [
    ...npcEvents(npcs),
    ...memoryEvents(Prng.derive(seed, "r"), npcs, memories),
  ]);
  return { db, log, saveId };
};

describe("Retrieval over a live embedding model", () => {
  it("embeds each row once, caching vectors in SQLite, and a dossier reads them", async () => {
    const server = await startFakeOllama(32, ["nomic-embed-text"]);
    const { db, log, saveId } = saveWith(3, 3, 60);
    try {
      const embedder = await Effect.runPromise(makeOllamaEmbedder({ host: server.url }));
      const { index } = await Effect.runPromise(VectorIndexes.open(db, embedder));
      const cached = db
        .prepare("SELECT count(*) FROM embeddings WHERE model = 'ollama:nomic-embed-text'")
        .pluck()
        .get();
      // 60 memory texts went through the model once each (after one probe of the model).
      expect(Number(cached)).toBe(60);
      expect(server.batches.reduce((a, n) => a + n, 0)).toBe(1 + 60);
      const engine = new RetrievalEngine(db, { log, embedder, index });
      const dossier = engine.dossier({ saveId, npcId: "npc-0", t: 10_000, query: null });
      expect(dossier?.npcName).toBe("Name0");
      expect(dossier!.sections.find((s) => s.name === "memories")!.items.length).toBeGreaterThan(0);
    } finally {
      db.close();
      await server.close();
    }
  });

  it("rebuilds from the embeddings cache with the model server gone", async () => {
    const server = await startFakeOllama(16, ["nomic-embed-text"]);
    const { db } = saveWith(4, 2, 40);
    try {
      const embedder = await Effect.runPromise(makeOllamaEmbedder({ host: server.url }));
      await Effect.runPromise(VectorIndexes.open(db, embedder));
      const calls = server.batches.length;
      await server.close();
      const { reports } = await Effect.runPromise(VectorIndexes.rebuild(db, embedder));
      expect(server.batches.length).toBe(calls);
      expect(reports.find((r) => r.collection === "memories")).toMatchObject({
        outcome: "rebuilt",
        count: 40,
        added: 40,
      });
    } finally {
      db.close();
    }
  });
});
