/**
 * The synchronous path to a live embedding model, against the fixture server in its own
 * process (this thread blocks while it waits): batched unit vectors, a vector of another
 * dimension refused, and a server gone reported as unreachable — each an EmbedderError.
 */
import { BlockingEmbedClient, EmbedderError } from "@hearsay/retrieval";
import { type FixtureServerProcess, startFixtureServerProcess } from "@hearsay/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let server: FixtureServerProcess;
beforeAll(async () => {
  server = await startFixtureServerProcess({
    embedCorpus: ["the ferry crosses the tarn", "salt is boiled in the pans", "the lamp burns oil"],
  });
}, 60_000);
afterAll(() => server.stop());

const thrown = (f: () => unknown): EmbedderError => {
  try {
    f();
  } catch (e) {
    if (e instanceof EmbedderError) return e;
    throw e;
  }
  throw new Error("expected an EmbedderError");
};

describe("BlockingEmbedClient", () => {
  it("embeds a batch synchronously into unit vectors, the same text the same vector", () => {
    const client = new BlockingEmbedClient({ host: server.url, model: "nomic-embed-text" });
    const [a, b, c] = client.embed(["salt pans", "the ferry", "salt pans"], 768);
    client.close();
    expect(a).toHaveLength(768);
    expect(Math.abs(Math.hypot(...a!) - 1)).toBeLessThan(1e-5);
    expect(Array.from(c!)).toEqual(Array.from(a!));
    expect(Array.from(b!)).not.toEqual(Array.from(a!));
  });

  it("refuses vectors of another dimension than the run's", () => {
    const client = new BlockingEmbedClient({ host: server.url, model: "nomic-embed-text" });
    const e = thrown(() => client.embed(["salt pans"], 384));
    client.close();
    expect(e.reason).toBe("dimension-mismatch");
    expect(e.message).toMatch(/got a 768-dimensional vector, expected 384/);
  });

  it("says the server is unreachable when nothing answers", () => {
    const client = new BlockingEmbedClient({
      host: "http://127.0.0.1:9",
      model: "nomic-embed-text",
    });
    const e = thrown(() => client.embed(["salt pans"], 768));
    client.close();
    expect(e.reason).toBe("unreachable");
    expect(e.message).toMatch(/embed call to http:\/\/127\.0\.0\.1:9 failed/);
  });
});
