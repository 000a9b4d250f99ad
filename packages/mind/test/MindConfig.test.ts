import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultMindConfig, loadMindConfig, MindConfigError, ollamaHost } from "@hearsay/mind";
import { Effect, Exit } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./arbitraries.ts";

const dir = () => mkdtempSync(join(tmpdir(), "hearsay-config-"));
const load = (options: Parameters<typeof loadMindConfig>[0]) =>
  Effect.runSync(loadMindConfig(options));
const fail = (options: Parameters<typeof loadMindConfig>[0]): MindConfigError => {
  const exit = Effect.runSyncExit(loadMindConfig(options));
  if (Exit.isSuccess(exit)) throw new Error("expected a config error");
  const error = (exit.cause.reasons[0] as { error?: unknown } | undefined)?.error;
  if (!(error instanceof MindConfigError))
    throw new Error(`unexpected failure: ${String(exit.cause)}`);
  return error;
};

describe("ollamaHost (OLLAMA_HOST as Ollama reads it)", () => {
  it.each([
    [undefined, "http://127.0.0.1:11434"],
    ["", "http://127.0.0.1:11434"],
    ["0.0.0.0", "http://127.0.0.1:11434"],
    ["example.com", "http://example.com:11434"],
    ["example.com:1234", "http://example.com:1234"],
    [":5000", "http://127.0.0.1:5000"],
    ["http://example.com", "http://example.com:80"],
    ["https://example.com", "https://example.com:443"],
    ["https://example.com/ollama/", "https://example.com:443/ollama"],
    ["[::1]:9000", "http://[::1]:9000"],
    ["0.0.0.0:11500", "http://127.0.0.1:11500"],
    ["  10.0.0.5:99999 ", "http://10.0.0.5:11434"],
  ])("%j → %s", (value, url) => {
    expect(ollamaHost(value)).toBe(url);
  });

  it("any OLLAMA_HOST either loads as a URL or is refused naming OLLAMA_HOST", () => {
    const cwd = dir();
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (value) => {
        const exit = Effect.runSyncExit(loadMindConfig({ cwd, env: { OLLAMA_HOST: value } }));
        if (Exit.isSuccess(exit)) expect(URL.canParse(exit.value.ollamaUrl)).toBe(true);
        else expect(String(exit.cause)).toContain("OLLAMA_HOST");
      }),
      { numRuns: runs(100) },
    );
  });
});

