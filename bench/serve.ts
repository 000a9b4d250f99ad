/**
 * Serve bench: turns/s and p99 latency of `hearsay serve`, and how much of a turn is
 * hearsay rather than the brain — with the scripted brain and with the Ollama fixture
 * server from @hearsay/testkit. Two measurements per brain, in the same run, on copies
 * of the same world: the real service (`hearsay serve` as a child process, driven over
 * HTTP on 127.0.0.1: sequential turns, then 50 at once to one save), and the same talk
 * in-process through TalkWorld with every brain call timed, so each turn splits into
 * the brain's own time (the union of its calls' intervals: the reply streams while the
 * digest runs) and what hearsay adds (dossier, events, the append).
 *
 *   pnpm bench:run serve            # 200 turns per brain
 *   HEARSAY_BENCH_TURNS=50 pnpm bench:run serve
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import {
  loadSimulation,
  retrievalDossiers,
  runSimulation,
  TalkWorld,
  workspaceRoot,
} from "@hearsay/engine";
import {
  type BrainShape,
  defaultMindConfig,
  OllamaBrain,
  type ReplyStreamer,
  ScriptedBrain,
  streamOllamaReply,
} from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { defaultFixturesDir, OllamaFixtureServer } from "@hearsay/testkit";
import { Effect } from "effect";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

const TURNS = Number(process.env.HEARSAY_BENCH_TURNS ?? 200);
const CONCURRENT = 50;
const root = workspaceRoot();
const sim = loadSimulation();
const main = ids.save("main");

/** What a player says, in a loop: small talk, a promise, a question, an offer of help. */
const script = [
  "Good morning!",
  "My name is Wren, I'm a tinker from the hills.",
  "I promise I'll defend the ford if the raiders come.",
  "What news is there?",
  "Is there any work for me?",
  "Between us, I saw someone at the granary last night.",
  "Do you remember what I promised?",
  "Farewell for now.",
];

/** Templates the fixture server answers the conversation purposes with. */
const chatTemplates: Record<string, unknown> = {
  reply: {
    good: [
      { text: "Well met, {{player.name}}. I hear you — {{message}}", actions: [] },
      { text: "Aye. You'll find me here at {{locationName}} if you need me.", actions: [] },
    ],
    schema_invalid: [{ text: "", actions: "none" }],
    unknown_ids: [],
    malformed: ['{"text": "unfinished'],
  },
  extract_facts: {
    good: [
      {
        memories: [
          {
            text: "{{player.name}} spoke with me at {{locationName}}.",
            category: "conversation",
            importance: 0.2,
            lifetime: "1d",
          },
        ],
      },
    ],
    schema_invalid: [],
    unknown_ids: [],
    malformed: [],
  },
  summarize_talk: {
    good: [
      {
        summary: "I have talked with {{partner.name}} a while.",
        trust: 0.1,
        respect: 0.1,
        suspicion: 0,
        regardSummary: "Friendly enough.",
      },
    ],
    schema_invalid: [],
    unknown_ids: [],
    malformed: [],
  },
};

const fixturesWithTalk = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "hearsay-bench-fixtures-"));
  cpSync(defaultFixturesDir, dir, { recursive: true });
  for (const [purpose, t] of Object.entries(chatTemplates))
    writeFileSync(join(dir, "chat", `${purpose}.json`), JSON.stringify(t));
  return dir;
};

const worldDb = async (): Promise<string> => {
  const file = join(mkdtempSync(join(tmpdir(), "hearsay-bench-serve-")), "world.db");
  const log = new SqliteEventLog(openDatabase(file));
  await runSimulation({
    ...sim,
    log,
    saveId: main,
    days: 3,
    seed: 1,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: false,
    maxTicks: 9,
  });
  log.db.pragma("wal_checkpoint(TRUNCATE)");
  log.db.close();
  return file;
};

const copyOf = (file: string): string => {
  const to = join(mkdtempSync(join(tmpdir(), "hearsay-bench-copy-")), "world.db");
  copyFileSync(file, to);
  return to;
};

const pct = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** The NPCs the bench talks to in turn, and one it warms up on (not measured). */
const talkers = (): ReadonlyArray<string> =>
  sim.world.npcs
    .map((n) => n.id)
    .sort()
    .slice(0, 8);
const WARMUP = sim.world.npcs
  .map((n) => n.id)
  .sort()
  .at(-1)!;

interface Plan {
  readonly npcId: string;
  readonly message: string;
  readonly newConversation: boolean;
}

const plan: ReadonlyArray<Plan> = Array.from({ length: TURNS }, (_, i) => ({
  npcId: talkers()[Math.floor(i / script.length) % talkers().length]!,
  message: script[i % script.length]!,
  newConversation: i % script.length === 0,
}));

// --- the service over HTTP ---------------------------------------------------------------

const startService = async (db: string, brain: string, env: Record<string, string>) => {
  const child: ChildProcess = spawn(
    join(root, "node_modules", ".bin", "tsx"),
    [
      join(root, "packages", "cli", "src", "main.ts"),
      "serve",
      "--db",
      db,
      "--port",
      "0",
      "--brain",
      brain,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("close", (code) => reject(new Error(`hearsay serve exited (${code}): ${out}`)));
  });
  return { url, stop: () => child.kill("SIGINT") };
};

