/**
 * Late-run engine bench: a kept log (such as the 1,000-NPC year) resumed for a few more days — what a game day costs once every NPC has a long past.
 *
 *   pnpm bench late -- --log PATH [--save ID] [--days N]
 *
 * `PATH` is a database a run wrote with the default world at some size (the year:
 * `pnpm bench replay -- 1000:365 --keep PATH --no-verify`); its NPC count is read from it.
 * The log is copied first (with its vector files) and the copy resumed for N more days
 * (default 3) with the scripted brain and real dossiers, as `hearsay run --resume` does;
 * the original is never written. The first resumed day is reported on its own: it pays
 * what an uninterrupted run paid along the way (the vector store and known-set copies
 * built from the log, the code warming up). The days after it are the measurement: wall
 * and CPU per NPC-day with the engine bench's CPU split (store append, dossier builds,
 * the retrieval view's catch-up, the engine), events and dossiers per day, up to the last
 * tick (the vector index saved at the end is left out). Dossiers read somewhat high: an
 * NPC's known-set copies are built on its first dossier after the resume, and many NPCs
 * need their first one after the first day.
 *
 * Baseline, measured in the same run: appending the very same events those days wrote,
 * tick by tick, to a second copy of the original log — what storage alone costs at that
 * size. The copies are deleted at the end.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { basename, dirname, join } from "node:path";
import { ids, MINUTES_PER_DAY } from "@hearsay/core";
import { loadSimulation, runSimulation, scaleSimulation, scaleWorld } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { cpuNow, instrument } from "./lib/cpuParts.ts";
import { printTable } from "./lib/printTable.ts";
import { tickBatches } from "./lib/tickBatches.ts";
import { writeResults } from "./lib/writeResults.ts";

interface Options {
  readonly log: string;
  readonly save: string;
  readonly days: number;
}

const options = (): Options => {
  const args = process.argv.slice(3);
  const value = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const log = value("--log");
  if (log === undefined) {
    throw new Error(
      "late bench: --log PATH is required (a kept log: see the header of bench/late.ts)",
    );
  }
  if (!existsSync(log)) throw new Error(`late bench: --log ${log}: no such file`);
  const days = Number(value("--days") ?? 3);
  if (!Number.isInteger(days) || days < 2) {
    throw new Error(`late bench: --days ${value("--days")}: give a whole number of at least 2`);
  }
  return { log, save: value("--save") ?? "bench", days };
};

/** Copies the database (with its WAL, if any) and, with `vectors`, its vector files into `dir`. */
const copyLog = (path: string, dir: string, vectors: boolean): string => {
  const name = basename(path);
  const to = join(dir, name);
  for (const f of readdirSync(dirname(path))) {
    const sidecar = f === `${name}-wal` || (vectors && f.startsWith(`${name}.`));
    if (f === name || sidecar) copyFileSync(join(dirname(path), f), join(dir, f));
  }
  return to;
};

/**
 * The default world at the log's size, as the run that wrote it defined it: `hearsay run`
 * (the default size), `hearsay run --scale N` or `pnpm bench replay -- N:D --keep`, or a
 * bench of an earlier version (scaled, with the unscaled world's hash) — whichever hash the
 * log's `SimulationStarted` holds.
 */
const worldOf = (
  log: SqliteEventLog,
  saveId: ReturnType<typeof ids.save>,
  npcs: number,
  path: string,
  save: string,
) => {
  const base = loadSimulation();
  const started = log.read(saveId, { toSeq: 1 })[0];
  const recorded = started?.type === "SimulationStarted" ? started.payload.worldHash : null;
  const candidates = [
    ...(npcs === base.world.npcs.length ? [base] : []),
    scaleSimulation(base, npcs),
    { ...base, world: scaleWorld(base.world, npcs) },
  ];
  const found = candidates.find((c) => c.worldHash === recorded);
  if (found === undefined) {
    throw new Error(
      `late bench: --log ${path}: save '${save}' was not run on the default world at ${npcs} NPCs (its world hash is ${recorded ?? "missing"}); keep one with \`pnpm bench replay -- ${npcs}:365 --keep PATH\` or \`hearsay run --scale ${npcs}\``,
    );
  }
  return found;
};

