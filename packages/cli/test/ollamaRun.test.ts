/**
 * `hearsay run --brain ollama` against a real HTTP server on loopback that speaks Ollama's
 * API (the testkit's fixture server): every call is recorded in the log, and a replay of
 * the run needs no server at all.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { workspaceRoot } from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { describe, expect, it } from "vitest";

const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "packages/cli/src/main.ts", ...args],
      {
        cwd: workspaceRoot(),
        env: { ...process.env, ...env },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

describe("hearsay run --brain ollama", () => {
  it("records every call against an Ollama-speaking server, and replays with the server gone", async () => {
    const server = await OllamaFixtureServer.start({});
    const db = join(mkdtempSync(join(tmpdir(), "hearsay-ollama-")), "run.db");
    const run = await cli(["run", "--days", "1", "--db", db, "--brain", "ollama", "--quiet"], {
      OLLAMA_HOST: server.url,
      HEARSAY_OLLAMA_URL: "",
    });
    const chats = server.chats().length;
    const embeds = server.requests.filter((r) => r.path === "/api/embed").length;
    await server.close();
    // With the ollama brain, ranking by meaning goes through the server's embedding model.
    expect(embeds).toBeGreaterThan(1);
    expect(run.stderr).not.toContain("hearsay: warning");
    expect(run.code).toBe(0);
    const log = new SqliteEventLog(openDatabase(db));
    const events = log.read(ids.save("main"));
    const recorded = events.filter((e) => e.type === "LlmCallRecorded");
    const started = events[0]!;
    const cached = log.db.prepare("SELECT count(*) FROM embeddings").pluck().get() as number;
    log.db.close();
    expect(started.type === "SimulationStarted" && started.payload.embedder).toBe(
      "ollama:nomic-embed-text@768",
    );
    expect(events.some((e) => e.type === "SimulationWarning")).toBe(false);
    expect(cached).toBeGreaterThan(0);
    expect(recorded.length).toBeGreaterThan(50);
    // Every call the model answered, but those the policy sends to the rules.
    expect(
      recorded.every(
        (e) =>
          e.type === "LlmCallRecorded" &&
          (e.payload.brain === "ollama") !== (e.payload.policy?.priority === "scripted"),
      ),
    ).toBe(true);
    const asked = recorded.filter(
      (e) => e.type === "LlmCallRecorded" && e.payload.brain === "ollama",
    );
    expect(asked.length).toBeGreaterThan(50);
    // Every chat the server answered belongs to a recorded call (repairs add chats, not calls).
    expect(chats).toBeGreaterThanOrEqual(asked.length);
    const replay = await cli(["replay", "--db", db, "--verify", "--quiet"], {
      OLLAMA_HOST: "http://127.0.0.1:9",
    });
    expect(replay.stderr).not.toContain("hearsay:");
    expect(replay.code).toBe(0);
  }, 240_000);

  it("falls back to hashing when the embed server fails mid-run, records it, and replays it without a server", async () => {
    const server = await OllamaFixtureServer.start({});
    // The start-up probe, then two batches of the first lore and memories; then HTTP 500s.
    server.failEmbedsAfter(3);
    const db = join(mkdtempSync(join(tmpdir(), "hearsay-ollama-")), "run.db");
    const env = { OLLAMA_HOST: server.url, HEARSAY_OLLAMA_URL: "" };
    const run = await cli(["run", "--days", "1", "--db", db, "--brain", "ollama", "--quiet"], env);
    const embeds = server.embeds().length;
    await server.close();
    expect(run.code).toBe(0);
    expect(embeds).toBeGreaterThan(3);
    const log = new SqliteEventLog(openDatabase(db));
    const warnings = log
      .read(ids.save("main"))
      .filter((e) => e.type === "SimulationWarning" && e.payload.code === "embedder_fallback");
    const head = log.head(ids.save("main"));
    log.db.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.type === "SimulationWarning" && warnings[0]!.payload.message).toMatch(
      /embedder ollama:nomic-embed-text failed at seq \d+ after \d+ texts .*embeds with hashing-v1-768/,
    );
    const replay = await cli(["replay", "--db", db, "--verify", "--quiet"], {
      OLLAMA_HOST: "http://127.0.0.1:9",
    });
    expect(replay.stderr).not.toContain("hearsay:");
    expect(replay.code).toBe(0);

    // Resuming with vectors of another dimension (or another embedder) is refused, unchanged.
    const other = await OllamaFixtureServer.start({});
    const resumed = await cli(["run", "--days", "2", "--db", db, "--brain", "ollama", "--resume"], {
      ...env,
      OLLAMA_HOST: other.url,
      HEARSAY_EMBEDDING_MODEL: "qwen2.5:1.5b",
    });
    const hashing = await cli(["run", "--days", "2", "--db", db, "--resume"], {
      HEARSAY_EMBEDDER: "hashing",
    });
    await other.close();
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr.trim().split("\n")).toHaveLength(1);
    expect(resumed.stderr).toMatch(
      /embeds with ollama:nomic-embed-text@768 but this run would embed with ollama:qwen2.5:1.5b@1536/,
    );
    expect(hashing.code).not.toBe(0);
    expect(hashing.stderr.trim().split("\n")).toHaveLength(1);
    expect(hashing.stderr).toMatch(/would embed with hashing/);
    const after = new SqliteEventLog(openDatabase(db));
    expect(after.head(ids.save("main"))).toBe(head);
    after.db.close();

    // Resumed with the server back, the run stays on hashing as the log says it ended,
    // asks the server nothing but the start-up probe, and still replays without one.
    const back = await OllamaFixtureServer.start({});
    const onward = await cli(
      ["run", "--days", "2", "--db", db, "--brain", "ollama", "--resume", "--quiet"],
      { ...env, OLLAMA_HOST: back.url },
    );
    const backEmbeds = back.embeds().length;
    await back.close();
    expect(onward.code).toBe(0);
    expect(backEmbeds).toBe(1);
    const resumedLog = new SqliteEventLog(openDatabase(db));
    const all = resumedLog.read(ids.save("main"));
    resumedLog.db.close();
    expect(all.length).toBeGreaterThan(head);
    expect(
      all.filter((e) => e.type === "SimulationWarning" && e.payload.code === "embedder_fallback"),
    ).toHaveLength(1);
    const again = await cli(["replay", "--db", db, "--verify", "--quiet"], {
      OLLAMA_HOST: "http://127.0.0.1:9",
    });
    expect(again.stderr).not.toContain("hearsay:");
    expect(again.code).toBe(0);
  }, 400_000);

  it("embeds by config: ollama with a scripted brain when asked, hashing with the ollama brain when asked", async () => {
    const server = await OllamaFixtureServer.start({});
    // Not installed: the run pulls it before it starts.
    server.setInstalled("nomic-embed-text", false);
    const dir = mkdtempSync(join(tmpdir(), "hearsay-ollama-"));
    const env = { OLLAMA_HOST: server.url, HEARSAY_OLLAMA_URL: "" };
    const scripted = await cli(["run", "--days", "1", "--db", join(dir, "a.db"), "--quiet"], {
      ...env,
      HEARSAY_EMBEDDER: "ollama",
    });
    const scriptedEmbeds = server.embeds().length;
    const hashing = await cli(
      ["run", "--days", "1", "--db", join(dir, "b.db"), "--brain", "ollama", "--quiet"],
      { ...env, HEARSAY_EMBEDDER: "hashing" },
    );
    const hashingEmbeds = server.embeds().length - scriptedEmbeds;
    await server.close();
    expect(scripted.code).toBe(0);
    expect(hashing.code).toBe(0);
    expect(scriptedEmbeds).toBeGreaterThan(1);
    expect(
      server.requests
        .filter((r) => r.path === "/api/pull")
        .map((r) => r.body?.model ?? r.body?.name),
    ).toEqual(["nomic-embed-text"]);
    expect(hashingEmbeds).toBe(0);
    const embedderOf = (file: string) => {
      const log = new SqliteEventLog(openDatabase(join(dir, file)));
      const first = log.read(ids.save("main"), { toSeq: 1 })[0]!;
      log.db.close();
      return first.type === "SimulationStarted" ? (first.payload.embedder ?? "hashing") : null;
    };
    expect(embedderOf("a.db")).toBe("ollama:nomic-embed-text@768");
    expect(embedderOf("b.db")).toBe("hashing");
    const replay = await cli(["replay", "--db", join(dir, "a.db"), "--verify", "--quiet"], {
      OLLAMA_HOST: "http://127.0.0.1:9",
    });
    expect(replay.code).toBe(0);
  }, 300_000);
});
