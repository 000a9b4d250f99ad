/**
 * Every rejected model answer leaves a trace: against a loopback Ollama-speaking server
 * that answers invalid JSON (or names unknown ids), each call the model could not answer
 * is recorded with its error and with the tokens of every refused request; `stats`
 * counts the fallbacks, the failures and the rejected answers, and its token totals are
 * the tokens the server was sent. The log still verifies from its recordings alone.
 */
import { join } from "node:path";
import { ids, type PayloadOf } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation, verifyLog } from "@hearsay/engine";
import { defaultMindConfig, OllamaBrain } from "@hearsay/mind";
import { llmCallStats, openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { afterEach, describe, expect, it } from "vitest";

const sim = loadSimulation(
  join(import.meta.dirname, "..", "..", "engine", "test", "fixtures", "tiny"),
);
const MAIN = ids.save("main");
const servers: Array<OllamaFixtureServer> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const runAgainst = async (behaviour: "malformed" | "unknown_ids" | "schema_invalid") => {
  const server = await OllamaFixtureServer.start({});
  servers.push(server);
  server.behave(behaviour);
  const brain = OllamaBrain.make({
    config: { ...defaultMindConfig, ollamaUrl: server.url, fallback: ["scripted"] },
  });
  const log = new SqliteEventLog(openDatabase(":memory:"));
  const summary = await runSimulation({
    ...sim,
    log,
    saveId: MAIN,
    days: 1,
    seed: 3,
    brain,
    recordBrain: true,
    dossiers: retrievalDossiers,
    resume: false,
    maxTicks: 10,
  });
  const calls = log
    .read(MAIN)
    .filter((e) => e.type === "LlmCallRecorded")
    .map((e) => e.payload as PayloadOf<"LlmCallRecorded">);
  return { log, calls, summary, usage: brain.usage(), chats: server.chats().length };
};

describe("rejected model answers", () => {
  it.each(["malformed", "unknown_ids"] as const)(
    "a server answering %s: every fallback carries its error and the refused requests' tokens",
    async (behaviour) => {
      const { log, calls, summary, usage, chats } = await runAgainst(behaviour);
      expect(calls.length).toBeGreaterThan(5);
      const fellBack = calls.filter((c) => c.brain === "scripted");
      // Calls whose input offers no ids to get wrong may still be answered by the model.
      expect(fellBack.length).toBeGreaterThan(0);
      for (const c of fellBack) {
        expect(c.error, `${c.purpose} error`).not.toBeNull();
        expect(c.error).toMatch(/llama3\.2:3b/);
        expect(c.rejected.answers).toBe(2);
        expect(c.rejected.promptTokens).toBeGreaterThan(0);
        expect(c.rejected.outputTokens).toBeGreaterThan(0);
      }
      // Every request the server was sent is counted somewhere in the log.
      const sum = (f: (c: (typeof calls)[number]) => number) => calls.reduce((a, c) => a + f(c), 0);
      expect(sum((c) => c.promptTokens + c.rejected.promptTokens)).toBe(usage.promptTokens);
      expect(sum((c) => c.outputTokens + c.rejected.outputTokens)).toBe(usage.outputTokens);
      expect(
        sum((c) => c.rejected.answers) + calls.filter((c) => c.brain === "ollama").length,
      ).toBe(chats);

      // The run's own end summary says so too.
      expect(summary.brainFellBack).toBe(fellBack.length);
      expect(summary.brainRejected).toBe(sum((c) => c.rejected.answers));

      const stats = llmCallStats(log.db, MAIN);
      expect(stats.total.calls).toBe(calls.length);
      expect(stats.total.fellBack).toBe(fellBack.length);
      expect(stats.total.failed).toBe(0);
      expect(stats.total.rejected).toBe(sum((c) => c.rejected.answers));
      expect(stats.total.promptTokens).toBe(usage.promptTokens);
      expect(stats.total.outputTokens).toBe(usage.outputTokens);
      expect(stats.total.rejectedPromptTokens).toBe(sum((c) => c.rejected.promptTokens));

      const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
      expect(report.divergence).toBeNull();
      expect(report.ok).toBe(true);
    },
    120_000,
  );
});
