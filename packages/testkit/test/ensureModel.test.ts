import { createServer } from "node:http";
import { defaultMindConfig, doctorReport, ensureModel, type PullProgress } from "@hearsay/mind";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { Effect, Exit } from "effect";
import { afterEach, describe, expect, it } from "vitest";

let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
const start = async () => {
  server = await OllamaFixtureServer.start();
  return server;
};

describe("ensureModel", () => {
  it("leaves an installed model alone (name or name:latest)", async () => {
    const s = await start();
    const ensured = await Effect.runPromise(
      ensureModel({ transport: { url: s.url }, model: "nomic-embed-text", kind: "embedding" }),
    );
    expect(ensured).toMatchObject({
      model: "nomic-embed-text",
      pulled: false,
      substitutedFor: null,
    });
    expect(s.requests.some((r) => r.path === "/api/pull")).toBe(false);
  });

  it("pulls a missing model, reporting progress", async () => {
    const s = await start();
    const progress: Array<PullProgress> = [];
    const ensured = await Effect.runPromise(
      ensureModel({
        transport: { url: s.url },
        model: "mistral:7b",
        kind: "chat",
        onProgress: (p) => progress.push(p),
      }),
    );
    expect(ensured).toMatchObject({ model: "mistral:7b", pulled: true, substitutedFor: null });
    expect(progress.at(-1)?.status).toBe("success");
    const bytes = progress.filter((p) => p.total !== null);
    expect(bytes.map((p) => p.completed)).toEqual([0, 1028325456, 2056650912, 4113301824]);
    expect(s.installed()).toContain("mistral:7b");
  });

  it("if the pull fails, uses another installed model of the same kind and says so", async () => {
    const s = await start();
    s.failPulls();
    const chat = await Effect.runPromise(
      ensureModel({
        transport: { url: s.url },
        model: "mistral:7b",
        kind: "chat",
        prefer: ["qwen2.5:1.5b"],
      }),
    );
    expect(chat).toMatchObject({
      model: "qwen2.5:1.5b",
      pulled: false,
      substitutedFor: "mistral:7b",
    });
    expect(chat.message).toMatch(
      /could not pull mistral:7b .*file does not exist.*using installed qwen2\.5:1\.5b/,
    );
    const embed = await Effect.runPromise(
      ensureModel({ transport: { url: s.url }, model: "mxbai-embed-large", kind: "embedding" }),
    );
    expect(embed.model).toBe("nomic-embed-text:latest");
  });

  it("fails with ModelNotFound when the pull fails and nothing of that kind is installed", async () => {
    const s = await start();
    s.failPulls().setInstalled("nomic-embed-text", false);
    const exit = await Effect.runPromiseExit(
      ensureModel({ transport: { url: s.url }, model: "mxbai-embed-large", kind: "embedding" }),
    );
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("ModelNotFound");
  });
});

describe("doctorReport", () => {
  const config = (url: string) => ({
    ...defaultMindConfig,
    ollamaUrl: url,
    fallback: ["qwen2.5:1.5b", "scripted"],
  });

  it("checks each of several hosts: one up with its models, one missing a model, one down", async () => {
    const s = await start();
    const other = await OllamaFixtureServer.start();
    other.setInstalled("qwen2.5:1.5b", false);
    const closed = await new Promise<string>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() =>
          resolve(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 1}`),
        );
      });
    });
    try {
      const report = await Effect.runPromise(
        doctorReport({
          config: {
            ...config(s.url),
            hosts: [
              { url: s.url, concurrency: 2 },
              { url: other.url, concurrency: 2, models: ["qwen2.5:1.5b"] },
              { url: closed, concurrency: 1 },
            ],
          },
        }),
      );
      expect(report.hosts).toEqual([
        {
          url: s.url,
          reachable: true,
          version: "0.12.6",
          serves: ["llama3.2:3b", "qwen2.5:1.5b"],
          missing: [],
        },
        {
          url: other.url,
          reachable: true,
          version: "0.12.6",
          serves: ["qwen2.5:1.5b"],
          missing: ["qwen2.5:1.5b"],
        },
        {
          url: closed,
          reachable: false,
          version: null,
          serves: ["llama3.2:3b", "qwen2.5:1.5b"],
          missing: [],
        },
      ]);
      expect(report.problems.map((p) => p.problem)).toEqual([
        `qwen2.5:1.5b is not installed on ollama.hosts[1] (${other.url})`,
        expect.stringMatching(
          new RegExp(`^no Ollama server at ollama.hosts\\[2\\] \\(${closed}\\)`),
        ),
      ]);
      expect(report.ok).toBe(false);
    } finally {
      await other.close();
    }
  });

  it("reports the server, models, context size and embedding dimensions", async () => {
    const s = await start();
    const report = await Effect.runPromise(doctorReport({ config: config(s.url) }));
    expect(report.server).toEqual({ url: s.url, reachable: true, version: "0.12.6" });
    expect(report.installed.map((m) => m.name)).toEqual([
      "llama3.2:3b",
      "qwen2.5:1.5b",
      "nomic-embed-text:latest",
    ]);
    expect(report.chatModel).toEqual({
      name: "llama3.2:3b",
      installed: true,
      contextLength: 131072,
    });
    expect(report.embeddingModel).toEqual({
      name: "nomic-embed-text",
      installed: true,
      dimensions: 768,
    });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("names each problem with its fix", async () => {
    const s = await start();
    s.setInstalled("llama3.2:3b", false);
    const report = await Effect.runPromise(
      doctorReport({
        config: {
          ...config(s.url),
          chatModel: "qwen2.5:1.5b",
          numCtx: 65536,
          fallback: ["mistral:7b", "scripted"],
        },
      }),
    );
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      {
        problem: "ollama.numCtx is 65536 but qwen2.5:1.5b supports 32768 tokens",
        fix: expect.stringContaining("set ollama.numCtx to 32768"),
      },
      {
        problem: "fallback model mistral:7b is not installed",
        fix: expect.stringContaining("ollama pull mistral:7b"),
      },
    ]);
    const missing = await Effect.runPromise(
      doctorReport({ config: { ...config(s.url), chatModel: "llama3.2:3b" } }),
    );
    expect(missing.problems[0]).toEqual({
      problem: "chat model llama3.2:3b is not installed",
      fix: expect.stringContaining("ollama pull llama3.2:3b"),
    });
  });

  it("reports an unreachable server as a finding", async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const address = s.address();
    await new Promise<void>((r) => s.close(() => r()));
    const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 1}`;
    const report = await Effect.runPromise(doctorReport({ config: config(url) }));
    expect(report.server.reachable).toBe(false);
    expect(report.problems[0]?.fix).toContain("ollama serve");
  });
});
