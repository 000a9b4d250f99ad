/**
 * LLM-call overhead bench: how long the engine keeps each model call waiting — the
 * dossier, the prompt, the input hash, decoding and checking the answer — measured per
 * call in a real run of the default world with `--brain ollama` against the
 * Ollama-speaking fixture server on loopback, one model slot (so each HTTP time is its
 * own). Baseline, measured in the same run: the HTTP round trip to the server.
 * Target: the engine adds ≤ 5 ms per call at p99.
 *
 *   pnpm bench:run llmcall --overhead                  # 3 game days, one call at a time
 *   pnpm bench:run llmcall --overhead 1 --concurrent   # the engine's own concurrency (calls overlap)
 *   pnpm bench:run llmcall --overhead 3 --model-ms 40  # the model takes 40 ms more per answer
 *   pnpm bench:run llmcall --overhead 3 --warmup 50    # the table's right half skips 50 calls
 *   pnpm bench:run llmcall --overhead 3 --dump FILE    # every call's timings as JSON
 *
 * What a call adds to its own latency, beyond the model's time and waiting for earlier
 * calls' model time: `before` — from when it could have gone to the model (its start,
 * or the end of the round trip before it, whichever is later) to its request; `between`
 * — from a bad answer to its repair retry; `after` — from its answer to the decoded,
 * checked result; and `blocked` — how long its answer, once the server had finished
 * it, waited while the engine built another call's dossier. One call at a time (the
 * default) the first three are exactly the call's time minus its HTTP time; with
 * `--concurrent` calls are readied while others wait on the model (see ReadyAhead). The server runs on a thread
 * of its own (as a real model server is another process) and notes when it finished
 * each answer, which is how `blocked` is known. Dossier builds are timed on their own
 * too, wall and CPU: readied while other calls wait on the model they leave the
 * critical path, but their CPU is still spent. The headline counts every call, the
 * first included; the table also shows the figures without the first `--warmup` calls.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { ids, type SaveId } from "@hearsay/core";
import {
  type DossierSource,
  defaultEngineConfig,
  loadSimulation,
  retrievalDossiers,
  runSimulation,
} from "@hearsay/engine";
import {
  type BrainShape,
  defaultMindConfig,
  HostPool,
  type ModelHost,
  OllamaBrain,
} from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { startFixtureServerThread } from "./fixtureServerThread.ts";
import { printTable } from "./printTable.ts";
import { writeResults } from "./writeResults.ts";

const pct = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const max = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => Math.max(a, b), 0);
const spread = (xs: ReadonlyArray<number>) => ({
  p50: pct(xs, 50),
  p99: pct(xs, 99),
  max: max(xs),
});
const cpuMs = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000;

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

type Span = readonly [number, number];

/** One call's timings (performance.now() times), the derived ones filled in after the run. */
interface Call {
  readonly index: number;
  readonly npcId: string | null;
  readonly purpose: string;
  readonly span: Span;
  /** The call's HTTP round trips to the model server. */
  readonly fetches: ReadonlyArray<Span>;
  addedMs: number;
  beforeMs: number;
  betweenMs: number;
  afterMs: number;
  blockedMs: number;
  httpMs: number;
  dossier: Build | null;
}

/** One dossier build: for whom, when, and its CPU time. */
interface Build {
  readonly npcId: string;
  readonly span: Span;
  readonly cpuMs: number;
}

const overlap = (a: Span, b: Span): number =>
  Math.max(0, Math.min(a[1], b[1]) - Math.max(a[0], b[0]));

/** How much of `span` the union of `spans` (sorted by start) covers. */
const covered = (span: Span, spans: ReadonlyArray<Span>): number => {
  let total = 0;
  let reach = span[0];
  for (const [a, b] of spans) {
    if (b <= reach) continue;
    if (a >= span[1]) break;
    const to = Math.min(b, span[1]);
    total += to - Math.max(a, reach);
    reach = to;
  }
  return total;
};

