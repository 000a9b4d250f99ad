/** Event log: append (per-tick batches) and projection rebuild throughput vs raw better-sqlite3.
 *
 * A seeded village of NPCs lives for some days, one tick per game hour; each tick's
 * events (clock, moves, activities, world events with their witnesses' knowledge,
 * memories, talk, relationships, model calls, tasks, debates, checkpoints…) are one
 * append. Baselines, measured in the same run on the same machine:
 * - append vs raw inserts of the same event rows (payload JSON prepared beforehand), one
 *   transaction per tick, into the same `events` table;
 * - rebuild vs raw inserts of the final projection rows (and an FTS rebuild) into the
 *   same tables, one transaction — the least work any fold could do to land those rows.
 * Sizes: BENCH_NPCS (default 300) and BENCH_DAYS (default 20).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import {
  ftsTables,
  openDatabase,
  type ProjectionState,
  projectionTables,
  type SqliteDatabase,
  SqliteEventLog,
} from "@hearsay/store";
import { measure, perSecond, type Timing } from "./lib/measure.ts";
import { printTable } from "./lib/printTable.ts";
import { VILLAGE_SEED, village } from "./lib/village.ts";
import { writeResults } from "./lib/writeResults.ts";

const NPCS = Number(process.env.BENCH_NPCS ?? 300);
const DAYS = Number(process.env.BENCH_DAYS ?? 20);

interface Db {
  readonly dir: string;
  readonly db: SqliteDatabase;
}

const freshDb = (): Db => {
  const dir = mkdtempSync(join(tmpdir(), "hearsay-bench-"));
  return { dir, db: openDatabase(join(dir, "bench.db")) };
};

const dispose = ({ dir, db }: Db): void => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
};

const saveId = ids.save("bench");

const newLog = (db: SqliteDatabase): SqliteEventLog => {
  const log = new SqliteEventLog(db);
  log.createSave({ saveId, campaignId: ids.campaign("bench"), name: "bench" });
  return log;
};

/** Raw inserts of projection rows into the same tables, plus an FTS rebuild. */
const insertRows = (db: SqliteDatabase, state: ProjectionState): void => {
  const stmts = projectionTables.map((table) => {
    const cols = Object.keys(state[table][0] ?? {});
    return {
      table,
      cols,
      stmt:
        cols.length === 0
          ? null
          : db.prepare(
              `INSERT INTO ${table} (save_id, campaign_id, ${cols.join(", ")}) VALUES (?, ?${", ?".repeat(cols.length)})`,
            ),
    };
  });
  db.transaction(() => {
    for (const { table, cols, stmt } of stmts) {
      if (!stmt) continue;
      for (const row of state[table]) stmt.run(saveId, "bench", ...cols.map((c) => row[c]));
    }
    for (const fts of Object.keys(ftsTables))
      db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`);
  })();
};

export default function run(): void {
  const ticks = village({ npcs: NPCS, days: DAYS });
  const total = ticks.reduce((s, b) => s + b.length, 0);
  const counts = new Map<string, number>();
  for (const b of ticks) for (const e of b) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  console.log(
    `eventlog bench: ${NPCS} NPCs, ${DAYS} days, ${ticks.length} ticks, ${total.toLocaleString("en-US")} events; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );

  // Raw rows for the append baseline, prepared outside the timing.
  const rawRows = ticks.map((b) =>
    b.map(
      (e, i) =>
        [
          e.id,
          e.t,
          Math.floor(e.t / 1440),
          e.type,
          e.version,
          JSON.stringify(e.payload),
          i,
        ] as const,
    ),
  );

  const append: Timing = measure({ repeat: 3, setup: freshDb }, (d) => {
    try {
      const log = newLog(d.db);
      for (const b of ticks) log.append(saveId, log.head(saveId), b);
    } finally {
      dispose(d);
    }
  });

  const rawAppend: Timing = measure({ repeat: 3, setup: freshDb }, (d) => {
    try {
      newLog(d.db);
      const ins = d.db.prepare(
        "INSERT INTO events (save_id, seq, campaign_id, event_id, t, day, type, version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      let seq = 0;
      const tick = d.db.transaction((rows: (typeof rawRows)[number]) => {
        for (const r of rows) ins.run(saveId, ++seq, "bench", r[0], r[1], r[2], r[3], r[4], r[5]);
      });
      for (const rows of rawRows) tick(rows);
    } finally {
      dispose(d);
    }
  });

  // One database with the whole log, for the rebuilds.
  const main = freshDb();
  const log = newLog(main.db);
  for (const b of ticks) log.append(saveId, log.head(saveId), b);
  const state = log.projectionState(saveId);
  const hash = log.projectionHash(saveId);
  const projectionRows = projectionTables.reduce((s, t) => s + state[t].length, 0);

  const rebuildAll = measure({ repeat: 3, warmup: 1, setup: () => log }, (l) => {
    l.rebuildProjections();
  });
  const rebuildOne = measure({ repeat: 3, setup: () => log }, (l) => {
    l.rebuildProjections(saveId);
  });
  // Replay's refold: the save's history copied from this file into a fresh store and
  // folded there in bulk (what `hearsay replay` does, less its Checkpoint checks).
  let imported = "";
  const importOne = measure(
    { repeat: 3, setup: () => new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 }) },
    (target) => {
      target.importHistory(log, { saveId });
      imported = target.projectionHash(saveId);
      target.db.close();
    },
  );
  const consistent = log.projectionHash(saveId) === hash && imported === hash;

  log.takeSnapshot(saveId);
  const restore = measure({ repeat: 3, setup: () => log }, (l) => {
    l.restoreFromSnapshot(saveId);
  });

  const rawRebuild = measure({ repeat: 3, setup: freshDb }, (d) => {
    try {
      insertRows(d.db, state);
    } finally {
      dispose(d);
    }
  });
  dispose(main);

  const line = (label: string, items: number, perItems: number, t: Timing) =>
    [
      label,
      items,
      t.medianMs,
      perSecond(perItems, t.medianMs),
      t.cpuMedianMs,
      perSecond(perItems, t.cpuMedianMs),
    ] as const;
  printTable(
    `event log — ${total.toLocaleString("en-US")} events, medians of 3 (rates in events/s; restore rows in rows/s)`,
    ["measurement", "items", "wall ms", "per s (wall)", "cpu ms", "per s (cpu)"],
    [
      line("append (decode + log + projections, per tick)", total, total, append),
      line("  baseline: raw INSERT of the same event rows", total, total, rawAppend),
      line("rebuildProjections() all saves", total, total, rebuildAll),
      line("rebuildProjections(save)", total, total, rebuildOne),
      line("importHistory (copy + fold into a fresh store)", total, total, importOne),
      line(
        "  baseline: raw INSERT of the final projection rows + FTS",
        projectionRows,
        total,
        rawRebuild,
      ),
      line("restoreFromSnapshot (state at head, no tail)", projectionRows, projectionRows, restore),
    ],
  );
  const ratios = {
    appendVsRawInsert: append.medianMs / rawAppend.medianMs,
    rebuildVsRawRows: rebuildAll.medianMs / rawRebuild.medianMs,
    appendVsRawInsertCpu: append.cpuMedianMs / rawAppend.cpuMedianMs,
    rebuildVsRawRowsCpu: rebuildAll.cpuMedianMs / rawRebuild.cpuMedianMs,
  };
  const rebuildPerSecond = perSecond(total, rebuildAll.medianMs);
  const rebuildPerCpuSecond = perSecond(total, rebuildAll.cpuMedianMs);
  const verdict = (n: number) => (n >= 100_000 ? "met" : "NOT met");
  printTable(
    "ratios (time of ours / time of the raw baseline in the same run; lower is better) and the target",
    ["comparison", "wall", "cpu", "target ≥ 100,000 events/s"],
    [
      ["append / raw event inserts", ratios.appendVsRawInsert, ratios.appendVsRawInsertCpu, "-"],
      [
        "rebuild / raw projection-row inserts",
        ratios.rebuildVsRawRows,
        ratios.rebuildVsRawRowsCpu,
        "-",
      ],
      [
        "rebuild events/s",
        rebuildPerSecond,
        rebuildPerCpuSecond,
        `wall ${verdict(rebuildPerSecond)}, cpu ${verdict(rebuildPerCpuSecond)}`,
      ],
    ],
  );
  if (!consistent) console.log("WARNING: a rebuild or an import changed the projection hash");
  const path = writeResults("eventlog", {
    config: {
      npcs: NPCS,
      days: DAYS,
      ticks: ticks.length,
      events: total,
      projectionRows,
      seed: VILLAGE_SEED,
    },
    eventMix: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])),
    append: { ...append, eventsPerSecond: perSecond(total, append.medianMs) },
    rawAppend: { ...rawAppend, eventsPerSecond: perSecond(total, rawAppend.medianMs) },
    rebuildAll: {
      ...rebuildAll,
      eventsPerSecond: rebuildPerSecond,
      eventsPerCpuSecond: rebuildPerCpuSecond,
    },
    rebuildOne: { ...rebuildOne, eventsPerSecond: perSecond(total, rebuildOne.medianMs) },
    importHistory: {
      ...importOne,
      eventsPerSecond: perSecond(total, importOne.medianMs),
      eventsPerCpuSecond: perSecond(total, importOne.cpuMedianMs),
    },
    rawProjectionInsert: rawRebuild,
    restoreFromSnapshot: restore,
    ratios,
    target: {
      rebuildEventsPerSecond: 100_000,
      metWall: rebuildPerSecond >= 100_000,
      metCpu: rebuildPerCpuSecond >= 100_000,
    },
    loadAverage: loadavg(),
    rebuildKeepsHash: consistent,
  });
  console.log(`results: ${path}`);
}
