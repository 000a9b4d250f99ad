/**
 * The vector index is a cache of SQLite: deleting or corrupting its files beside the
 * database must lead to an automatic rebuild (or repair) when it is next opened, with
 * exactly the search results and dossiers an intact index gives; the rebuilt files
 * are saved, so the open after that loads them. Checked with the flat index a run uses
 * and with an HNSW graph (built early on purpose), and for files left from an older
 * state of the database. Finally, end to end: a run whose index files are deleted or
 * corrupted between an interruption and its resume writes the same log as a run that
 * never lost them.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stateHash } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { collectionNames, indexPaths, type VectorIndexOptions } from "@hearsay/retrieval";
import { openDatabase, type SqliteDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNode } from "../support/hearsayCli.ts";
import { logEntries } from "../support/logDigest.ts";
import { graphDamages, type IndexDamage, indexDamages, indexSaved } from "./indexDamage.ts";
import { openIndex, probe, SAVE } from "./indexProbe.ts";

const DEEP = process.env.HEARSAY_DEEP !== undefined && process.env.HEARSAY_DEEP !== "";
const sim = loadSimulation("haskerry");

const run = (log: SqliteEventLog, over: { days?: number; maxTicks?: number; resume?: boolean }) =>
  runSimulation({
    world: sim.world,
    worldHash: sim.worldHash,
    lore: sim.lore,
    log,
    saveId: SAVE,
    days: over.days ?? 2,
    seed: 3,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: over.resume ?? false,
    ...(over.maxTicks === undefined ? {} : { maxTicks: over.maxTicks }),
  });

const fileKinds = ["vectors", "graph", "manifest"] as const;

const damage = (name: string): IndexDamage => indexDamages.find((d) => d.name === name)!;

/** Copies every index file of `from` to `to` (removing `to`'s extra files). */
const copyIndex = (fromDb: string, toDb: string): void => {
  for (const c of collectionNames) {
    const a = indexPaths(fromDb, c);
    const b = indexPaths(toDb, c);
    for (const k of fileKinds) {
      rmSync(b[k], { force: true });
      if (existsSync(a[k])) copyFileSync(a[k], b[k]);
    }
  }
};

