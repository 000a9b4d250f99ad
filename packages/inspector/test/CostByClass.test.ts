/**
 * The cost view by priority class, on Haskerry run for a day with a live model (the
 * fixture server) under a tight day's budget: at any cursor, per day, class and purpose,
 * the calls the model answered and those that fell back, and why, add up to exactly what
 * the log recorded.
 */
import { ids } from "@hearsay/core";
import { type Cost, type Inspector, startInspector } from "@hearsay/inspector";
import { defaultMindConfig, defaultPolicy, OllamaBrain } from "@hearsay/mind";
import { fallbackKindOf } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, recordHaskerry } from "./harness.ts";

let server: OllamaFixtureServer;
let inspector: Inspector;
let calls: Array<{
  seq: number;
  day: number;
  priority: string | null;
  purpose: string;
  brain: string;
  error: string | null;
}>;

beforeAll(async () => {
  server = await OllamaFixtureServer.start({});
  const brain = OllamaBrain.make({
    config: {
      ...defaultMindConfig,
      ollamaUrl: server.url,
      fallback: ["scripted"],
      budgets: { maxCalls: null, maxCallsPerDay: 20, maxTokens: null },
      policy: {
        ...defaultPolicy,
        principalNpcs: [ids.npc("npc-mara")],
        purposes: { profile: "scripted" },
      },
    },
  });
  // First profiles asked as calls of their own (a run recorded before they were carried in
  // the act answer), so a purpose the policy sends to the scripted brain is asked.
  const path = await recordHaskerry(1, brain, undefined, { carried: [] });
  await server.close();
  const db = new Database(path, { readonly: true });
  calls = (
    db
      .prepare(
        "SELECT seq, day, payload FROM events WHERE save_id = 'main' AND type = 'LlmCallRecorded' ORDER BY seq",
      )
      .all() as Array<{ seq: number; day: number; payload: string }>
  ).map((e) => {
    const p = JSON.parse(e.payload);
    return {
      seq: e.seq,
      day: e.day,
      priority: p.policy?.priority ?? null,
      purpose: p.purpose,
      brain: p.brain,
      error: p.error,
    };
  });
  db.close();
  inspector = await startInspector({ dbPath: path, port: 0, pageDir: null });
}, 300_000);

afterAll(async () => {
  await inspector?.close();
});

const cost = async (seq: number): Promise<Cost> => {
  const { status, body } = await getJson<Cost>(inspector.url, `/api/cost?at=${seq}`);
  expect(status).toBe(200);
  return body;
};

describe("the cost view by priority class", () => {
  it("counts, per day, class and purpose, the calls the model answered and those that fell back and why", async () => {
    const last = calls.at(-1)!.seq;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: last }), async (seq) => {
        const c = await cost(seq);
        const want = new Map<string, Cost["byClass"][number]>();
        for (const call of calls.filter((x) => x.seq <= seq)) {
          const key = `${call.day}/${call.priority}/${call.purpose}`;
          const kind = fallbackKindOf(call.error);
          const row = want.get(key) ?? {
            day: call.day,
            priority: call.priority,
            purpose: call.purpose,
            calls: 0,
            model: 0,
            fellBack: 0,
            held: 0,
            budget: 0,
            failed: 0,
          };
          want.set(key, {
            ...row,
            calls: row.calls + 1,
            model: row.model + (call.error === null && call.brain !== "scripted" ? 1 : 0),
            fellBack: row.fellBack + (kind === null ? 0 : 1),
            held: row.held + (kind === "held" ? 1 : 0),
            budget: row.budget + (kind === "budget" ? 1 : 0),
            failed: row.failed + (kind === "model" ? 1 : 0),
          });
        }
        const got = new Map(c.byClass.map((r) => [`${r.day}/${r.priority}/${r.purpose}`, r]));
        expect(got).toEqual(want);
        expect(c.byClass.reduce((n, r) => n + r.calls, 0)).toBe(c.totals.calls);
      }),
      { numRuns: 8 },
    );
  });

  it("shows the budget held for higher classes, the budget spent, and classes scripted by policy", async () => {
    const c = await cost(calls.at(-1)!.seq);
    const sum = (f: (r: Cost["byClass"][number]) => number) =>
      c.byClass.reduce((n, r) => n + f(r), 0);
    expect(sum((r) => r.model)).toBeGreaterThan(0);
    expect(sum((r) => r.held)).toBeGreaterThan(0);
    expect(sum((r) => r.budget)).toBeGreaterThan(0);
    const scripted = c.byClass.filter((r) => r.priority === "scripted");
    expect(scripted.map((r) => r.purpose)).toContain("profile");
    for (const r of scripted) expect(r).toMatchObject({ model: 0, fellBack: 0 });
  });
});
