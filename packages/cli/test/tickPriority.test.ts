/**
 * A live-model run under a tight day's budget: within every tick — whatever phase asked
 * first — no call that got the model has a lower class than one that fell back; the
 * tick's forecast covered every call it asked; and the log replays from its recordings
 * with no server.
 */
import { join } from "node:path";
import { ids, type PayloadOf } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation, verifyLog } from "@hearsay/engine";
import {
  BudgetExhausted,
  defaultMindConfig,
  defaultPolicy,
  OllamaBrain,
  type PriorityClass,
  rankOf,
} from "@hearsay/mind";
import { fallbackKindOf, llmCallStats, openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { afterEach, describe, expect, it } from "vitest";

const sim = loadSimulation(
  join(import.meta.dirname, "..", "..", "engine", "test", "fixtures", "tiny"),
);
const MAIN = ids.save("main");
let server: OllamaFixtureServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Call = PayloadOf<"LlmCallRecorded">;

/** The recorded calls of each tick (a tick ends with its ClockAdvanced). */
const callsByTick = (log: SqliteEventLog): Array<Array<Call>> => {
  const ticks: Array<Array<Call>> = [[]];
  for (const e of log.read(MAIN)) {
    if (e.type === "LlmCallRecorded") ticks.at(-1)!.push(e.payload as Call);
    if (e.type === "ClockAdvanced") ticks.push([]);
  }
  return ticks.filter((t) => t.length > 0);
};

describe("a tick's model budget in a run", () => {
  it("goes to the tick's highest classes wherever they ask, covered by the tick's forecast", async () => {
    server = await OllamaFixtureServer.start({});
    const brain = OllamaBrain.make({
      config: {
        ...defaultMindConfig,
        ollamaUrl: server.url,
        fallback: ["scripted"],
        budgets: { maxCalls: null, maxCallsPerDay: 10, maxTokens: null },
        policy: { ...defaultPolicy, principalNpcs: [sim.world.npcs[0]!.id] },
      },
    });
    const log = new SqliteEventLog(openDatabase(":memory:"));
    await runSimulation({
      ...sim,
      log,
      saveId: MAIN,
      days: 2,
      seed: 6,
      brain,
      recordBrain: true,
      dossiers: retrievalDossiers,
      resume: false,
      maxTicks: 40,
      focus: [{ who: "camera", locationId: sim.world.locations[1]!.id }],
    });
    const ticks = callsByTick(log);
    const ruledByDay = new Map<number, number>();
    for (const e of log.read(MAIN)) {
      if (e.type !== "LlmCallRecorded" || e.payload.policy?.priority !== "scripted") continue;
      const day = Math.floor(e.t / 1440);
      ruledByDay.set(day, (ruledByDay.get(day) ?? 0) + 1);
    }
    let fellBack = 0;
    let mixed = 0;
    for (const calls of ticks) {
      const got = calls
        .filter((c) => c.brain === "ollama")
        .map((c) => rankOf(c.policy!.priority as PriorityClass));
      const fell = calls
        .filter((c) => c.brain !== "ollama" && c.policy!.priority !== "scripted")
        .map((c) => rankOf(c.policy!.priority as PriorityClass));
      fellBack += fell.length;
      if (got.length > 0 && fell.length > 0) {
        mixed += 1;
        expect(Math.min(...got)).toBeGreaterThanOrEqual(Math.max(...fell));
      }
    }
    // The budget was tight enough to matter, within ticks and not only between them
    // (planned batch by batch, this run gives an early low call what a later higher one needed).
    expect(fellBack).toBeGreaterThan(0);
    expect(mixed).toBeGreaterThan(0);
    expect(brain.unforeseen()).toBe(0);
    const all = ticks.flat();
    expect(all.some((c) => c.policy?.reason.includes("near the camera at"))).toBe(true);
    expect(all.some((c) => c.error?.includes("higher-class calls of this tick"))).toBe(true);

    const stats = llmCallStats(log.db, MAIN);
    // What the forecast held back within a tick was not lost: each day spent its budget
    // (its calls less those that fell back, failed or went to the rules by policy).
    for (const d of stats.byDay)
      expect(d.calls - d.fellBack - d.failed - (ruledByDay.get(d.day) ?? 0)).toBe(10);
    expect(stats.fallbacksByPriority.reduce((n, f) => n + f.held, 0)).toBe(
      all.filter((c) => fallbackKindOf(c.error) === "held").length,
    );
    expect(stats.fallbacksByPriority.some((f) => f.held > 0)).toBe(true);

    await server.close();
    const report = await verifyLog({ log, saveId: MAIN, simulation: sim });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
  }, 120_000);
});

describe("why a call fell back", () => {
  it("reads the brain's own refusals: held for higher classes, a spent budget, a failed model", () => {
    const spent = new BudgetExhausted({ budget: "maxCallsPerDay (day 3)", limit: 8, used: 8 });
    const held = new BudgetExhausted({
      budget: "maxCallsPerDay (day 3)",
      limit: 8,
      used: 6,
      heldForHigher: 4,
    });
    expect(fallbackKindOf(held.message)).toBe("held");
    expect(fallbackKindOf(spent.message)).toBe("budget");
    expect(fallbackKindOf(`qwen3: timed out after 30000 ms; ${spent.message}`)).toBe("budget");
    expect(fallbackKindOf("qwen3: timed out after 30000 ms")).toBe("model");
    expect(fallbackKindOf(null)).toBeNull();
  });
});