describe("index loss: damaged vector files are rebuilt and answer the same", () => {
  let dir: string;
  let dbPath: string;
  let db: SqliteDatabase;
  let log: SqliteEventLog;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearsay-indexloss-"));
    dbPath = join(dir, "world.db");
    db = openDatabase(dbPath);
    log = new SqliteEventLog(db);
    await run(log, { days: 2 });
  }, 120_000);

  afterAll(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const configs: ReadonlyArray<{
    readonly name: string;
    readonly options: Omit<VectorIndexOptions, "dbPath">;
    readonly damages: ReadonlyArray<IndexDamage>;
  }> = [
    { name: "flat index (as a run opens it)", options: {}, damages: indexDamages },
    {
      name: "with an HNSW graph",
      options: { store: { hnswMinSize: 128 } },
      // The flat cases again only under HEARSAY_DEEP: the graph adds nothing to them
      // but the graph file, which the graph cases break.
      damages: [
        ...indexDamages.filter((d, i) => DEEP || i === 0 || d.hits.includes("memories")),
        ...graphDamages,
      ],
    },
  ];

  for (const config of configs) {
    describe(config.name, () => {
      const pristine = () => join(dir, `pristine-${config.name.length}.db`);
      let baseline: ReadonlyArray<string>;

      beforeAll(() => {
        // The truth: an index built from SQLite alone, saved, and kept aside.
        for (const c of collectionNames)
          for (const k of fileKinds) rmSync(indexPaths(dbPath, c)[k], { force: true });
        const { index, reports } = openIndex(db, dbPath, config.options);
        expect(reports.every((r) => r.outcome === "rebuilt")).toBe(true);
        expect(indexSaved(dbPath)).toBe(true);
        baseline = probe(db, log, index);
        copyIndex(dbPath, pristine());
        const again = openIndex(db, dbPath, config.options);
        expect(again.reports.map((r) => r.outcome)).toEqual(collectionNames.map(() => "loaded"));
        expect(probe(db, log, again.index)).toEqual(baseline);
      });

      it("the probe really searches every collection", () => {
        const joined = baseline.join("\n");
        for (const c of ["memories/", "world_events/", "lore/"]) expect(joined).toContain(c);
        if (config.options.store) {
          const { index } = openIndex(db, dbPath, config.options);
          expect(index.store("memories")?.hasGraph).toBe(true);
        }
      });

      it.each(config.damages.filter((d) => !d.native).map((d) => [d.name, d] as const))(
        "%s",
        (_name, damage) => {
          copyIndex(pristine(), dbPath);
          damage.apply(dbPath);
          const { index, reports } = openIndex(db, dbPath, config.options);
          expect(probe(db, log, index)).toEqual(baseline);
          for (const c of damage.hits) {
            const report = reports.find((r) => r.collection === c)!;
            expect(report.outcome, `${c}: ${report.reason}`).not.toBe("loaded");
          }
          // What was rebuilt was saved: the next open loads it and answers the same.
          const next = openIndex(db, dbPath, config.options);
          expect(next.reports.map((r) => `${r.collection} ${r.outcome}`)).toEqual(
            collectionNames.map((c) => `${c} loaded`),
          );
          expect(probe(db, log, next.index)).toEqual(baseline);
        },
      );

      // Damage read by native code is probed in a child process, so a crash is a failure
      // of this test rather than the loss of the test worker.
      it.each(config.damages.filter((d) => d.native).map((d) => [d.name, d] as const))(
        "%s (in a child process)",
        async (_name, damage) => {
          copyIndex(pristine(), dbPath);
          damage.apply(dbPath);
          const child = await runNode([
            join(import.meta.dirname, "probeIndexChild.ts"),
            dbPath,
            JSON.stringify(config.options),
          ]);
          expect(
            child.signal,
            `opening the damaged index crashed: ${child.stderr.trim().split("\n")[0]}`,
          ).toBeNull();
          expect(child.code, child.stderr).toBe(0);
          const answer = JSON.parse(child.stdout) as { probe: string };
          expect(answer.probe).toBe(stateHash(baseline));
        },
        60_000,
      );
    });
  }

  it("files from an older state of the database are repaired to the same answers", async () => {
    const older = join(dir, "older.db");
    const olderDb = openDatabase(older);
    try {
      const olderLog = new SqliteEventLog(olderDb);
      await run(olderLog, { days: 2, maxTicks: 20 });
      openIndex(olderDb, older, {});
      const stale = join(dir, "stale.db");
      copyIndex(older, stale);
      await run(olderLog, { days: 2, resume: true });
      const fresh = probe(olderDb, olderLog, openIndex(olderDb, null, {}).index);
      copyIndex(stale, older);
      const { index, reports } = openIndex(olderDb, older, {});
      expect(reports.some((r) => r.outcome === "repaired")).toBe(true);
      expect(probe(olderDb, olderLog, index)).toEqual(fresh);
    } finally {
      olderDb.close();
    }
  }, 120_000);

  it("a run whose index files are lost between interruption and resume writes the same log", async () => {
    const whole = join(dir, "whole.db");
    const wholeDb = openDatabase(whole);
    const broken = join(dir, "broken.db");
    const brokenDb = openDatabase(broken);
    try {
      const wholeLog = new SqliteEventLog(wholeDb);
      await run(wholeLog, { days: 2 });
      const brokenLog = new SqliteEventLog(brokenDb);
      await run(brokenLog, { days: 2, maxTicks: 15 });
      expect(indexSaved(broken), "the interrupted run saved its index").toBe(true);
      // A run's memories are embedded when searched, and a scripted run searches none:
      // its memories file holds no row to overwrite, so it loses the file whole.
      damage("the memories vectors deleted").apply(broken);
      damage("a byte of the lore rowids flipped").apply(broken);
      damage("the world events manifest is not JSON").apply(broken);
      await run(brokenLog, { days: 2, maxTicks: 15, resume: true });
      damage("every file deleted").apply(broken);
      await run(brokenLog, { days: 2, resume: true });
      expect(stateHash(logEntries(brokenLog, SAVE))).toBe(stateHash(logEntries(wholeLog, SAVE)));
    } finally {
      wholeDb.close();
      brokenDb.close();
    }
  }, 180_000);
});
