/**
 * The index job: the world clock runs it every `indexJob.everyDays` days, it records only
 * that it ran (`MaintenanceRan` job `index`), and as a side effect the run writes its
 * vector index files so `hearsay index status` finds them level with SQLite at the job's
 * point — even when they were deleted mid-run. Nothing it finds on disk reaches the log:
 * a run over a file, with its files deleted between resumes, writes the log an
 * uninterrupted in-memory run writes, and `replay --verify` touches no index file.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import {
  type GameTime,
  ids,
  type MaintenanceJob,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  makeEvent,
} from "@hearsay/core";
import { retrievalDossiers, runGraphCollections, verifyLog } from "@hearsay/engine";
import {
  collectionNames,
  type IndexProgress,
  indexStatus,
  makeHashingEmbedder,
  VectorIndexes,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import { afterAll, describe, expect, it } from "vitest";
import { logHash } from "./harness.ts";
import { hamlet, MAIN, memoryLog, runHamlet } from "./replay/fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-index-job-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileLog = () =>
  new SqliteEventLog(openDatabase(join(dir, `run-${++files}.db`)), { snapshotEvery: 0 });

/** The collections `hearsay index status` calls stale, with why. */
const stale = (log: SqliteEventLog): Array<string> => {
  // Read mid-run beside the append worker: the batches sent land first.
  log.settle();
  return indexStatus(log.db, log.db.name, makeHashingEmbedder(), collectionNames)
    .filter((s) => s.stale)
    .map((s) => `${s.collection}: ${s.reason}`);
};

/** The index files beside the database. */
const indexFiles = (log: SqliteEventLog): Array<string> => {
  const base = `${basename(log.db.name)}.`;
  return readdirSync(dirname(log.db.name))
    .filter((f) => f.startsWith(base) && !f.endsWith("-wal") && !f.endsWith("-shm"))
    .map((f) => join(dirname(log.db.name), f));
};

const HOUR = 6;
const spec = {
  days: 4,
  config: { indexJob: { everyDays: 2, hour: HOUR, minRows: 1, minShare: 0 } },
} as const;

/** Around each index job: what `index status` said before and after it. */
const watch = (log: SqliteEventLog, before?: () => void) => {
  const seen: Array<{ before: Array<string>; after: Array<string> }> = [];
  const aroundJob = async <T>(job: MaintenanceJob, run: () => Promise<T>): Promise<T> => {
    if (job !== "index") return run();
    before?.();
    const was = stale(log);
    const out = await run();
    seen.push({ before: was, after: stale(log) });
    return out;
  };
  return { seen, aroundJob };
};

