/**
 * What a live model run of the default world asks of the model, and how it scales over
 * model hosts. Runs the default world with `--brain ollama` against the fixture server
 * (on threads of their own, as a model server is another process) and reports:
 *
 * - calls per NPC-day by purpose, and tokens per NPC-day (target ≤ 2.4 calls);
 * - the stable-prefix share: per NPC, how much of each prompt (system and user text, in
 *   characters — a token proxy) equals the start of its previous prompt, over
 *   consecutive `act` turns and over consecutive calls of any purpose (target ≥ 60% on
 *   turns);
 * - throughput with 1, 2 and 4 hosts of 30 ms latency and 2 slots each, in model calls
 *   answered per second: a whole run of the world (engine included), a whole run of the
 *   same world scaled to `--throughput-npcs` NPCs (480: a tick of the 60-NPC world asks
 *   about six calls, some waiting on others — a line's answer on the line — fewer than
 *   four hosts' eight slots), and the same calls asked straight of the brain, all at once
 *   (the pool alone); target ≥ 0.8 × linear. "× ideal" compares with what the
 *   hosts could answer at most (every slot busy, each call taking the latency). This process's CPU per call is shown
 *   beside each: where it, times the calls in flight, nears the latency, the client's
 *   own work (prompt, hash, decoding) bounds the rate, not the hosts.
 */
import { loadavg } from "node:os";
import { ids, MINUTES_PER_DAY, type PayloadOf } from "@hearsay/core";
import {
  type LoadedSimulation,
  loadSimulation,
  retrievalDossiers,
  runSimulation,
  scaleSimulation,
} from "@hearsay/engine";
import {
  type BrainRequest,
  type BrainShape,
  defaultMindConfig,
  type ModelHostConfig,
  OllamaBrain,
  renderPrompt,
} from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { type FixtureServerThread, startFixtureServerThread } from "./fixtureServerThread.ts";
import { printTable } from "./printTable.ts";
import { writeResults } from "./writeResults.ts";

type Call = PayloadOf<"LlmCallRecorded">;

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const pct = (x: number) => Math.round(x * 1000) / 10;
const cpuMs = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000;

/** Characters two texts share from their start. */
const commonPrefix = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};

