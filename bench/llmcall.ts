/**
 * LLM-call overhead bench: what the engine adds to each model call — the dossier, the
 * prompt, decoding and checking the answer, recording the call — measured in a real run
 * of the default world with `--brain ollama` against the Ollama-speaking fixture server
 * on loopback. Baseline, measured in the same run: the HTTP round trip to the server
 * (its own latency). Target: the engine adds ≤ 5 ms per call at p99.
 *
 *   pnpm bench llmcall            # 1 game day
 *   pnpm bench llmcall -- 2       # game days
 */
import { ids } from "@hearsay/core";
import {
  type DossierSource,
  loadSimulation,
  retrievalDossiers,
  runSimulation,
} from "@hearsay/engine";
import { type BrainShape, defaultMindConfig, OllamaBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { Effect } from "effect";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

const pct = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export default async (): Promise<void> => {
  const days = Number(process.argv.slice(3).find((a) => /^\d+$/.test(a)) ?? 1);
  const server = await OllamaFixtureServer.start({});
  const http: Array<number> = [];
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    const response = await fetch(input, init);
    const body = await response.arrayBuffer();
    http.push(performance.now() - started);
    return new Response(body, { status: response.status, headers: response.headers });
  };
  // One call at a time, so each call's HTTP time is its own.
  const ollama = OllamaBrain.make({
    config: { ...defaultMindConfig, ollamaUrl: server.url, concurrency: 1 },
    fetch: timedFetch,
  });
  const calls: Array<{ total: number; http: number }> = [];
  const brain: BrainShape = {
    name: ollama.name,
    decide: (request) =>
      Effect.suspend(() => {
        const before = http.length;
        const started = performance.now();
        return ollama.decide(request).pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              const spent = http.slice(before).reduce((a, b) => a + b, 0);
              calls.push({ total: performance.now() - started, http: spent });
            }),
          ),
        );
      }),
  };
  const dossierMs: Array<number> = [];
  const timedDossiers = (
    log: SqliteEventLog,
    saveId: ReturnType<typeof ids.save>,
  ): DossierSource => {
    const inner = retrievalDossiers(log, saveId);
    return {
      dossier: (r) => {
        const started = performance.now();
        const d = inner.dossier(r);
        dossierMs.push(performance.now() - started);
        return d;
      },
      flush: () => inner.flush?.(),
    };
  };
  const sim = loadSimulation();
  const log = new SqliteEventLog(openDatabase(":memory:"));
  const started = performance.now();
  const summary = await runSimulation({
    world: sim.world,
    worldHash: sim.worldHash,
    lore: sim.lore,
    log,
    saveId: ids.save("bench"),
    days,
    seed: 1,
    brain,
    recordBrain: true,
    dossiers: timedDossiers,
    resume: false,
    config: { brainConcurrency: 1 },
  });
  const seconds = (performance.now() - started) / 1000;
  await server.close();

  // Per call: the brain's own work beyond HTTP, plus the dossier share of each call.
  const dossierPerCall = dossierMs.reduce((a, b) => a + b, 0) / Math.max(1, calls.length);
  const mindOverhead = calls.map((c) => Math.max(0, c.total - c.http));
  const added = mindOverhead.map((m) => m + dossierPerCall);
  const httpPerCall = calls.map((c) => c.http);
  const rows = [
    ["engine adds (dossier share + prompt/decode/check)", pct(added, 50), pct(added, 99)],
    ["  prompt, decode, check (per call)", pct(mindOverhead, 50), pct(mindOverhead, 99)],
    ["  dossier (per dossier built)", pct(dossierMs, 50), pct(dossierMs, 99)],
    ["baseline: fixture server round trip", pct(httpPerCall, 50), pct(httpPerCall, 99)],
  ];
  printTable(
    `llm call overhead: ${summary.brainCalls} calls over ${days} game day(s), ${seconds.toFixed(1)} s, ${dossierMs.length} dossiers`,
    ["what", "p50 ms", "p99 ms"],
    rows,
    3,
  );
  const p99 = pct(added, 99);
  console.log(
    `results: ${writeResults("llmcall", {
      target: "engine adds ≤ 5 ms per call at p99",
      targetMet: p99 <= 5,
      days,
      calls: summary.brainCalls,
      recorded: summary.eventsByType.LlmCallRecorded ?? 0,
      dossiers: dossierMs.length,
      seconds,
      addedMs: { p50: pct(added, 50), p99 },
      promptDecodeCheckMs: { p50: pct(mindOverhead, 50), p99: pct(mindOverhead, 99) },
      dossierMs: { p50: pct(dossierMs, 50), p99: pct(dossierMs, 99) },
      fixtureRoundTripMs: { p50: pct(httpPerCall, 50), p99: pct(httpPerCall, 99) },
    })}`,
  );
};
