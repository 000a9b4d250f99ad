import { OllamaFixtureServer } from "@hearsay/testkit";
import { Ollama } from "ollama";
import { afterEach, describe, expect, it } from "vitest";

let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const start = async () => {
  server = await OllamaFixtureServer.start();
  return { server, client: new Ollama({ host: server.url }) };
};

describe("OllamaFixtureServer", () => {
  it("speaks /api/version, /api/tags and /api/show from the fixtures", async () => {
    const { client } = await start();
    expect((await client.version()).version).toBe("0.12.6");
    const names = (await client.list()).models.map((m) => m.name);
    expect(names).toEqual(["llama3.2:3b", "qwen2.5:1.5b", "nomic-embed-text:latest"]);
    const show = await client.show({ model: "llama3.2:3b" });
    expect((show.model_info as unknown as Record<string, unknown>)["llama.context_length"]).toBe(
      131072,
    );
    await expect(client.show({ model: "mistral:7b" })).rejects.toMatchObject({ status_code: 404 });
  });

  it("embeds deterministically with the model's dimensions", async () => {
    const { client } = await start();
    const a = await client.embed({ model: "nomic-embed-text", input: ["salt", "bell"] });
    const b = await client.embed({ model: "nomic-embed-text", input: "salt" });
    expect(a.embeddings).toHaveLength(2);
    expect(a.embeddings[0]).toHaveLength(768);
    expect(b.embeddings[0]).toEqual(a.embeddings[0]);
    expect(a.embeddings[1]).not.toEqual(a.embeddings[0]);
    const norm = Math.hypot(...(a.embeddings[0] ?? []));
    expect(norm).toBeCloseTo(1, 6);
  });

  it("answers 404 for a model that is not installed until it is pulled, streaming progress", async () => {
    const { client, server } = await start();
    await expect(client.chat({ model: "mistral:7b", messages: [] })).rejects.toMatchObject({
      status_code: 404,
    });
    const statuses: Array<string> = [];
    for await (const p of await client.pull({ model: "mistral:7b", stream: true }))
      statuses.push(p.status);
    expect(statuses[0]).toBe("pulling manifest");
    expect(statuses.at(-1)).toBe("success");
    expect(statuses.length).toBeGreaterThan(4);
    expect(server.installed()).toContain("mistral:7b");
    expect((await client.chat({ model: "mistral:7b", messages: [] })).done).toBe(true);
  });

  it("fails a pull with an error line when told to", async () => {
    const { client, server } = await start();
    server.failPulls();
    const pull = async () => {
      for await (const _ of await client.pull({ model: "mistral:7b", stream: true })) {
        // drain
      }
    };
    await expect(pull()).rejects.toThrow(/file does not exist/);
    expect(server.installed()).not.toContain("mistral:7b");
  });

  it("streams chat answers in chunks that join to the whole answer", async () => {
    const { client } = await start();
    const whole = await client.chat({
      model: "llama3.2:3b",
      messages: [{ role: "user", content: "hi" }],
    });
    let joined = "";
    for await (const part of await client.chat({
      model: "llama3.2:3b",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    }))
      joined += part.message.content;
    expect(joined).toBe(whole.message.content);
  });

  it("after kill() the port refuses connections", async () => {
    const { client, server } = await start();
    await server.kill();
    await expect(client.version()).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
  });
});
