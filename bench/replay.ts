/**
 * Replay bench: projection refold events/s (the fast `hearsay replay`, every Checkpoint
 * checked) and verify-replay events/s (`--verify`: the engine run again and every event
 * compared) on the default world's 30-day log and on the world scaled to 1,000 NPCs.
 * Baselines measured in the same run on the same log: reading every event into JS page
 * by page (which a refold no longer does: SQLite folds most events where they lie), the
 * store's own bulk `rebuildProjections` of a whole store (events, indexes and search
 * rebuilt; no checkpoints checked), and the engine run that wrote the log (what a verify
 * re-does). The log is a database
 * file, as `hearsay replay --db PATH` reads it. Wall and CPU time (this process's, which
 * other work on a busy machine disturbs far less) are both reported. Target: refold ≥
 * 100,000 events/s.
 *
 *   pnpm bench:run replay                     # 60 NPCs × 30 days, 1,000 NPCs × 7 days
 *   pnpm bench:run replay -- 1000:365 60:30   # NPCs:days pairs
 *   pnpm bench:run replay -- 1000:365 --keep PATH  # write one log to PATH and keep it
 *   pnpm bench:run replay -- --log PATH [--save ID] [--no-verify]
 *
 * `--no-verify` skips the verify (of a log written here or given by `--log`).
 *
 * `--log` measures an existing log instead of writing one (save "bench" unless `--save`):
 * the file is opened read-only, and the refold and the rebuild baseline work in a scratch
 * file beside the system's temp dir (a big log does not fit a memory database). Its verify
 * re-runs the default world scaled to the log's NPC count with seed 1 (as this bench and
 * `hearsay run` write it); `--no-verify` skips it (at 1,000 NPCs × 365 days it takes hours).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ids, type SaveId } from "@hearsay/core";
import {
  historyPages,
  loadSimulation,
  refoldLog,
  retrievalDossiers,
  runSimulation,
  scaleSimulation,
  verifyLog,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { DIGEST_FN, openDatabase, SCHEMA_VERSION, SqliteEventLog } from "@hearsay/store";
import Database from "better-sqlite3";
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

/** The NPCs:days pairs named on the command line (none: the default sizes). */
const givenSizes = (): ReadonlyArray<readonly [number, number]> =>
  process.argv
    .slice(3)
    .filter((a) => /^\d+:\d+$/.test(a))
    .map((a) => a.split(":").map(Number) as [number, number]);

