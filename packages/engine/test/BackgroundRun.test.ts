/**
 * A run over a database file appends its ticks on a worker thread (the default): it
 * writes the very log, read models and digest a run appending on its own thread writes,
 * even when the worker lags each batch — so no read during the run (a dossier's dialogue,
 * a Checkpoint's hash, an engine snapshot, a memory's text) saw a file the run had moved
 * past — and what it returns is the same.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EngineSnapshotStore, openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, describe, expect, it } from "vitest";
import { logHash } from "./harness.ts";
import { MAIN, runHamlet } from "./replay/fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-background-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileLog = () =>
  new SqliteEventLog(openDatabase(join(dir, `run-${++files}.db`)), { snapshotEvery: 0 });

describe("a run's appends on a worker thread", () => {
  it("write what appending on the run's thread writes, from a worker that lags every batch", async () => {
    const inline = fileLog();
    const a = await runHamlet(inline, {
      days: 2,
      appendInBackground: false,
      config: { checkpointEveryTicks: 6, snapshotEveryEvents: 100, snapshotsKept: 3 },
    });
    const lagging = fileLog();
    const b = await runHamlet(lagging, {
      days: 2,
      appendInBackground: { delayMs: 3 },
      config: { checkpointEveryTicks: 6, snapshotEveryEvents: 100, snapshotsKept: 3 },
    });
    // The worker was there, and the run had to wait for it.
    expect(inline.appendWorker.waitedMs).toBe(0);
    expect(lagging.appendWorker.waitedMs).toBeGreaterThan(0);
    expect(b).toEqual(a);
    expect(logHash(lagging)).toBe(logHash(inline));
    expect(lagging.projectionHash(MAIN)).toBe(inline.projectionHash(MAIN));
    expect(lagging.read(MAIN).filter((e) => e.type === "Checkpoint").length).toBeGreaterThan(4);
    // The worker stored the engine snapshots, after the batches they were taken at: the
    // same ones, at the same seqs, as the run's own thread stored.
    const snapshots = (log: SqliteEventLog) => {
      const store = new EngineSnapshotStore(log.db);
      return store.of(MAIN).map((s) => ({ ...s, text: store.latest(MAIN, s.format, s.seq)?.text }));
    };
    expect(snapshots(inline)).toHaveLength(3);
    expect(snapshots(lagging)).toEqual(snapshots(inline));
    inline.db.close();
    lagging.db.close();
  });

  it("a run that fails still lands every batch it sent before the failure, and none after", async () => {
    const log = fileLog();
    let batches = 0;
    let lastSent = 0;
    await expect(
      runHamlet(log, {
        days: 2,
        appendInBackground: { delayMs: 5 },
        onAppend: (events) => {
          batches += 1;
          lastSent = events[events.length - 1]!.seq;
          if (batches === 10) throw new Error("the run stops here");
        },
      }),
    ).rejects.toThrow("the run stops here");
    const reopened = new SqliteEventLog(openDatabase(log.db.name));
    expect(reopened.head(MAIN)).toBe(lastSent);
    expect(reopened.read(MAIN).at(-1)!.type).toBe("ClockAdvanced");
    reopened.db.close();
    log.db.close();
  });
});
