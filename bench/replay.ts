/**
 * Replay bench: projection refold events/s (the fast `hearsay replay`, every Checkpoint
 * checked) and verify-replay events/s (`--verify`: the engine run again and every event
 * compared) on the default world's 30-day log and on the world scaled to 1,000 NPCs.
 * Baselines measured in the same run on the same log: reading it page by page (the floor
 * any refold pays), the store's own bulk `rebuildProjections` (no checkpoints checked),
 * and the engine run that wrote the log (what a verify re-does). The log is a database
 * file, as `hearsay replay --db PATH` reads it. Wall and CPU time (this process's, which
 * other work on a busy machine disturbs far less) are both reported. Target: refold ≥
 * 100,000 events/s.
 *
 *   pnpm bench:run replay                     # 60 NPCs × 30 days, 1,000 NPCs × 7 days
 *   pnpm bench:run replay -- 1000:365 60:30   # NPCs:days pairs
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ids, type SaveId } from "@hearsay/core";
import {
  historyPages,
  loadSimulation,
  refoldLog,
  retrievalDossiers,
  runSimulation,
  verifyLog,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { scaleWorld } from "@hearsay/testkit";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

interface Row {
  readonly npcs: number;
  readonly days: number;
  readonly events: number;
  readonly checkpoints: number;
  readonly runSeconds: number;
  readonly readEventsPerSecond: number;
  readonly rebuildEventsPerSecond: number;
  readonly rebuildEventsPerCpuSecond: number;
  readonly refoldSeconds: number;
  readonly refoldCpuSeconds: number;
  readonly refoldEventsPerSecond: number;
  readonly refoldEventsPerCpuSecond: number;
  readonly verifySeconds: number | null;
  readonly verifyEventsPerSecond: number | null;
  readonly verifyOverRun: number | null;
}

const sizes = (): ReadonlyArray<readonly [number, number]> => {
  const args = process.argv.slice(3).filter((a) => /^\d+:\d+$/.test(a));
  if (args.length === 0) {
    return [
      [60, 30],
      [1000, 7],
    ];
  }
  return args.map((a) => a.split(":").map(Number) as [number, number]);
};

const seconds = (since: number) => (performance.now() - since) / 1000;

/** Seconds of this process's CPU time since `since` (a `process.cpuUsage()`). */
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/**
 * The best of `n` timings, wall and CPU apart (each the least disturbed by whatever else
 * the machine runs).
 */
const best = (n: number, f: () => void): { wall: number; cpu: number } => {
  let wall = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    const start = performance.now();
    f();
    wall = Math.min(wall, seconds(start));
    cpu = Math.min(cpu, cpuSeconds(c));
  }
  return { wall, cpu };
};

const one = async (npcs: number, days: number): Promise<Row> => {
  const sim = loadSimulation();
  const world = npcs === sim.world.npcs.length ? sim.world : scaleWorld(sim.world, npcs);
  const definition = { world, worldHash: sim.worldHash, lore: sim.lore };
  const dir = mkdtempSync(join(tmpdir(), "hearsay-replay-bench-"));
  const log = new SqliteEventLog(openDatabase(join(dir, "replay.db")), { snapshotEvery: 0 });
  const saveId: SaveId = ids.save("bench");
  console.error(`replay bench: writing ${npcs} NPCs × ${days} days …`);
  let start = performance.now();
  const summary = await runSimulation({
    ...definition,
    log,
    saveId,
    days,
    seed: 1,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: false,
  });
  const runSeconds = seconds(start);
  const events = summary.head;

  const readSeconds = best(3, () => {
    for (const _ of historyPages({ log, saveId })) {
      // reading only
    }
  }).wall;
  // The store's own bulk rebuild of a copy of the save (the refold making the copy is setup).
  let rebuildOnly = { wall: Number.POSITIVE_INFINITY, cpu: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 2; i++) {
    const copy = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
    refoldLog({ log, saveId, checkpoints: false, into: copy });
    const once = best(1, () => copy.rebuildProjections(saveId));
    rebuildOnly = {
      wall: Math.min(rebuildOnly.wall, once.wall),
      cpu: Math.min(rebuildOnly.cpu, once.cpu),
    };
    copy.db.close();
  }
  console.error("replay bench: refold …");
  let checkpoints = 0;
  const refold = best(3, () => {
    const report = refoldLog({ log, saveId });
    if (report.mismatch !== null)
      throw new Error(`refold: checkpoint ${report.mismatch.seq} does not match`);
    checkpoints = report.checkpoints;
    report.scratch.db.close();
  });
  console.error("replay bench: verify …");
  start = performance.now();
  let verifySeconds: number | null = null;
  try {
    const verified = await verifyLog({ log, saveId, simulation: definition });
    if (verified.ok) verifySeconds = seconds(start);
    else console.error(`replay bench: verify diverged at seq ${verified.divergence?.seq}`);
  } catch (e) {
    console.error(`replay bench: verify failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  log.db.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    npcs,
    days,
    events,
    checkpoints,
    runSeconds,
    readEventsPerSecond: events / readSeconds,
    rebuildEventsPerSecond: events / rebuildOnly.wall,
    rebuildEventsPerCpuSecond: events / rebuildOnly.cpu,
    refoldSeconds: refold.wall,
    refoldCpuSeconds: refold.cpu,
    refoldEventsPerSecond: events / refold.wall,
    refoldEventsPerCpuSecond: events / refold.cpu,
    verifySeconds,
    verifyEventsPerSecond: verifySeconds === null ? null : events / verifySeconds,
    verifyOverRun: verifySeconds === null ? null : verifySeconds / runSeconds,
  };
};

export default async (): Promise<void> => {
  const rows: Array<Row> = [];
  for (const [npcs, days] of sizes()) rows.push(await one(npcs, days));
  printTable(
    "replay: refold (every checkpoint checked) and verify (engine re-run, every event compared); baselines: page read, store bulk rebuild, the original run",
    [
      "NPCs",
      "days",
      "events",
      "checkpoints",
      "read ev/s",
      "rebuild ev/s",
      "rebuild ev/cpu-s",
      "refold s",
      "refold ev/s",
      "refold ev/cpu-s",
      "run s",
      "verify s",
      "verify ev/s",
      "verify/run",
    ],
    rows.map((r) => [
      r.npcs,
      r.days,
      r.events,
      r.checkpoints,
      r.readEventsPerSecond,
      r.rebuildEventsPerSecond,
      r.rebuildEventsPerCpuSecond,
      r.refoldSeconds,
      r.refoldEventsPerSecond,
      r.refoldEventsPerCpuSecond,
      r.runSeconds,
      r.verifySeconds ?? "failed",
      r.verifyEventsPerSecond ?? "-",
      r.verifyOverRun ?? "-",
    ]),
  );
  const path = writeResults("replay", {
    target: "refold ≥ 100,000 events/s",
    targetMet: rows.every((r) => r.refoldEventsPerSecond >= 100_000),
    targetMetCpu: rows.every((r) => r.refoldEventsPerCpuSecond >= 100_000),
    loadAverage: loadavg(),
    rows,
  });
  console.log(`results: ${path}`);
};
