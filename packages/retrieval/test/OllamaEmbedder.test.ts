import { type EmbedderError, makeOllamaEmbedder, type PullProgress } from "@hearsay/retrieval";
import { Effect } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOllama, startFakeOllama } from "./fakeOllama.ts";

let server: FakeOllama | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const failure = (e: Effect.Effect<unknown, EmbedderError>) => Effect.runPromise(Effect.flip(e));

describe("Ollama embedder", () => {
  it("pulls a missing model with progress, then embeds in batches of unit vectors", async () => {
    server = await startFakeOllama(24, []);
    const progress: Array<PullProgress> = [];
    const embedder = await Effect.runPromise(
      makeOllamaEmbedder({
        host: server.url,
        batchSize: 4,
        onPullProgress: (p) => progress.push(p),
      }),
    );
    expect(progress.map((p) => p.completed)).toEqual([0, 0, 400, 1000, 0]);
    expect(progress.find((p) => p.total === 1000)?.status).toBe("pulling 0abc");
    expect(embedder.model).toBe("ollama:nomic-embed-text");
    expect(embedder.dimensions).toBe(24);
    expect(embedder.embedSync).toBeNull();
    const texts = Array.from({ length: 10 }, (_, i) => `text ${i}`);
    const vectors = await Effect.runPromise(embedder.embed(texts));
    expect(vectors).toHaveLength(10);
    for (const v of vectors) expect(Math.abs(Math.hypot(...v) - 1)).toBeLessThan(1e-5);
    expect(server.batches).toEqual([1, 4, 4, 2]); // the start-up probe, then batches of 4
    const again = await Effect.runPromise(embedder.embed(["text 3"]));
    expect(Array.from(again[0]!)).toEqual(Array.from(vectors[3]!));
  });

  it("says clearly when the model's dimension is not the configured one", async () => {
    server = await startFakeOllama(768, ["nomic-embed-text"]);
    const e = await failure(makeOllamaEmbedder({ host: server.url, dimensions: 384 }));
    expect(e.reason).toBe("dimension-mismatch");
    expect(e.message).toMatch(/returns 768-dimensional vectors but 384 are configured/);
  });

  it("fails with the fix when the server is unreachable, the model is missing, or the pull fails", async () => {
    server = await startFakeOllama(8, []);
    const missing = await failure(makeOllamaEmbedder({ host: server.url, pull: false }));
    expect(missing.reason).toBe("missing-model");
    expect(missing.message).toMatch(/ollama pull nomic-embed-text/);
    server.pullFails = true;
    const pull = await failure(makeOllamaEmbedder({ host: server.url }));
    expect(pull.reason).toBe("pull-failed");
    const url = server.url;
    await server.close();
    server = null;
    const down = await failure(makeOllamaEmbedder({ host: url }));
    expect(down.reason).toBe("unreachable");
    expect(down.message).toMatch(/cannot reach Ollama/);
  });
});