export const llmOverhead = async (): Promise<void> => {
  const days = Number(process.argv.slice(3).find((a) => /^\d+$/.test(a)) ?? 3);
  const warmup = Number(flag("--warmup") ?? 25);
  const modelMs = Number(flag("--model-ms") ?? 0);
  const serial = !process.argv.includes("--concurrent");
  const dump = flag("--dump");
  const concurrency = serial ? 1 : defaultEngineConfig.brainConcurrency;
  // The server on its own thread, as a real model server is another process.
  const server = await startFixtureServerThread(modelMs);

  // Which call holds the model slot: each call queues in a lane of its own, and the
  // queue notes the lane it grants, so every round trip is charged to its own call.
  const pool = HostPool.make([{ url: server.url, concurrency: 1, models: null }]);
  const run = pool.run.bind(pool);
  let owner = "";
  pool.run = ((
    lane: string,
    model: string,
    job: (host: ModelHost) => Effect.Effect<unknown, unknown>,
    hostFailed: (e: unknown) => boolean,
  ) =>
    run(
      lane,
      model,
      (host) =>
        Effect.suspend(() => {
          owner = lane;
          return job(host);
        }),
      hostFailed,
    )) as typeof pool.run;
  const laneOf = new WeakMap<object, string>();
  const fetches: Array<Span> = [];
  const fetchesOf = new Map<string, Array<Span>>();
  const timedFetch: typeof fetch = async (input, init) => {
    const mine = owner;
    const started = performance.now();
    const response = await fetch(input, init);
    const body = await response.arrayBuffer();
    const span: Span = [started, performance.now()];
    fetches.push(span);
    fetchesOf.set(mine, [...(fetchesOf.get(mine) ?? []), span]);
    return new Response(body, { status: response.status, headers: response.headers });
  };
  // One model slot: one HTTP call at a time, so each round trip is its own.
  const ollama = OllamaBrain.make({
    config: { ...defaultMindConfig, ollamaUrl: server.url, concurrency: 1 },
    fetch: timedFetch,
    pool,
    lane: (r) => laneOf.get(r) ?? r.npcId ?? r.purpose,
  });
  const calls: Array<Call> = [];
  let laneCount = 0;
  const brain: BrainShape = {
    name: ollama.name,
    decide: (request) =>
      Effect.suspend(() => {
        const start = performance.now();
        laneCount += 1;
        const lane = `call-${laneCount}`;
        laneOf.set(request, lane);
        return ollama.decide(request).pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              calls.push({
                index: calls.length,
                npcId: request.npcId,
                purpose: request.purpose,
                span: [start, performance.now()],
                fetches: fetchesOf.get(lane) ?? [],
                addedMs: 0,
                beforeMs: 0,
                betweenMs: 0,
                afterMs: 0,
                blockedMs: 0,
                httpMs: 0,
                dossier: null,
              });
            }),
          ),
        );
      }),
  };

  // Every dossier build, timed where it happens (whoever reads the lazy dossier first).
  const builds: Array<Build> = [];
  let openMs = 0;
  let openCpuMs = 0;
  let refreshes = 0;
  let firstRefreshMs = 0;
  let firstRefreshCpuMs = 0;
  const dossiers = (l: SqliteEventLog, saveId: SaveId): DossierSource => {
    const o0 = performance.now();
    const oc0 = process.cpuUsage();
    const source = retrievalDossiers(l, saveId);
    openCpuMs = cpuMs(process.cpuUsage(oc0));
    openMs = performance.now() - o0;
    // A live model reads every section, so turns take whole dossiers here (no `deferred`):
    // each build is then timed in one piece.
    const { deferred: _, ...whole } = source;
    return {
      ...whole,
      refresh: () => {
        const r0 = performance.now();
        const rc0 = process.cpuUsage();
        source.refresh?.();
        if (refreshes++ === 0) {
          firstRefreshCpuMs = cpuMs(process.cpuUsage(rc0));
          firstRefreshMs = performance.now() - r0;
        }
      },
      dossier: (req) => {
        const b0 = performance.now();
        const c0 = process.cpuUsage();
        const d = source.dossier(req);
        builds.push({
          npcId: req.npcId,
          cpuMs: cpuMs(process.cpuUsage(c0)),
          span: [b0, performance.now()],
        });
        return d;
      },
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
    dossiers,
    resume: false,
    config: { brainConcurrency: concurrency },
  });
  const seconds = (performance.now() - started) / 1000;
  const finished = await server.close();

  // When the server finished each answer, on this thread's clock (one slot: in order).
  fetches.sort((a, b) => a[0] - b[0]);
  const finishedAt = new Map<Span, number>();
  if (finished.length === fetches.length)
    for (const [i, f] of fetches.entries())
      finishedAt.set(f, Math.min(f[1], Math.max(f[0], finished[i]! - performance.timeOrigin)));
  const buildSpans = builds.map((b) => b.span).sort((a, b) => a[0] - b[0]);
  let previous = 0;
  for (const c of calls) {
    const own = c.fetches;
    const first = own[0];
    const last = own.at(-1);
    c.httpMs = own.reduce((a, f) => a + f[1] - f[0], 0);
    if (first === undefined || last === undefined) {
      c.beforeMs = c.span[1] - c.span[0];
    } else {
      while (previous + 1 < fetches.length && fetches[previous + 1]![1] <= first[0]) previous++;
      const before = fetches[previous]![1] <= first[0] ? fetches[previous]![1] : -Infinity;
      c.beforeMs = Math.max(0, first[0] - Math.max(c.span[0], before));
      c.betweenMs = own.slice(1).reduce((a, f, i) => a + f[0] - own[i]![1], 0);
      c.afterMs = Math.max(0, c.span[1] - last[1]);
      c.blockedMs = own.reduce(
        (a, f) => a + covered([finishedAt.get(f) ?? f[1], f[1]], buildSpans),
        0,
      );
    }
    c.addedMs = c.beforeMs + c.betweenMs + c.afterMs + c.blockedMs;
    // The call's own dossier: built for its NPC during the call.
    c.dossier = builds.find((b) => b.npcId === c.npcId && overlap(b.span, c.span) > 0) ?? null;
  }

  const warm = calls.slice(warmup);
  const row = (what: string, f: (cs: ReadonlyArray<Call>) => ReadonlyArray<number>) => {
    const all = spread(f(calls));
    const w = spread(f(warm));
    return [what, all.p50, all.p99, all.max, w.p50, w.p99, w.max];
  };
  const rows = [
    row("engine adds per call (before + between + after + blocked)", (cs) =>
      cs.map((c) => c.addedMs),
    ),
    row("  before: ready to send, server idle", (cs) => cs.map((c) => c.beforeMs)),
    row("  after: answer read, decoded, checked", (cs) => cs.map((c) => c.afterMs)),
    row("  between an answer and its repair", (cs) => cs.map((c) => c.betweenMs)),
    row("  blocked: answer waited on another dossier", (cs) => cs.map((c) => c.blockedMs)),
    row("dossier build, wall (every build)", () => builds.map((b) => b.span[1] - b.span[0])),
    row("dossier build, CPU (every build)", () => builds.map((b) => b.cpuMs)),
    row("baseline: model server round trip", (cs) => cs.map((c) => c.httpMs - c.blockedMs)),
  ];
  const mode = serial ? "serial" : `engine concurrency ${concurrency}, 1 model slot`;
  printTable(
    `llm call overhead (${mode}${modelMs > 0 ? `, model +${modelMs} ms` : ""}): ${summary.brainCalls} calls over ${days} game day(s), ` +
      `${seconds.toFixed(1)} s, ${builds.length} dossiers; ` +
      `load ${loadavg()[0]?.toFixed(2)}; right: without the first ${warmup} calls`,
    ["what", "p50 ms", "p99 ms", "max ms", `p50 >${warmup}`, `p99 >${warmup}`, `max >${warmup}`],
    rows,
    3,
  );
  printTable(
    "start-up (once per run, not per call)",
    ["what", "wall ms", "CPU ms"],
    [
      ["open retrieval", openMs, openCpuMs],
      ["first catch-up (the world's founding events; warm-up)", firstRefreshMs, firstRefreshCpuMs],
    ],
    1,
  );
  const slowest = [...calls].sort((a, b) => b.addedMs - a.addedMs).slice(0, 8);
  printTable(
    "slowest calls",
    ["#", "npc", "purpose", "added", "before", "after", "blocked", "http", "dossier", "d CPU"],
    slowest.map((c) => [
      c.index,
      c.npcId ?? "-",
      c.purpose,
      c.addedMs,
      c.beforeMs,
      c.afterMs,
      c.blockedMs,
      c.httpMs,
      c.dossier === null ? "-" : c.dossier.span[1] - c.dossier.span[0],
      c.dossier === null ? "-" : c.dossier.cpuMs,
    ]),
    2,
  );
  if (dump !== undefined) writeFileSync(dump, JSON.stringify({ calls, builds, fetches }, null, 1));
  const p99 = pct(
    calls.map((c) => c.addedMs),
    99,
  );
  console.log(
    `results: ${writeResults("llmcall-overhead", {
      target: "engine adds ≤ 5 ms per call at p99",
      targetMet: p99 <= 5,
      mode,
      modelMs,
      days,
      calls: summary.brainCalls,
      recorded: summary.eventsByType.LlmCallRecorded ?? 0,
      dossiers: builds.length,
      seconds,
      loadAverage: loadavg()[0] ?? 0,
      startupMs: { wall: openMs, cpu: openCpuMs },
      firstCatchUpMs: { wall: firstRefreshMs, cpu: firstRefreshCpuMs },
      warmupCalls: warmup,
      addedMs: spread(calls.map((c) => c.addedMs)),
      addedAfterWarmupMs: spread(warm.map((c) => c.addedMs)),
      beforeMs: spread(calls.map((c) => c.beforeMs)),
      afterMs: spread(calls.map((c) => c.afterMs)),
      blockedMs: spread(calls.map((c) => c.blockedMs)),
      dossierMs: spread(builds.map((b) => b.span[1] - b.span[0])),
      dossierCpuMs: spread(builds.map((b) => b.cpuMs)),
      fixtureRoundTripMs: spread(calls.map((c) => c.httpMs - c.blockedMs)),
    })}`,
  );
};