/** A dossier's sections in a prompt, by heading. */
const sectionsOf = (prompt: string): Map<string, string> => {
  const out = new Map<string, string>();
  for (const part of prompt.split(/\n(?=## )/).slice(1)) {
    const head = part.slice(0, part.indexOf("\n"));
    out.set(head, part);
  }
  return out;
};

/** Share of prompt text equal to the start of the same NPC's previous prompt. */
class PrefixShare {
  private readonly last = new Map<string, string>();
  /** Per section heading: pairs where it changed, pairs where it was there, its characters. */
  readonly sections = new Map<string, { changed: number; seen: number; chars: number }>();
  /** Where consecutive prompts first differ: the heading above that point, and how often. */
  readonly breaks = new Map<string, number>();
  shared = 0;
  total = 0;
  pairs = 0;
  note(key: string, prompt: string): void {
    const before = this.last.get(key);
    this.last.set(key, prompt);
    if (before === undefined) return;
    const same = commonPrefix(before, prompt);
    const was = sectionsOf(before);
    for (const [head, text] of sectionsOf(prompt)) {
      const s = this.sections.get(head) ?? { changed: 0, seen: 0, chars: 0 };
      s.seen++;
      s.chars += text.length;
      if (was.get(head) !== text) s.changed++;
      this.sections.set(head, s);
    }
    this.shared += same;
    this.total += prompt.length;
    this.pairs++;
    const head = /(?:^|\n)(#{1,2} [^\n]*)[^#]*$/.exec(prompt.slice(0, same))?.[1] ?? "(system)";
    const where = head.replace(/\d+/g, "N").slice(0, 48);
    this.breaks.set(where, (this.breaks.get(where) ?? 0) + 1);
  }
  get share(): number {
    return this.total === 0 ? 0 : this.shared / this.total;
  }
}

const sim = loadSimulation();
const npcs = sim.world.npcs.length;

const hostsOf = (servers: ReadonlyArray<FixtureServerThread>): Array<ModelHostConfig> =>
  servers.map((s) => ({ url: s.url, concurrency: 2 }));

/**
 * What goes to the rules instead of the model (see BrainPolicy): the policy's defaults,
 * each overridden by `--speaker-memories`, `--listener-memories`, `--one-line-scenes`,
 * `--two-line-scenes`, `--few-heard-scenes` or `--debate-scenes` (`model` or `scripted`), and all six set
 * to `model` by `--no-rules`.
 */
const ruleOf = (name: string, fallback: "model" | "scripted"): "model" | "scripted" => {
  const given = flag(name);
  if (given === "model" || given === "scripted") return given;
  return process.argv.includes("--no-rules") ? "model" : fallback;
};
const rules = {
  speakerMemories: ruleOf("--speaker-memories", defaultMindConfig.policy.speakerMemories),
  listenerMemories: ruleOf("--listener-memories", defaultMindConfig.policy.listenerMemories),
  oneLineScenes: ruleOf("--one-line-scenes", defaultMindConfig.policy.oneLineScenes),
  twoLineScenes: ruleOf("--two-line-scenes", defaultMindConfig.policy.twoLineScenes),
  fewHeardScenes: ruleOf("--few-heard-scenes", defaultMindConfig.policy.fewHeardScenes),
  debateScenes: ruleOf("--debate-scenes", defaultMindConfig.policy.debateScenes),
};

const brainOver = (hosts: ReadonlyArray<ModelHostConfig>) =>
  OllamaBrain.make({
    config: {
      ...defaultMindConfig,
      hosts,
      ollamaUrl: hosts[0]!.url,
      fallback: ["scripted"],
      policy: { ...defaultMindConfig.policy, ...rules },
    },
  });

/** A recorded call the policy sent to the scripted brain: it cost no model time. */
const byRule = (c: Call): boolean => c.policy?.priority === "scripted";

const runWorld = async (brain: BrainShape, days: number, simulation: LoadedSimulation = sim) => {
  const log = new SqliteEventLog(openDatabase(":memory:"));
  /** Own turns that asked the brain, by why (news, no plan, a stale plan, tasks, a step that fails). */
  const asks = new Map<string, number>();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await runSimulation({
    world: simulation.world,
    worldHash: simulation.worldHash,
    lore: simulation.lore,
    log,
    saveId: ids.save("bench"),
    days,
    seed: Number(flag("--seed") ?? 1),
    brain,
    recordBrain: true,
    dossiers: retrievalDossiers,
    resume: false,
    // What each actor emits is returned by `send`: read why each own turn asked there.
    onActors: (actors) => {
      const send = actors.send.bind(actors);
      actors.send = (id, event) => {
        const out = send(id, event);
        for (const e of out) if (e.type === "decide") asks.set(e.why, (asks.get(e.why) ?? 0) + 1);
        return out;
      };
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  const events = log.read(ids.save("bench"));
  const calls = events.flatMap((e) => (e.type === "LlmCallRecorded" ? [e.payload as Call] : []));
  // Model calls day by day, and of the last day and the last ten: a run's first days ask
  // less (no tasks yet), and one day is a small sample.
  const byDay = Array.from({ length: days }, () => 0);
  for (const e of events)
    if (e.type === "LlmCallRecorded" && !byRule(e.payload as Call)) {
      const day = Math.floor(e.t / MINUTES_PER_DAY);
      if (day < days) byDay[day]! += 1;
    }
  const lastDay = byDay[days - 1] ?? 0;
  const lastTen = byDay.slice(-10).reduce((a, b) => a + b, 0);
  // How lively the world stayed: its events, the calls' own records aside, and of them
  // what was said, the tasks proposed and the moves of tasks (started, done, failed).
  const worldEvents = events.length - calls.length;
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const lively = {
    talkLines: count("ConversationTurn"),
    tasksProposed: count("TaskProposed"),
    taskChanges: count("TaskStatusChanged"),
    scenes: count("SceneClosed"),
    memories: count("MemoryRecorded"),
    // Purposes carried in another's answer are served without a call of their own.
    profiles: count("ProfileGenerated"),
    profileRevisions: count("ProfileRevised"),
    debates: count("DebateHeld"),
  };
  log.db.close();
  return { calls, lastDay, lastTen, byDay, worldEvents, lively, asks, seconds, cpuMs: cpu };
};

export const llmCost = async (): Promise<void> => {
  // The days are the first bare number: not the value of a flag (`--seed 3` is no 3 days).
  // By default the default run's own length (`hearsay run`: 30 days), so one-off calls
  // (first-meeting profiles) count at the rate a real run pays them.
  const args = process.argv.slice(3);
  const days = Number(
    args.find((a, i) => /^\d+$/.test(a) && !(args[i - 1] ?? "").startsWith("--")) ?? 30,
  );
  const throughputDays = Number(flag("--throughput-days") ?? 1);
  const latencyMs = Number(flag("--latency-ms") ?? 30);

  // 1. What the world asks: every call recorded, prompts noted per NPC as the brain sees them.
  const quick = await startFixtureServerThread(0);
  const ollama = brainOver(hostsOf([quick]));
  const turns = new PrefixShare();
  const any = new PrefixShare();
  const asked: Array<BrainRequest> = [];
  /** What kind of `act` turn each was: a reply in a talk, a turn in company, a turn alone. */
  const actKinds = new Map<string, number>();
  const noting: BrainShape = {
    name: ollama.name,
    capacity: ollama.pool.capacity,
    decide: (request) =>
      Effect.suspend(() => {
        const { system, user } = renderPrompt(request);
        const prompt = `${system}\n${user}`;
        const who = request.npcId ?? `(world) ${request.purpose}`;
        any.note(who, prompt);
        if (request.purpose === "act") {
          turns.note(who, prompt);
          const input = (request as BrainRequest<"act">).input;
          const kind =
            input.conversation !== undefined
              ? "act: reply in a talk"
              : input.present.length > 0
                ? "act: turn in company"
                : "act: turn alone";
          actKinds.set(kind, (actKinds.get(kind) ?? 0) + 1);
        }
        asked.push(request);
        return ollama.decide(request);
      }),
  };
  const costRun = await runWorld(noting, days);
  await quick.close();
  const npcDays = npcs * days;
  const byPurpose = new Map<string, number>();
  let promptTokens = 0;
  let outputTokens = 0;
  const ruled = new Map<string, number>();
  for (const c of costRun.calls) {
    if (byRule(c)) {
      ruled.set(c.policy!.reason, (ruled.get(c.policy!.reason) ?? 0) + 1);
      continue;
    }
    byPurpose.set(c.purpose, (byPurpose.get(c.purpose) ?? 0) + 1);
    promptTokens += c.promptTokens + c.rejected.promptTokens;
    outputTokens += c.outputTokens + c.rejected.outputTokens;
  }
  const modelCalls = costRun.calls.length - [...ruled.values()].reduce((a, b) => a + b, 0);
  const perNpcDay = modelCalls / npcDays;
  const purposes = [...byPurpose.entries()].sort((a, b) => b[1] - a[1]);
  printTable(
    `Model calls of the default world (${npcs} NPCs × ${days} days, --brain ollama, fixture server)`,
    ["purpose", "calls", "per NPC-day"],
    [
      ...purposes.map(([p, n]) => [p, n, Math.round((n / npcDays) * 1000) / 1000]),
      ...[...actKinds.entries()]
        .sort()
        .map(([k, n]) => [`  ${k}`, n, Math.round((n / npcDays) * 1000) / 1000]),
      ...[...costRun.asks.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([why, n]) => [
          `  own turn asked: ${why}`,
          n,
          Math.round((n / npcDays) * 1000) / 1000,
        ]),
      ["all", modelCalls, Math.round(perNpcDay * 1000) / 1000],
      ...[...ruled.entries()]
        .sort()
        .map(([why, n]) => [`by rule: ${why}`, n, Math.round((n / npcDays) * 1000) / 1000]),
      [
        `all, day ${days - 1} alone`,
        costRun.lastDay,
        Math.round((costRun.lastDay / npcs) * 1000) / 1000,
      ],
      [
        `all, days ${Math.max(0, days - 10)}–${days - 1}`,
        costRun.lastTen,
        Math.round((costRun.lastTen / (npcs * Math.min(10, days))) * 1000) / 1000,
      ],
    ],
    3,
  );
  console.log(
    `model calls per NPC-day, day by day: ${costRun.byDay.map((n) => (n / npcs).toFixed(2)).join(" ")}`,
  );
  printTable(
    "Tokens and prompt reuse",
    ["measure", "value"],
    [
      [
        "world events per NPC-day (LlmCallRecorded aside)",
        Math.round(costRun.worldEvents / npcDays),
      ],
      ["  talk lines per NPC-day", (costRun.lively.talkLines / npcDays).toFixed(2)],
      ["  tasks proposed per NPC-day", (costRun.lively.tasksProposed / npcDays).toFixed(2)],
      ["  task status changes per NPC-day", (costRun.lively.taskChanges / npcDays).toFixed(2)],
      ["  scenes closed per NPC-day", (costRun.lively.scenes / npcDays).toFixed(2)],
      ["  memories per NPC-day", (costRun.lively.memories / npcDays).toFixed(2)],
      ["  first profiles per NPC-day", (costRun.lively.profiles / npcDays).toFixed(3)],
      ["  profile revisions per NPC-day", (costRun.lively.profileRevisions / npcDays).toFixed(3)],
      ["  debates held per NPC-day", (costRun.lively.debates / npcDays).toFixed(3)],
      ["model calls per world event", (modelCalls / costRun.worldEvents).toFixed(3)],
      ["prompt tokens per NPC-day", Math.round(promptTokens / npcDays)],
      ["output tokens per NPC-day", Math.round(outputTokens / npcDays)],
      [
        `stable prefix, consecutive act turns of one NPC (${turns.pairs} pairs), %`,
        pct(turns.share),
      ],
      [`stable prefix, consecutive calls of one NPC (${any.pairs} pairs), %`, pct(any.share)],
    ],
    1,
  );
  printTable(
    "Where consecutive act prompts of one NPC first differ (the heading above that point)",
    ["heading", "pairs"],
    [...turns.breaks.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8),
    0,
  );

  printTable(
    "Each dossier section on consecutive act turns of one NPC: how often it changed, its size",
    ["section", "pairs with it", "changed, %", "chars"],
    [...turns.sections.entries()]
      .sort((a, b) => b[1].seen - a[1].seen)
      .map(([head, s]) => [head, s.seen, pct(s.changed / s.seen), Math.round(s.chars / s.seen)]),
    1,
  );

  if (process.argv.includes("--no-throughput")) return;
  // 2. Throughput over 1, 2 and 4 hosts of `latencyMs`, 2 slots each.
  const servers: Array<FixtureServerThread> = [];
  for (let i = 0; i < 4; i++) servers.push(await startFixtureServerThread(latencyMs));
  const batch = asked.filter((r) => r.purpose === "act").slice(0, 480);
  const scaledNpcs = Number(flag("--throughput-npcs") ?? 480);
  const scaledSim = scaleSimulation(sim, scaledNpcs);
  const rows: Array<{
    hosts: number;
    world: number;
    worldCpuMs: number;
    scaledWorld: number;
    pool: number;
    poolCpuMs: number;
  }> = [];
  /** Model calls a whole run got answered per second (the rules' answers cost no model time). */
  const rate = (run: { calls: ReadonlyArray<Call>; seconds: number }) =>
    run.calls.filter((c) => !byRule(c)).length / run.seconds;
  for (const k of [1, 2, 4]) {
    const hosts = hostsOf(servers.slice(0, k));
    const world = await runWorld(brainOver(hosts), throughputDays);
    const scaled = await runWorld(brainOver(hosts), throughputDays, scaledSim);
    const brain = brainOver(hosts);
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    await Effect.runPromise(
      Effect.forEach(batch, (r) => Effect.result(brain.decide(r)), {
        concurrency: brain.pool.capacity,
      }),
    );
    const poolSeconds = (performance.now() - started) / 1000;
    const poolCpu = cpuMs(process.cpuUsage(cpu0));
    rows.push({
      hosts: k,
      world: rate(world),
      worldCpuMs: world.cpuMs / Math.max(1, world.calls.length),
      scaledWorld: rate(scaled),
      pool: batch.length / poolSeconds,
      poolCpuMs: poolCpu / batch.length,
    });
  }
  for (const s of servers) await s.close();
  const base = rows[0]!;
  // What the hosts could answer at most: every slot busy, each call taking the latency.
  const ideal = (hosts: number) => (hosts * 2 * 1000) / latencyMs;
  printTable(
    `Throughput in model calls/s, hosts of ${latencyMs} ms latency and 2 slots each (world: ${throughputDays} day run of ${npcs} NPCs, then of ${scaledNpcs}; pool: ${batch.length} act calls at once)`,
    [
      "hosts",
      `world (${npcs})`,
      "× linear",
      "CPU ms/call",
      `world (${scaledNpcs})`,
      "× linear",
      "pool calls/s",
      "× linear",
      "× ideal",
      "CPU ms/call",
    ],
    rows.map((r) => [
      r.hosts,
      Math.round(r.world * 10) / 10,
      Math.round((r.world / (r.hosts * base.world)) * 100) / 100,
      Math.round(r.worldCpuMs * 100) / 100,
      Math.round(r.scaledWorld * 10) / 10,
      Math.round((r.scaledWorld / (r.hosts * base.scaledWorld)) * 100) / 100,
      Math.round(r.pool * 10) / 10,
      Math.round((r.pool / (r.hosts * base.pool)) * 100) / 100,
      Math.round((r.pool / ideal(r.hosts)) * 100) / 100,
      Math.round(r.poolCpuMs * 100) / 100,
    ]),
  );
  const four = rows[2]!;
  const verdict = (ok: boolean) => (ok ? "met" : "not met");
  console.log(
    [
      `calls per NPC-day ${perNpcDay.toFixed(2)} (target ≤ 2.4): ${verdict(perNpcDay <= 2.4)}`,
      `stable prefix on consecutive turns ${pct(turns.share)}% (target ≥ 60%): ${verdict(turns.share >= 0.6)}`,
      `4 hosts: world of ${npcs} ${(four.world / (4 * base.world)).toFixed(2)}× linear, of ${scaledNpcs} ${(four.scaledWorld / (4 * base.scaledWorld)).toFixed(2)}×, pool ${(four.pool / (4 * base.pool)).toFixed(2)}× (target ≥ 0.8): world of ${npcs} ${verdict(four.world / (4 * base.world) >= 0.8)}, of ${scaledNpcs} ${verdict(four.scaledWorld / (4 * base.scaledWorld) >= 0.8)}, pool ${verdict(four.pool / (4 * base.pool) >= 0.8)}`,
      `load average ${loadavg()[0]!.toFixed(2)}`,
      `results: ${writeResults("llmcall", {
        days,
        npcs,
        calls: modelCalls,
        ...rules,
        byRulePerNpcDay: Object.fromEntries([...ruled].map(([why, n]) => [why, n / npcDays])),
        worldEventsPerNpcDay: costRun.worldEvents / npcDays,
        livelyPerNpcDay: Object.fromEntries(
          Object.entries(costRun.lively).map(([k, n]) => [k, n / npcDays]),
        ),
        callsPerNpcDay: perNpcDay,
        ownTurnAsksPerNpcDay: Object.fromEntries(
          [...costRun.asks].map(([why, n]) => [why, n / npcDays]),
        ),
        callsPerNpcDayLastDay: costRun.lastDay / npcs,
        callsPerNpcDayLastTenDays: costRun.lastTen / (npcs * Math.min(10, days)),
        callsPerNpcDayByDay: costRun.byDay.map((n) => n / npcs),
        sections: Object.fromEntries(turns.sections),
        byPurpose: Object.fromEntries(purposes.map(([p, n]) => [p, n / npcDays])),
        promptTokensPerNpcDay: promptTokens / npcDays,
        outputTokensPerNpcDay: outputTokens / npcDays,
        stablePrefixTurns: turns.share,
        stablePrefixAny: any.share,
        throughput: rows,
        throughputScaledNpcs: scaledNpcs,
        latencyMs,
        load: loadavg()[0],
      })}`,
    ].join("\n"),
  );
};
