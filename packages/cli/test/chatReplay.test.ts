/**
 * A conversation is part of the recording: `hearsay run`, then `hearsay chat` driven
 * through its standard input (turns, /memories, /skip), then `hearsay replay --verify`
 * re-drives every player input and exits 0 — and 1, at the right seq, once a reply in
 * the log is changed. With `--brain ollama` against the testkit's Ollama-speaking
 * server, the reply streams, facts are extracted and a summary written by the model, and
 * the replay needs no server at all.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids, PLAYER_ID, type StoredEvent } from "@hearsay/core";
import { workspaceRoot } from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { describe, expect, it } from "vitest";
import { tinyPath } from "./talkFixture.ts";

const root = workspaceRoot();
const MAIN = ids.save("main");

/** The CLI as a child process, with `input` as its standard input. */
const cli = (args: ReadonlyArray<string>, input = "", env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join("packages", "cli", "src", "main.ts"), ...args],
      { cwd: root, env: { ...process.env, NO_COLOR: "1", ...env } },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });

/** A database with a one-day run of the tiny world, as `hearsay run` writes it. */
const ranWorld = async (): Promise<string> => {
  const db = join(mkdtempSync(join(tmpdir(), "hearsay-chat-replay-")), "world.db");
  const r = await cli([
    "run",
    tinyPath,
    "--days",
    "1",
    "--db",
    db,
    "--checkpoint-every",
    "4",
    "--quiet",
  ]);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return db;
};

const events = (db: string): ReadonlyArray<StoredEvent> => {
  const log = new SqliteEventLog(openDatabase(db));
  try {
    return log.read(MAIN);
  } finally {
    log.db.close();
  }
};

const verify = (db: string, env: Record<string, string> = {}) =>
  cli(["replay", "--db", db, "--verify", "--simulation", tinyPath, "--quiet"], "", env);

describe.concurrent("hearsay replay --verify after hearsay chat", () => {
  it("verifies turns, /memories and a /skip past the run's end; a changed reply is caught at its seq", async () => {
    const db = await ranWorld();
    const chat = await cli(
      ["chat", "--db", db, "--npc", "ada", "--simulation", tinyPath],
      [
        "Hello there!",
        "My name is Wren.",
        "I promise I'll defend the ford.",
        "/memories",
        "/skip 1d",
        "Do you remember what I promised?",
      ].join("\n"),
    );
    expect(chat.err).toBe("");
    expect(chat.code).toBe(0);
    expect(chat.out).toMatch(/Ada Reed: I remember\. .*promised to defend the ford/);
    const log = events(db);
    const inputs = log.filter((e) => e.type === "PlayerInput");
    expect(inputs.map((e) => e.type === "PlayerInput" && e.payload.input.kind)).toEqual([
      "turn",
      "turn",
      "turn",
      "end_conversation",
      "skip",
      "turn",
      "end_conversation",
    ]);
    expect(log.some((e) => e.type === "RunResumed")).toBe(true);

    const ok = await verify(db);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(
      new RegExp(`verified save "main": ${log.length} events .* with scripted, then scripted talk`),
    );

    const reply = log.filter(
      (e) => e.type === "ConversationTurn" && e.payload.listenerIds.includes(PLAYER_ID),
    )[1]!;
    const tampered = new SqliteEventLog(openDatabase(db));
    tampered.db
      .prepare("UPDATE events SET payload = ? WHERE save_id = ? AND seq = ?")
      .run(JSON.stringify({ ...reply.payload, text: "Who are you again?" }), MAIN, reply.seq);
    tampered.db.close();
    const bad = await verify(db);
    expect(bad.code).toBe(1);
    expect(bad.out + bad.err).toMatch(
      new RegExp(`diverged at seq ${reply.seq} .*ConversationTurn`),
    );
  }, 120_000);

  it("chats with an Ollama model (streamed reply, extracted facts, summary) and replays without it", async () => {
    const db = await ranWorld();
    const server = await OllamaFixtureServer.start({});
    const chat = await cli(
      ["chat", "--db", db, "--npc", "ada", "--simulation", tinyPath, "--brain", "ollama"],
      ["Hello there!", "My name is Wren.", "I promise I'll defend the ford.", "/memories"].join(
        "\n",
      ),
      { OLLAMA_HOST: server.url, HEARSAY_OLLAMA_URL: "" },
    );
    const streamed = server.chats().filter((c) => c.body?.stream === true).length;
    await server.close();
    expect(chat.err).toBe("");
    expect(chat.code).toBe(0);
    expect(streamed).toBe(3);
    expect(chat.out).toMatch(/Ada Reed: (You say|Aye|Since you ask)/);
    const log = events(db);
    const calls = log.flatMap((e) => (e.type === "LlmCallRecorded" ? [e.payload] : []));
    expect(calls.map((c) => c.purpose)).toEqual(
      expect.arrayContaining(["reply", "extract_facts", "summarize_talk"]),
    );
    // The model answered each (no fallback to the scripted brain).
    expect(calls.every((c) => c.brain === "ollama" && c.error === null)).toBe(true);
    const memories = log.flatMap((e) =>
      e.type === "MemoryRecorded" && e.payload.about?.kind === "player" ? [e.payload] : [],
    );
    expect(memories.some((m) => /the player (spoke with|told) Ada Reed/.test(m.text))).toBe(true);
    expect(chat.out).toMatch(/- \[(conversation|known_info|relationship), until day/);
    const summaries = log.flatMap((e) => (e.type === "ConversationSummarized" ? [e.payload] : []));
    expect(summaries.some((s) => /Ada Reed and the player have talked/.test(s.summary))).toBe(true);

    const ok = await verify(db, { OLLAMA_HOST: "http://127.0.0.1:9" });
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/ollama \(recorded\) talk/);
  }, 120_000);

  it("replays a run embedded by an Ollama model, then a chat, without the server", async () => {
    const server = await OllamaFixtureServer.start({});
    const db = join(mkdtempSync(join(tmpdir(), "hearsay-chat-replay-")), "world.db");
    const env = { OLLAMA_HOST: server.url, HEARSAY_OLLAMA_URL: "", HEARSAY_EMBEDDER: "ollama" };
    const run = await cli(["run", tinyPath, "--days", "1", "--db", db, "--quiet"], "", env);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    const chat = await cli(
      ["chat", "--db", db, "--npc", "ada", "--simulation", tinyPath],
      ["Hello there!", "I promise I'll defend the ford.", "/skip 1d", "Do you remember?"].join(
        "\n",
      ),
      env,
    );
    const embeds = server.requests.filter((r) => r.path === "/api/embed").length;
    await server.close();
    expect(chat.code).toBe(0);
    expect(embeds).toBeGreaterThan(1);
    const first = events(db)[0]!;
    expect(first.type === "SimulationStarted" && first.payload.embedder).toBe(
      "ollama:nomic-embed-text@768",
    );
    const ok = await verify(db, { OLLAMA_HOST: "http://127.0.0.1:9" });
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
  }, 180_000);
});