const overHttp = async (db: string, brain: string, env: Record<string, string>) => {
  const service = await startService(db, brain, env);
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => {
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`);
      return (await r.json()) as { conversationId: string };
    });
  // Warm-up: the first request opens the save (folds its log, opens its indexes).
  await post(`/saves/main/npcs/${WARMUP}/turn`, { message: "Hello." });
  const latencies: Array<number> = [];
  const conversation = new Map<string, string>();
  const began = performance.now();
  for (const p of plan) {
    const t0 = performance.now();
    const r = await post(`/saves/main/npcs/${p.npcId}/turn`, {
      message: p.message,
      conversationId: p.newConversation ? null : (conversation.get(p.npcId) ?? null),
    });
    latencies.push(performance.now() - t0);
    conversation.set(p.npcId, r.conversationId);
  }
  const sequentialS = (performance.now() - began) / 1000;
  const burst = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) =>
      post(`/saves/main/npcs/${talkers()[i % talkers().length]}/turn`, {
        message: script[i % script.length],
      }),
    ),
  );
  const burstS = (performance.now() - burst) / 1000;
  service.stop();
  return {
    latencies,
    turnsPerSecond: plan.length / sequentialS,
    burstTurnsPerSecond: CONCURRENT / burstS,
  };
};

// --- the same talk in-process, every brain call timed -----------------------------------

type Interval = readonly [number, number];

const timedBrain = (brain: BrainShape, into: Array<Interval>): BrainShape => ({
  name: brain.name,
  decide: (request) =>
    Effect.suspend(() => {
      const t0 = performance.now();
      return Effect.ensuring(
        brain.decide(request),
        Effect.sync(() => void into.push([t0, performance.now()])),
      );
    }),
});

const timedStreamer =
  (streamer: ReplyStreamer, into: Array<Interval>): ReplyStreamer =>
  (request, listener) =>
    Effect.suspend(() => {
      const t0 = performance.now();
      return Effect.ensuring(
        streamer(request, listener),
        Effect.sync(() => void into.push([t0, performance.now()])),
      );
    });

const unionMs = (xs: ReadonlyArray<Interval>): number => {
  const s = [...xs].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [a, b] of s) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
};

const inProcess = async (
  db: string,
  brain: BrainShape,
  streamer: ReplyStreamer | null,
  record: boolean,
) => {
  const intervals: Array<Interval> = [];
  const log = new SqliteEventLog(openDatabase(db));
  const talk = new TalkWorld({
    simulation: sim,
    log,
    saveId: main,
    brain: timedBrain(brain, intervals),
    recordBrain: record,
    ...(streamer === null ? {} : { streamer: timedStreamer(streamer, intervals) }),
  });
  await talk.takeTurn({ npcId: WARMUP, message: "Hello." });
  const totals: Array<number> = [];
  const brains: Array<number> = [];
  const conversation = new Map<string, string>();
  for (const p of plan) {
    intervals.length = 0;
    const t0 = performance.now();
    const r = await talk.takeTurn({
      npcId: p.npcId,
      message: p.message,
      conversationId: p.newConversation ? null : (conversation.get(p.npcId) ?? null),
    });
    totals.push(performance.now() - t0);
    brains.push(unionMs(intervals));
    conversation.set(p.npcId, r.conversationId);
  }
  log.db.close();
  return { totals, brains, added: totals.map((t, i) => t - brains[i]!) };
};

export default async function run(): Promise<void> {
  const base = await worldDb();
  const fixture = await OllamaFixtureServer.start({ fixturesDir: fixturesWithTalk() });
  const config = { ...defaultMindConfig, ollamaUrl: fixture.url };
  const ollama = OllamaBrain.make({ config });
  const brains = [
    {
      name: "scripted",
      cli: "scripted",
      env: {},
      brain: ScriptedBrain.make() as BrainShape,
      streamer: null,
      record: false,
    },
    {
      name: "ollama fixture",
      cli: "ollama",
      env: { HEARSAY_OLLAMA_URL: fixture.url },
      brain: ollama as BrainShape,
      streamer: streamOllamaReply({ config, fallback: ollama }) as ReplyStreamer | null,
      record: true,
    },
  ];
  const rows: Array<Record<string, number | string>> = [];
  try {
    for (const b of brains) {
      const http = await overHttp(copyOf(base), b.cli, b.env);
      const local = await inProcess(copyOf(base), b.brain, b.streamer, b.record);
      rows.push({
        brain: b.name,
        turns: plan.length,
        httpTurnsPerSecond: http.turnsPerSecond,
        httpBurstTurnsPerSecond: http.burstTurnsPerSecond,
        httpP50Ms: pct(http.latencies, 50),
        httpP99Ms: pct(http.latencies, 99),
        turnP50Ms: pct(local.totals, 50),
        turnP99Ms: pct(local.totals, 99),
        brainP50Ms: pct(local.brains, 50),
        brainP99Ms: pct(local.brains, 99),
        addedP50Ms: pct(local.added, 50),
        addedP99Ms: pct(local.added, 99),
      });
    }
  } finally {
    await fixture.close();
  }
  printTable(
    `serve: ${plan.length} sequential turns over HTTP (then ${CONCURRENT} at once to one save), and the same talk in-process with brain calls timed — ${sim.world.npcs.length}-NPC world`,
    [
      "brain",
      "HTTP turns/s",
      `${CONCURRENT}-burst turns/s`,
      "HTTP p50 ms",
      "HTTP p99 ms",
      "turn p50",
      "turn p99",
      "brain p50",
      "brain p99",
      "added p50",
      "added p99",
    ],
    rows.map((r) => [
      r.brain!,
      r.httpTurnsPerSecond!,
      r.httpBurstTurnsPerSecond!,
      r.httpP50Ms!,
      r.httpP99Ms!,
      r.turnP50Ms!,
      r.turnP99Ms!,
      r.brainP50Ms!,
      r.brainP99Ms!,
      r.addedP50Ms!,
      r.addedP99Ms!,
    ]),
  );
  console.log(
    `results: ${writeResults("serve", { turns: plan.length, concurrent: CONCURRENT, rows })}`,
  );
}