describe("loadMindConfig", () => {
  it("reads the embedder from the file or HEARSAY_EMBEDDER, and refuses another name in one line", () => {
    const cwd = dir();
    expect(load({ cwd, env: {} }).embedder).toBeNull();
    writeFileSync(join(cwd, "hearsay.config"), JSON.stringify({ embedder: "hashing" }));
    expect(load({ cwd, env: {} }).embedder).toBe("hashing");
    expect(load({ cwd, env: { HEARSAY_EMBEDDER: "ollama" } }).embedder).toBe("ollama");
    writeFileSync(join(cwd, "hearsay.config"), JSON.stringify({ embedder: "bert" }));
    const e = fail({ cwd, env: {} });
    expect(e.field).toBe("embedder");
    expect(e.message.split("\n")).toHaveLength(1);
    expect(e.message).toMatch(
      /hearsay\.config: embedder: "bert" is invalid .*Fix: give "hashing" or "ollama"/,
    );
  });

  it("gives the defaults with no file and no variables", () => {
    expect(load({ cwd: dir(), env: {} })).toEqual(defaultMindConfig);
  });

  it("layers OLLAMA_HOST < file < HEARSAY_* variables", () => {
    const cwd = dir();
    writeFileSync(
      join(cwd, "hearsay.config"),
      JSON.stringify({
        ollama: { chatModel: "qwen2.5:1.5b", timeoutMs: 30000 },
        fallback: ["llama3.2:1b", "scripted"],
      }),
    );
    const config = load({
      cwd,
      env: {
        OLLAMA_HOST: "gpu-box:8080",
        HEARSAY_TIMEOUT_MS: "900",
        HEARSAY_MAX_CALLS: "50",
        OLLAMA_NUM_PARALLEL: "4",
      },
    });
    expect(config).toMatchObject({
      ollamaUrl: "http://gpu-box:8080",
      chatModel: "qwen2.5:1.5b",
      timeoutMs: 900,
      concurrency: 4,
      fallback: ["llama3.2:1b", "scripted"],
      budgets: { maxCalls: 50, maxCallsPerDay: null, maxTokens: null },
    });
    writeFileSync(
      join(cwd, "hearsay.config"),
      JSON.stringify({ ollama: { host: "http://file-host:1" } }),
    );
    expect(load({ cwd, env: { OLLAMA_HOST: "gpu-box:8080" } }).ollamaUrl).toBe(
      "http://file-host:1",
    );
    expect(
      load({ cwd, env: { OLLAMA_HOST: "gpu-box", HEARSAY_OLLAMA_URL: "http://env:2" } }).ollamaUrl,
    ).toBe("http://env:2");
    expect(load({ cwd, env: { HEARSAY_FALLBACK: " a:1b , scripted ,," } }).fallback).toEqual([
      "a:1b",
      "scripted",
    ]);
  });

  it("names the file, the field and the fix for a bad file value", () => {
    const cwd = dir();
    const path = join(cwd, "hearsay.config");
    writeFileSync(path, JSON.stringify({ ollama: { concurrency: 0 } }));
    const error = fail({ cwd, env: {} });
    expect(error).toMatchObject({ source: path, field: "ollama.concurrency" });
    expect(error.message).toContain("Fix: give a whole number from 1 to 64");
    writeFileSync(path, JSON.stringify({ ollama: { timeout: 5 } }));
    expect(fail({ cwd, env: {} })).toMatchObject({
      field: "ollama.timeout",
      problem: "unknown setting",
    });
    writeFileSync(path, "{ not json");
    expect(fail({ cwd, env: {} })).toMatchObject({ source: path, field: "(file)" });
  });

  it("reads ollama.hosts (the first host also the embeddings' server), and refuses a bad host in one line naming it", () => {
    const cwd = dir();
    const path = join(cwd, "hearsay.config");
    const hosts = [
      { url: "http://gpu1:11434", concurrency: 2 },
      { url: "http://gpu2:11434", concurrency: 4, models: ["llama3.2:3b"] },
    ];
    writeFileSync(path, JSON.stringify({ ollama: { hosts } }));
    expect(load({ cwd, env: { OLLAMA_HOST: "elsewhere:1" } })).toMatchObject({
      hosts,
      ollamaUrl: "http://gpu1:11434",
    });
    writeFileSync(path, JSON.stringify({ ollama: { host: "http://embed:1", hosts } }));
    expect(load({ cwd, env: {} }).ollamaUrl).toBe("http://embed:1");
    expect(load({ cwd, env: { HEARSAY_OLLAMA_HOSTS: JSON.stringify([hosts[1]]) } }).hosts).toEqual([
      hosts[1],
    ]);
    for (const [bad, shown] of [
      [[{ url: "gpu1", concurrency: 2 }], /url/],
      [[{ url: "http://gpu1:1", concurrency: 0 }], /concurrency/],
      [[{ url: "http://gpu1:1", concurrency: 1, modles: ["x"] }], /modles/],
      [[], /at least 1|minLength|length/i],
      [{ url: "http://gpu1:1" }, /array|Expected/i],
    ] as const) {
      writeFileSync(path, JSON.stringify({ ollama: { hosts: bad } }));
      const error = fail({ cwd, env: {} });
      expect(error).toMatchObject({ source: path, field: "ollama.hosts" });
      expect(error.message.split("\n")).toHaveLength(1);
      expect(error.message).toMatch(shown);
      expect(error.message).toContain('Fix: give a list of servers, e.g. [{ "url"');
    }
    const fromEnv = fail({ cwd: dir(), env: { HEARSAY_OLLAMA_HOSTS: "gpu1,gpu2" } });
    expect(fromEnv).toMatchObject({
      source: "environment variable HEARSAY_OLLAMA_HOSTS",
      field: "hosts",
    });
  });

  it("reads the brain policy, and refuses an unknown purpose or class in one line", () => {
    const cwd = dir();
    const path = join(cwd, "hearsay.config");
    writeFileSync(
      path,
      JSON.stringify({
        policy: {
          purposes: { summarize_scene: "scripted", act: "high" },
          principalNpcs: ["npc-mara"],
          sceneSize: null,
          nearHops: 2,
        },
      }),
    );
    expect(load({ cwd, env: {} }).policy).toEqual({
      purposes: { summarize_scene: "scripted", act: "high" },
      principalNpcs: ["npc-mara"],
      sceneSize: null,
      deadlineHours: 24,
      firstMeeting: true,
      nearHops: 2,
      speakerMemories: "scripted",
      listenerMemories: "scripted",
      oneLineScenes: "scripted",
      twoLineScenes: "scripted",
      fewHeardScenes: "scripted",
      debateScenes: "scripted",
    });
    expect(load({ cwd, env: { HEARSAY_PRINCIPAL_NPCS: "a, b" } }).policy.principalNpcs).toEqual([
      "a",
      "b",
    ]);
    for (const [purposes, shown] of [
      [{ summarise_scene: "scripted" }, /summarise_scene/],
      [{ act: "urgent" }, /urgent/],
    ] as const) {
      writeFileSync(path, JSON.stringify({ policy: { purposes } }));
      const error = fail({ cwd, env: {} });
      expect(error).toMatchObject({ source: path, field: "policy.purposes" });
      expect(error.message.split("\n")).toHaveLength(1);
      expect(error.message).toMatch(shown);
      expect(error.message).toContain("Fix: map purposes to a class");
    }
    writeFileSync(path, JSON.stringify({ policy: { nearHops: -1 } }));
    const hops = fail({ cwd, env: {} });
    expect(hops).toMatchObject({ source: path, field: "policy.nearHops" });
    expect(hops.message.split("\n")).toHaveLength(1);
    expect(hops.message).toContain("Fix: give whole travel hops from 0");
    writeFileSync(path, JSON.stringify({ policy: { twoLineScenes: "rules" } }));
    const two = fail({ cwd, env: {} });
    expect(two).toMatchObject({ source: path, field: "policy.twoLineScenes" });
    expect(two.message.split("\n")).toHaveLength(1);
    expect(two.message).toContain('Fix: give "model" or "scripted"');
    writeFileSync(path, JSON.stringify({ policy: { twoLineScenes: "model" } }));
    expect(load({ cwd, env: {} }).policy.twoLineScenes).toBe("model");
    writeFileSync(path, JSON.stringify({ policy: { principalNPCs: [] } }));
    expect(fail({ cwd, env: {} })).toMatchObject({
      field: "policy.principalNPCs",
      problem: "unknown setting",
    });
  });

  it("names the variable for a bad environment value", () => {
    const error = fail({ cwd: dir(), env: { HEARSAY_TEMPERATURE: "hot" } });
    expect(error).toMatchObject({
      source: "environment variable HEARSAY_TEMPERATURE",
      field: "temperature",
    });
    expect(error.message).toMatch(
      /^environment variable HEARSAY_TEMPERATURE: temperature: "hot" is invalid .*Fix: give a number from 0 to 2/,
    );
  });

  it("an explicit path that does not exist is an error; a missing default file is not", () => {
    expect(fail({ path: join(dir(), "nope.json"), env: {} })).toMatchObject({
      problem: "no such file",
    });
  });
});