export default async (): Promise<void> => {
  const opts = options();
  const saveId = ids.save(opts.save);
  const work = mkdtempSync(join(dirname(opts.log), ".hearsay-late-bench-"));
  try {
    const copyStart = performance.now();
    const path = copyLog(opts.log, work, true);
    const copySeconds = (performance.now() - copyStart) / 1000;
    const log = new SqliteEventLog(openDatabase(path), { snapshotEvery: 0 });
    if (!log.saves().some((s) => s.saveId === saveId)) {
      const held = log.saves().map((s) => s.saveId);
      throw new Error(
        `late bench: --log ${opts.log}: no save '${opts.save}' (it holds ${held.join(", ") || "none"}); pass --save ID`,
      );
    }
    const npcs = (
      log.db.prepare("SELECT count(*) AS n FROM characters WHERE save_id = ?").get(saveId) as {
        n: number;
      }
    ).n;
    const head0 = log.head(saveId);
    if (npcs === 0 || head0 === 0) {
      throw new Error(`late bench: --log ${opts.log}: save '${opts.save}' holds no run`);
    }
    const t0 = (
      log.db.prepare("SELECT t FROM events WHERE save_id = ? AND seq = ?").get(saveId, head0) as {
        t: number;
      }
    ).t;
    const fromDay = Math.floor(t0 / MINUTES_PER_DAY);
    const sim = worldOf(log, saveId, npcs, opts.log, opts.save);
    const world = sim.world;
    console.error(
      `late bench: ${npcs} NPCs, ${head0.toLocaleString("en-US")} events to day ${fromDay}; copied in ${copySeconds.toFixed(1)} s; resuming for ${opts.days} days …`,
    );

    const parts = instrument(log);
    const loadAverage = loadavg()[0] ?? 0;
    const start = performance.now();
    let peak = process.memoryUsage().rss;
    // Marks at each new game day: wall time, CPU, head, the CPU split and dossiers so far.
    interface Mark {
      readonly day: number;
      readonly at: number;
      readonly cpu: number;
      readonly head: number;
      readonly spent: { dossier: number; refresh: number; append: number };
      readonly dossiers: number;
    }
    const marks: Array<Mark> = [];
    let foldSeconds = 0;
    await runSimulation({
      world,
      worldHash: sim.worldHash,
      lore: sim.lore,
      log,
      saveId,
      days: fromDay + opts.days,
      brain: ScriptedBrain.make(),
      recordBrain: false,
      dossiers: parts.source,
      resume: true,
      onProgress: ({ day, head }) => {
        const last = marks.at(-1);
        if (last === undefined) foldSeconds = (performance.now() - start) / 1000;
        if (last !== undefined && day === last.day) return;
        peak = Math.max(peak, process.memoryUsage().rss);
        marks.push({
          day,
          at: performance.now(),
          cpu: cpuNow(),
          head,
          spent: { ...parts.spent },
          dossiers: parts.dossiers(),
        });
        console.error(
          `late bench: day ${day} at ${((performance.now() - start) / 1000).toFixed(1)} s`,
        );
      },
    });
    // The run ends by saving the vector index beside the database (seconds for a year's
    // 1.5 GB of vectors): measured up to the last tick, not to here.
    peak = Math.max(peak, process.memoryUsage().rss);
    log.db.close();
    if (marks.length < 3) throw new Error("late bench: the run ended before a second whole day");
    const first = marks[0]!;
    // The first resumed day is over at the second mark: measure from there.
    const from = marks[1]!;
    const end = marks.at(-1)!;
    const steadyDays = end.day - from.day;
    const npcDays = npcs * steadyDays;
    const seconds = (end.at - from.at) / 1000;
    const cpuUs = end.cpu - from.cpu;
    const part = (k: keyof Mark["spent"]) => (end.spent[k] - from.spent[k]) / npcDays;

    // Baseline: those days' events appended tick by tick to a fresh copy of the original,
    // after the first resumed day's (untimed), so the timed ones land where they did.
    const reread = new SqliteEventLog(openDatabase(path), { snapshotEvery: 0 });
    const written = tickBatches(reread.read(saveId, { fromSeq: head0 + 1 }));
    reread.db.close();
    const baseDir = mkdtempSync(join(work, "baseline-"));
    const base = new SqliteEventLog(openDatabase(copyLog(opts.log, baseDir, false)), {
      snapshotEvery: 0,
    });
    let head = base.head(saveId);
    const timedBatches = written.filter((b) => b[0]!.seq > from.head && b[0]!.seq <= end.head);
    for (const b of written) if (b[0]!.seq <= from.head) head = base.append(saveId, head, b).head;
    const baseStart = performance.now();
    for (const b of timedBatches) head = base.append(saveId, head, b).head;
    const baselineSeconds = (performance.now() - baseStart) / 1000;
    base.db.close();

    const row = {
      log: opts.log,
      npcs,
      fromDay,
      events: head0,
      copySeconds,
      foldSeconds,
      firstDaySeconds: (from.at - first.at) / 1000,
      steadyDays,
      seconds,
      secondsPerDay: seconds / steadyDays,
      usPerNpcDay: (seconds * 1e6) / npcDays,
      cpuUsPerNpcDay: cpuUs / npcDays,
      eventsPerNpcDay: (end.head - from.head) / npcDays,
      dossiersPerDay: (end.dossiers - from.dossiers) / steadyDays,
      appendCpuUsPerNpcDay: part("append"),
      dossierCpuUsPerNpcDay: part("dossier"),
      refreshCpuUsPerNpcDay: part("refresh"),
      engineCpuUsPerNpcDay: cpuUs / npcDays - part("append") - part("dossier") - part("refresh"),
      peakRssMiB: Math.round(peak / 2 ** 20),
      loadAverage,
      baselineAppendSeconds: baselineSeconds,
      // Storage alone per NPC-day, against the target's 329 µs for everything.
      baselineUsPerNpcDay: (baselineSeconds * 1e6) / npcDays,
      overBaseline: seconds / Math.max(1e-9, baselineSeconds),
    };
    printTable(
      `late: ${npcs} NPCs resumed at day ${fromDay} of a kept log (first day apart; baseline: appending the same days' events to a copy of the log)`,
      [
        "NPCs",
        "from day",
        "fold s",
        "first day s",
        "days",
        "s/day",
        "µs/NPC-day",
        "CPU µs/NPC-day",
        "events/NPC-day",
        "dossiers/day",
        "CPU µs/NPC-day: append",
        "dossier build",
        "view refresh",
        "engine",
        "peak RSS MiB",
        "baseline s",
        "baseline µs/NPC-day",
        "× baseline",
      ],
      [
        [
          row.npcs,
          row.fromDay,
          row.foldSeconds,
          row.firstDaySeconds,
          row.steadyDays,
          row.secondsPerDay,
          row.usPerNpcDay,
          row.cpuUsPerNpcDay,
          row.eventsPerNpcDay,
          row.dossiersPerDay,
          row.appendCpuUsPerNpcDay,
          row.dossierCpuUsPerNpcDay,
          row.refreshCpuUsPerNpcDay,
          row.engineCpuUsPerNpcDay,
          row.peakRssMiB,
          row.baselineAppendSeconds,
          row.baselineUsPerNpcDay,
          row.overBaseline,
        ],
      ],
    );
    const out = writeResults("late", {
      target: "1,000 NPCs × 365 days at hourly ticks in ≤ 120 s (0.33 ms per NPC-day)",
      targetMet: row.usPerNpcDay <= 330,
      rows: [row],
    });
    console.log(`results: ${out}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