const sizes = (): ReadonlyArray<readonly [number, number]> => {
  const given = givenSizes();
  return given.length > 0
    ? given
    : [
        [60, 30],
        [1000, 7],
      ];
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

/** The default world at `npcs` NPCs: what this bench (and `hearsay run`) simulates. */
const definitionFor = (npcs: number) => {
  const base = loadSimulation();
  // As `hearsay run` (the default size) or `hearsay run --scale N` runs it, hash and all:
  // a kept log resumes with the command.
  const sim = npcs === base.world.npcs.length ? base : scaleSimulation(base, npcs);
  return { world: sim.world, worldHash: sim.worldHash, lore: sim.lore };
};

/** A store to refold into: in memory, or a throwaway file when the log is big. */
type Scratch = () => { readonly log: SqliteEventLog; readonly dispose: () => void };

const memoryScratch: Scratch = () => {
  const log = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
  return { log, dispose: () => log.db.close() };
};

/** A scratch file, never synced: it is thrown away whatever happens. */
const fileScratch: Scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "hearsay-replay-scratch-"));
  const db = openDatabase(join(dir, "scratch.db"));
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  const log = new SqliteEventLog(db, { snapshotEvery: 0 });
  return {
    log,
    dispose: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/**
 * Measures read, rebuild, refold and (unless `verifyWith` is null) verify on a written
 * log; `runSeconds` is the run that wrote it, when this process did.
 */
const measureLog = async (
  log: SqliteEventLog,
  saveId: SaveId,
  shape: { readonly npcs: number; readonly days: number; readonly runSeconds: number },
  scratch: Scratch,
  verifyWith: ReturnType<typeof definitionFor> | null,
  repeat: number,
): Promise<Row> => {
  const events = log.head(saveId);
  console.error(`replay bench: ${events.toLocaleString("en-US")} events; reading …`);
  const readSeconds = best(repeat, () => {
    for (const _ of historyPages({ log, saveId })) {
      // reading only
    }
  }).wall;
  // The store's own bulk rebuild of a copy of the save (the refold making the copy is setup).
  console.error("replay bench: rebuild …");
  let rebuildOnly = { wall: Number.POSITIVE_INFINITY, cpu: Number.POSITIVE_INFINITY };
  for (let i = 0; i < Math.min(2, repeat); i++) {
    const copy = scratch();
    refoldLog({ log, saveId, checkpoints: false, keepScratch: true, into: copy.log });
    const once = best(1, () => copy.log.rebuildProjections(saveId));
    rebuildOnly = {
      wall: Math.min(rebuildOnly.wall, once.wall),
      cpu: Math.min(rebuildOnly.cpu, once.cpu),
    };
    copy.dispose();
  }
  console.error("replay bench: refold …");
  let checkpoints = 0;
  const refold = best(repeat, () => {
    const into = scratch();
    try {
      const report = refoldLog({ log, saveId, into: into.log });
      if (report.mismatch !== null)
        throw new Error(`refold: checkpoint ${report.mismatch.seq} does not match`);
      checkpoints = report.checkpoints;
    } finally {
      into.dispose();
    }
  });
  let verifySeconds: number | null = null;
  if (verifyWith !== null) {
    console.error("replay bench: verify …");
    const start = performance.now();
    try {
      const verified = await verifyLog({ log, saveId, simulation: verifyWith });
      if (verified.ok) verifySeconds = seconds(start);
      else console.error(`replay bench: verify diverged at seq ${verified.divergence?.seq}`);
    } catch (e) {
      console.error(`replay bench: verify failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const runSeconds = shape.runSeconds;
  return {
    npcs: shape.npcs,
    days: shape.days,
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
    verifyOverRun: verifySeconds === null || runSeconds <= 0 ? null : verifySeconds / runSeconds,
  };
};

/** Logs past this many events are refolded into a scratch file, once, not in memory thrice. */
const BIG_LOG = 2_000_000;

/**
 * Writes the default world's log at a size, then measures it. With `keep`, the log is
 * written to that file and left there (for `--log` later) instead of a throwaway one.
 */
const one = async (
  npcs: number,
  days: number,
  keep: string | undefined,
  verify: boolean,
): Promise<Row> => {
  const definition = definitionFor(npcs);
  if (keep !== undefined && existsSync(keep))
    throw new Error(`replay bench: --keep ${keep}: the file exists; name a new one`);
  const dir = mkdtempSync(join(tmpdir(), "hearsay-replay-bench-"));
  const file = keep ?? join(dir, "replay.db");
  const log = new SqliteEventLog(openDatabase(file), { snapshotEvery: 0 });
  const saveId: SaveId = ids.save("bench");
  console.error(`replay bench: writing ${npcs} NPCs × ${days} days …`);
  const start = performance.now();
  let lastDay = -1;
  await runSimulation({
    ...definition,
    log,
    saveId,
    days,
    seed: 1,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: false,
    onProgress: ({ day, startDay, endDay, head }) => {
      if (day === lastDay || (day - startDay) % 10 !== 0) return;
      lastDay = day;
      console.error(
        `replay bench: day ${day - startDay}/${endDay - startDay}, ${head.toLocaleString("en-US")} events, ${seconds(start).toFixed(0)} s`,
      );
    },
  });
  const runSeconds = seconds(start);
  const big = log.head(saveId) > BIG_LOG;
  if (keep !== undefined) console.error(`replay bench: the log is kept in ${keep}`);
  try {
    return await measureLog(
      log,
      saveId,
      { npcs, days, runSeconds },
      big ? fileScratch : memoryScratch,
      verify ? definition : null,
      big ? 1 : 3,
    );
  } finally {
    log.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * Opens an existing log read-only (nothing migrated, no pragma that writes; SQLite
 * refuses any write), as `hearsay replay` does.
 */
const openLogReadOnly = (path: string): SqliteEventLog => {
  if (!existsSync(path)) throw new Error(`replay bench: --log ${path}: no such file`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version < 1 || version > SCHEMA_VERSION) {
    db.close();
    throw new Error(
      `replay bench: --log ${path}: schema version ${version} is not one this build reads`,
    );
  }
  // The store's statements name its digest function; this connection never writes.
  db.function(DIGEST_FN, { varargs: true }, () => {
    throw new Error("replay bench: the log is open read-only");
  });
  return new SqliteEventLog(db, { snapshotEvery: 0 });
};

/** Measures the log at `path` (`--log`). */
const existing = async (path: string, save: string, verify: boolean): Promise<Row> => {
  const log = openLogReadOnly(path);
  try {
    const saveId = ids.save(save);
    const count = (type: string) =>
      log.db
        .prepare("SELECT count(*) FROM events WHERE save_id = ? AND type = ?")
        .pluck()
        .get(saveId, type) as number;
    const npcs = count("NpcRegistered");
    const last = log.read(saveId, { fromSeq: log.head(saveId), toSeq: log.head(saveId) })[0];
    const days = last === undefined ? 0 : Math.floor(last.t / 1440);
    return await measureLog(
      log,
      saveId,
      { npcs, days, runSeconds: 0 },
      fileScratch,
      verify ? definitionFor(npcs) : null,
      log.head(saveId) > BIG_LOG ? 1 : 3,
    );
  } finally {
    log.db.close();
  }
};

/**
 * Where the results go: `replay` for the default sizes, `replay-log` for `--log`, and
 * `replay-<npcs>x<days>[-…]` for sizes given on the command line, so a long one-off run
 * (a 1,000-NPC year) does not overwrite the default run's results.
 */
const resultsName = (logPath: string | undefined): string => {
  if (logPath !== undefined) return "replay-log";
  const given = givenSizes();
  return given.length > 0 ? `replay-${given.map(([n, d]) => `${n}x${d}`).join("-")}` : "replay";
};

/** `--name VALUE` from the command line, or undefined. */
const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};

export default async (): Promise<void> => {
  const rows: Array<Row> = [];
  const logPath = flag("--log");
  const verify = !process.argv.includes("--no-verify");
  if (logPath !== undefined) {
    rows.push(await existing(logPath, flag("--save") ?? "bench", verify));
  } else {
    const keep = flag("--keep");
    if (keep !== undefined && sizes().length !== 1)
      throw new Error("replay bench: --keep writes one log: name one NPCs:days pair");
    for (const [npcs, days] of sizes()) rows.push(await one(npcs, days, keep, verify));
  }
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
      r.runSeconds > 0 ? r.runSeconds : "-",
      r.verifySeconds ?? (verify ? "failed" : "skipped"),
      r.verifyEventsPerSecond ?? "-",
      r.verifyOverRun ?? "-",
    ]),
  );
  const path = writeResults(resultsName(logPath), {
    ...(logPath === undefined ? {} : { log: logPath }),
    target: "refold ≥ 100,000 events/s",
    targetMet: rows.every((r) => r.refoldEventsPerSecond >= 100_000),
    targetMetCpu: rows.every((r) => r.refoldEventsPerCpuSecond >= 100_000),
    loadAverage: loadavg(),
    rows,
  });
  console.log(`results: ${path}`);
};
