/**
 * LLM-call overhead bench: what the engine adds to each model call — the dossier, the
 * prompt, decoding and checking the answer, hashing the call for its record — measured
 * per call (and the dossier in CPU time too: the machine is shared) in a real run
 * of the default world with `--brain ollama` against the Ollama-speaking fixture server
 * on loopback. Baseline, measured in the same run: the HTTP round trip to the server
 * (its own latency). Target: the engine adds ≤ 5 ms per call at p99.
 *
 *   pnpm bench llmcall            # 1 game day
 *   pnpm bench llmcall -- 2       # game days
 */
import { loadavg } from "node:os";
import { ids } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation } from "@hearsay/engine";
import { type BrainShape, defaultMindConfig, inputHash, OllamaBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { OllamaFixtureServer } from "@hearsay/testkit";
import { Effect } from "effect";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

const pct = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const q = (xs: ReadonlyArray<number>): [number, number] => [pct(xs, 50), pct(xs, 99)];
const stats = (xs: ReadonlyArray<number>) => ({ p50: pct(xs, 50), p99: pct(xs, 99) });

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
  // Per call, what the engine adds around the model: building the dossier (on first read
  // of a lazy request, as the prompt would), hashing the call's input (what recording it
  // costs), and the brain's own prompt/decode/check work beyond the HTTP round trip.
  interface Call {
    readonly dossierMs: number;
    readonly dossierCpuMs: number;
    readonly hashMs: number;
    readonly mindMs: number;
    readonly httpMs: number;
    readonly built: boolean;
  }
  const calls: Array<Call> = [];
  const brain: BrainShape = {
    name: ollama.name,
    decide: (request) =>
      Effect.suspend(() => {
        const d0 = performance.now();
        const c0 = process.cpuUsage();
        const built = request.dossier !== null;
        const c = process.cpuUsage(c0);
        const dossierMs = performance.now() - d0;
        const h0 = performance.now();
        inputHash(request);
        const hashMs = performance.now() - h0;
        const before = http.length;
        const started = performance.now();
        return ollama.decide(request).pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              const spent = http.slice(before).reduce((a, b) => a + b, 0);
              calls.push({
                dossierMs,
                dossierCpuMs: (c.user + c.system) / 1000,
                hashMs,
                mindMs: Math.max(0, performance.now() - started - spent),
                httpMs: spent,
                built,
              });
            }),
          ),
        );
      }),
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
    dossiers: retrievalDossiers,
    resume: false,
    config: { brainConcurrency: 1 },
  });
  const seconds = (performance.now() - started) / 1000;
  await server.close();

  const added = calls.map((c) => c.dossierMs + c.hashMs + c.mindMs);
  const withDossier = calls.filter((c) => c.built);
  const rows = [
    ["engine adds (dossier + input hash + prompt/decode/check)", pct(added, 50), pct(added, 99)],
    ["  dossier, wall (calls with one)", ...q(withDossier.map((c) => c.dossierMs))],
    ["  dossier, CPU (calls with one)", ...q(withDossier.map((c) => c.dossierCpuMs))],
    ["  input hash (recording)", ...q(calls.map((c) => c.hashMs))],
    ["  prompt, decode, check", ...q(calls.map((c) => c.mindMs))],
    ["baseline: fixture server round trip", ...q(calls.map((c) => c.httpMs))],
  ];
  printTable(
    `llm call overhead: ${summary.brainCalls} calls over ${days} game day(s), ${seconds.toFixed(1)} s, ${withDossier.length} dossiers`,
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
      dossiers: withDossier.length,
      seconds,
      loadAverage: loadavg()[0] ?? 0,
      addedMs: { p50: pct(added, 50), p99 },
      dossierMs: stats(withDossier.map((c) => c.dossierMs)),
      dossierCpuMs: stats(withDossier.map((c) => c.dossierCpuMs)),
      inputHashMs: stats(calls.map((c) => c.hashMs)),
      promptDecodeCheckMs: stats(calls.map((c) => c.mindMs)),
      fixtureRoundTripMs: stats(calls.map((c) => c.httpMs)),
    })}`,
  );
};
