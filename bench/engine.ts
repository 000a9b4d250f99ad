/**
 * Engine bench: the default world scaled to 100, 1,000 and 10,000 NPCs, run headless with
 * the scripted brain and real dossiers — ticks/s, events/s, peak memory and time per
 * simulated NPC-day — wall and this process's CPU time (the machine is shared; CPU time is
 * the steadier figure), with the CPU time split four ways: appending to the store (with
 * its projections), building dossiers, catching the retrieval view up after each append
 * (indexing new items and their vectors), and the rest — the engine itself. Baseline, measured in the same run: appending the very same log to
 * a fresh store tick by tick (what storage alone costs), so the table shows what the engine
 * adds on top. Target: 1,000 NPCs for 365 days at hourly ticks in ≤ 120 s.
 *
 *   pnpm bench engine                      # 100×365, 1000×365, 10000×14 days
 *   pnpm bench engine -- 1000:30 100:365   # NPCs:days pairs
 */
import { loadavg } from "node:os";
import { ids } from "@hearsay/core";
import { loadSimulation, runSimulation } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { scaleWorld } from "@hearsay/testkit";
import { instrument } from "./lib/cpuParts.ts";
import { printTable } from "./lib/printTable.ts";
import { tickBatches } from "./lib/tickBatches.ts";
import { writeResults } from "./lib/writeResults.ts";

interface Row {
  readonly npcs: number;
  readonly days: number;
  readonly seconds: number;
  /** This process's CPU time (user + system) for the run. */
  readonly cpuSeconds: number;
  readonly ticks: number;
  readonly events: number;
  readonly ticksPerSecond: number;
  readonly eventsPerSecond: number;
  readonly usPerNpcDay: number;
  readonly cpuUsPerNpcDay: number;
  readonly eventsPerNpcDay: number;
  readonly peakRssMiB: number;
  readonly brainCalls: number;
  /** Dossiers actually built (a scripted brain reads one only to speak). */
  readonly dossiers: number;
  readonly loadAverage: number;
  /** CPU µs per NPC-day spent appending to the store (with projection), building dossiers,
   * catching the retrieval view up after each append, and in everything else (the engine). */
  readonly appendCpuUsPerNpcDay: number;
  readonly dossierCpuUsPerNpcDay: number;
  readonly refreshCpuUsPerNpcDay: number;
  readonly engineCpuUsPerNpcDay: number;
  readonly baselineAppendSeconds: number;
  /** The baseline per NPC-day: storage alone, against the target's 329 µs for everything. */
  readonly baselineUsPerNpcDay: number;
  readonly engineOverStorage: number;
}

const sizes = (): ReadonlyArray<readonly [number, number]> => {
  const args = process.argv.slice(3).filter((a) => /^\d+:\d+$/.test(a));
  if (args.length === 0) {
    return [
      [100, 365],
      [1000, 365],
      [10000, 14],
    ];
  }
  return args.map((a) => a.split(":").map(Number) as [number, number]);
};

const one = async (npcs: number, days: number): Promise<Row> => {
  const sim = loadSimulation();
  const world = scaleWorld(sim.world, npcs);
  const log = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  let peak = process.memoryUsage().rss;
  const parts = instrument(log);
  const spent = parts.spent;
  const loadAverage = loadavg()[0] ?? 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const summary = await runSimulation({
    world,
    worldHash: sim.worldHash,
    lore: sim.lore,
    log,
    saveId: ids.save("bench"),
    days,
    seed: 1,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: parts.source,
    resume: false,
    config: { checkpointEveryTicks: 24 },
    onProgress: (p) => {
      if (p.ticks % 24 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  peak = Math.max(peak, process.memoryUsage().rss);

  // Baseline: the same events appended tick by tick to a fresh store.
  const events = log.read(ids.save("bench"));
  const batches = tickBatches(events);
  const fresh = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  fresh.createSave({ saveId: ids.save("bench"), campaignId: events[0]!.campaignId, name: "bench" });
  const baseStart = performance.now();
  let head = 0;
  for (const b of batches) head = fresh.append(ids.save("bench"), head, b).head;
  const baselineAppendSeconds = (performance.now() - baseStart) / 1000;

  return {
    npcs,
    days,
    seconds,
    cpuSeconds,
    ticks: summary.ticks,
    events: summary.head,
    ticksPerSecond: summary.ticks / seconds,
    eventsPerSecond: summary.head / seconds,
    usPerNpcDay: (seconds * 1e6) / (npcs * days),
    cpuUsPerNpcDay: (cpuSeconds * 1e6) / (npcs * days),
    eventsPerNpcDay: summary.head / (npcs * days),
    peakRssMiB: Math.round(peak / 2 ** 20),
    brainCalls: summary.brainCalls,
    dossiers: parts.dossiers(),
    loadAverage,
    appendCpuUsPerNpcDay: spent.append / (npcs * days),
    dossierCpuUsPerNpcDay: spent.dossier / (npcs * days),
    refreshCpuUsPerNpcDay: spent.refresh / (npcs * days),
    engineCpuUsPerNpcDay:
      (cpuSeconds * 1e6 - spent.append - spent.dossier - spent.refresh) / (npcs * days),
    baselineAppendSeconds,
    baselineUsPerNpcDay: (baselineAppendSeconds * 1e6) / (npcs * days),
    engineOverStorage: seconds / Math.max(1e-9, baselineAppendSeconds),
  };
};

export default async (): Promise<void> => {
  const rows: Array<Row> = [];
  for (const [npcs, days] of sizes()) {
    console.error(`engine bench: ${npcs} NPCs × ${days} days …`);
    rows.push(await one(npcs, days));
  }
  printTable(
    "engine: scripted brain, real dossiers, hourly ticks (baseline: appending the same log to a fresh store)",
    [
      "NPCs",
      "days",
      "s",
      "CPU s",
      "ticks/s",
      "events",
      "events/s",
      "events/NPC-day",
      "µs/NPC-day",
      "CPU µs/NPC-day",
      "peak RSS MiB",
      "brain calls",
      "dossiers",
      "CPU µs/NPC-day: append",
      "dossier build",
      "view refresh",
      "engine",
      "baseline s",
      "baseline µs/NPC-day",
      "× baseline",
    ],
    rows.map((r) => [
      r.npcs,
      r.days,
      r.seconds,
      r.cpuSeconds,
      r.ticksPerSecond,
      r.events,
      r.eventsPerSecond,
      r.eventsPerNpcDay,
      r.usPerNpcDay,
      r.cpuUsPerNpcDay,
      r.peakRssMiB,
      r.brainCalls,
      r.dossiers,
      r.appendCpuUsPerNpcDay,
      r.dossierCpuUsPerNpcDay,
      r.refreshCpuUsPerNpcDay,
      r.engineCpuUsPerNpcDay,
      r.baselineAppendSeconds,
      r.baselineUsPerNpcDay,
      r.engineOverStorage,
    ]),
  );
  const target = rows.find((r) => r.npcs === 1000 && r.days === 365);
  const path = writeResults("engine", {
    target: "1,000 NPCs × 365 days at hourly ticks in ≤ 120 s",
    targetMet: target ? target.seconds <= 120 : null,
    rows,
  });
  console.log(`results: ${path}`);
};