describe("index job", () => {
  it("runs on its days at its hour and leaves the index files level with SQLite", async () => {
    const log = fileLog();
    const { seen, aroundJob } = watch(log);
    const summary = await runHamlet(log, { ...spec, aroundJob });
    const ran = log
      .read(MAIN)
      .filter((e) => e.type === "MaintenanceRan" && e.payload.job === "index");
    expect(ran.length).toBeGreaterThanOrEqual(2);
    for (const e of ran) {
      if (e.type !== "MaintenanceRan") continue;
      expect(e.payload.day % 2).toBe(0);
      expect({ ...e.payload, day: 0 }).toEqual({
        job: "index",
        day: 0,
        expired: 0,
        forgotten: 0,
        consolidated: 0,
      });
      const at = e.payload.day * MINUTES_PER_DAY + HOUR * MINUTES_PER_HOUR;
      expect(e.t - at).toBeGreaterThanOrEqual(0);
      expect(e.t - at).toBeLessThan(60);
    }
    expect(new Set(ran.map((e) => (e.type === "MaintenanceRan" ? e.payload.day : -1))).size).toBe(
      ran.length,
    );
    expect(seen.length).toBe(ran.length);
    // The files were behind SQLite before each job (the run appended since it opened)…
    for (const s of seen) expect(s.before).not.toEqual([]);
    // …and level with it after.
    for (const s of seen) expect(s.after).toEqual([]);
    expect(summary.jobsRun.index).toBe(ran.length);
    expect(summary.indexUpkeep).not.toBeNull();
    expect(summary.indexUpkeep!.jobs).toBe(ran.length);
    expect(summary.indexUpkeep!.writes).toBe(ran.length);
    expect(summary.indexUpkeep!.rows).toBeGreaterThan(0);
    expect(summary.indexUpkeep!.bytes).toBeGreaterThan(0);
    log.db.close();
  });

  it("writes nothing under its row threshold, and the files stay behind by those rows", async () => {
    const log = fileLog();
    const { seen, aroundJob } = watch(log);
    const summary = await runHamlet(log, {
      ...spec,
      config: { indexJob: { ...spec.config.indexJob, minRows: 1_000_000 } },
      aroundJob,
    });
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(s.after).toEqual(s.before);
    expect(summary.indexUpkeep!.writes).toBe(0);
    log.db.close();
  });

  it("writes a collection only once it is behind by a share of the rows last written", async () => {
    const log = fileLog();
    const { seen, aroundJob } = watch(log);
    const grown = await runHamlet(log, {
      days: 6,
      config: { indexJob: { everyDays: 1, hour: HOUR, minRows: 1, minShare: 3 } },
      aroundJob,
    });
    const every = await runHamlet(fileLog(), {
      days: 6,
      config: { indexJob: { everyDays: 1, hour: HOUR, minRows: 1, minShare: 0 } },
    });
    // The first job writes every collection (nothing was written by the run yet); after it
    // a collection must have four times the rows it was written with.
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(every.indexUpkeep!.writes).toBe(seen.length);
    expect(grown.indexUpkeep!.writes).toBeGreaterThan(0);
    expect(grown.indexUpkeep!.writes).toBeLessThan(seen.length);
    expect(grown.indexUpkeep!.rows).toBeLessThan(every.indexUpkeep!.rows);
    log.db.close();
  });

  it("rewrites index files deleted mid-run at the next job, and the log does not notice", async () => {
    const whole = memoryLog();
    const uninterrupted = await runHamlet(whole, spec);
    expect(uninterrupted.indexUpkeep).toEqual({
      jobs: 0,
      writes: 0,
      rows: 0,
      segments: 0,
      bytes: 0,
      seconds: null,
    });

    const log = fileLog();
    // Deleted while the run is going, just before each job…
    const first = watch(log, () => {
      for (const f of indexFiles(log)) rmSync(f);
    });
    await runHamlet(log, { ...spec, maxTicks: 40, aroundJob: first.aroundJob });
    expect(first.seen.length).toBeGreaterThan(0);
    for (const s of first.seen) {
      expect(s.before.length).toBe(collectionNames.length);
      expect(s.after).toEqual([]);
    }
    // …and between resumes (opening rebuilds them; the next job keeps them level).
    for (const f of indexFiles(log)) rmSync(f);
    const second = watch(log);
    await runHamlet(log, { ...spec, resume: true, aroundJob: second.aroundJob });
    expect(second.seen.length).toBeGreaterThan(0);
    for (const s of second.seen) expect(s.after).toEqual([]);
    expect(logHash(log)).toBe(logHash(whole));
    log.db.close();
  });

  it("ends a run with its files noted level with SQLite, so the next open reads no row", async () => {
    const log = fileLog();
    const opened = () => {
      const scanned = new Set<string>();
      const onProgress = (p: IndexProgress) => {
        if (p.phase === "scan") scanned.add(p.collection);
      };
      const { reports } = Effect.runSync(
        VectorIndexes.open(log.db, makeHashingEmbedder(), {
          graphCollections: runGraphCollections,
          onProgress,
        }),
      );
      return { scanned: [...scanned], outcomes: new Set(reports.map((r) => r.outcome)) };
    };
    await runHamlet(log, { ...spec, maxTicks: 40 });
    expect(opened()).toEqual({ scanned: [], outcomes: new Set(["loaded"]) });
    // …and rightly: the files hold every row of the tables (checked row by row).
    expect(stale(log)).toEqual([]);
    // A resumed run writes more: its own end notes the files again.
    await runHamlet(log, { ...spec, resume: true });
    expect(opened()).toEqual({ scanned: [], outcomes: new Set(["loaded"]) });
    // …and rightly: the files hold every row of the tables (checked row by row).
    expect(stale(log)).toEqual([]);
    // A write the files did not see: the next open checks every row, and notes the level.
    log.append(MAIN, log.head(MAIN), [
      makeEvent("NpcMoved", {
        id: ids.event("moved-after"),
        t: (spec.days * MINUTES_PER_DAY) as GameTime,
        payload: {
          npcId: hamlet().world.npcs[0]!.id,
          from: ids.location("x"),
          to: ids.location("y"),
        },
      }),
    ]);
    expect(opened().scanned).toEqual([...collectionNames]);
    expect(opened().scanned).toEqual([]);
    log.db.close();
  });

  it("ends with only the manifests written when no row changed since the files were", async () => {
    const log = fileLog();
    await runHamlet(log, { ...spec, maxTicks: 30 });
    const vectors = () =>
      indexFiles(log)
        .filter((f) => f.endsWith(".vectors"))
        .map((f) => [f, statSync(f).mtimeMs]);
    const before = vectors();
    expect(before.length).toBe(collectionNames.length);
    // Opened level with the files, so its end has no row to write, only the level.
    retrievalDossiers(log, MAIN).flush?.();
    expect(vectors()).toEqual(before);
    log.db.close();
  });

  it("replay --verify passes and leaves the save's index files alone", async () => {
    const log = fileLog();
    await runHamlet(log, spec);
    const before = indexFiles(log).map((f) => [f, statSync(f).mtimeMs, statSync(f).size]);
    expect(before.length).toBeGreaterThan(0);
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      config: spec.config,
    });
    expect(report.ok).toBe(true);
    expect(indexFiles(log).map((f) => [f, statSync(f).mtimeMs, statSync(f).size])).toEqual(before);
    log.db.close();
  });
});
