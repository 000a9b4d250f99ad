/**
 * A run under a brain policy and a tight day's budget: each recorded call carries its
 * priority class and reason, `stats` counts calls and fallbacks per class from them, and
 * the log still verifies from its recordings alone.
 */
import { join } from "node:path";
import { ids, type PayloadOf } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation, verifyLog } from "@hearsay/engine";
import { defaultMindConfig, defaultPolicy, OllamaBrain } from "@hearsay/mind";
import { llmCallStats, openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { afterEach, describe, expect, it } from "vitest";

const sim = loadSimulation(
  join(import.meta.dirname, "..", "..", "engine", "test", "fixtures", "tiny"),
);
const MAIN = ids.save("main");
/** A day's model budget the first twelve hours of the tiny world outrun, so some calls fall back. */
const DAY_BUDGET = 4;
let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("a run under a brain policy", () => {
  it("records each call's class and reason, and stats counts calls and fallbacks per class", async () => {
    server = await OllamaFixtureServer.start({});
    const principal = sim.world.npcs[0]!.id;
    const brain = OllamaBrain.make({
      config: {
        ...defaultMindConfig,
        ollamaUrl: server.url,
        fallback: ["scripted"],
        budgets: { maxCalls: null, maxCallsPerDay: DAY_BUDGET, maxTokens: null },
        policy: { ...defaultPolicy, principalNpcs: [principal], purposes: { profile: "scripted" } },
      },
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
      maxTicks: 12,
      // First profiles asked as calls of their own (as a run recorded before they were
      // carried in the act answer), so a purpose the policy scripts is asked.
      carried: [],
    });
    const calls = log
      .read(MAIN)
      .filter((e) => e.type === "LlmCallRecorded")
      .map((e) => e.payload as PayloadOf<"LlmCallRecorded">);
    expect(calls.every((c) => c.policy !== null)).toBe(true);
    // Profiles are scripted by policy: never a model call, never a fallback.
    const profiles = calls.filter((c) => c.purpose === "profile");
    expect(profiles.length).toBeGreaterThan(0);
    for (const c of profiles) expect(c).toMatchObject({ brain: "scripted", error: null });
    expect(calls.filter((c) => c.brain === "ollama").length).toBe(DAY_BUDGET);
    expect(calls.some((c) => c.policy?.reason.includes("principal NPC"))).toBe(true);

    const stats = llmCallStats(log.db, MAIN);
    const classes = new Set(calls.map((c) => c.policy!.priority));
    expect(new Set(stats.byPriority.map((p) => p.priority))).toEqual(classes);
    for (const p of stats.byPriority) {
      const mine = calls.filter((c) => c.policy!.priority === p.priority);
      expect(p.calls).toBe(mine.length);
      expect(p.fellBack).toBe(mine.filter((c) => c.error !== null).length);
    }
    expect(stats.byPriority.find((p) => p.priority === "scripted")?.fellBack).toBe(0);
    // Why each class fell back: every call with a reason counted once, by its kind.
    for (const f of stats.fallbacksByPriority) {
      const mine = calls.filter((c) => c.policy!.priority === f.priority && c.error !== null);
      expect(f.held + f.budget + f.model).toBe(mine.length);
      expect(f.budget + f.held).toBe(mine.filter((c) => c.error!.includes("budget ")).length);
    }
    expect(stats.fallbacksByPriority.reduce((n, f) => n + f.budget + f.held, 0)).toBeGreaterThan(0);
    expect(summary.brainFellBack).toBe(calls.filter((c) => c.error !== null).length);

    await server.close();
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
  }, 120_000);
});
