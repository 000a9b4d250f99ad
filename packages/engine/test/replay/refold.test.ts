/**
 * The fast replay (`refoldLog`, the store's bulk import underneath): a run's log refolds
 * into a scratch that holds the same read models as the run wrote (and, kept, the same
 * events), every Checkpoint matching; a changed log is caught at the first Checkpoint
 * after the change (and, with `keepGoing`, at every one after it); `untilSeq` stops
 * where asked. Each case runs on a log in memory (its rows read into the scratch one by
 * one) and on one on disk (attached: a scratch to keep gets a native copy of the rows,
 * one to throw away none — SQLite folds from the source itself).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids, type StoredEvent } from "@hearsay/core";
import { refoldLog } from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN, memoryLog, runHamlet } from "./fixtures.ts";

type Checkpoint = Extract<StoredEvent, { type: "Checkpoint" }>;

const dir = mkdtempSync(join(tmpdir(), "hearsay-refold-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileLog = (): SqliteEventLog =>
  new SqliteEventLog(openDatabase(join(dir, `log-${++files}.db`)), { snapshotEvery: 0 });

const eventRows = (log: SqliteEventLog): number =>
  log.db.prepare("SELECT count(*) FROM events").pluck().get() as number;

describe.each([
  ["in memory", memoryLog],
  ["on disk", fileLog],
])("refoldLog of a log %s", (where, open) => {
  let log: SqliteEventLog;
  let checkpoints: ReadonlyArray<Checkpoint>;
  beforeAll(async () => {
    log = open();
    await runHamlet(log, { days: 2, config: { checkpointEveryTicks: 4 } });
    checkpoints = log.read(MAIN).filter((e): e is Checkpoint => e.type === "Checkpoint");
  });

  it("rebuilds the run's events and read models, every checkpoint matching", () => {
    expect(checkpoints.length).toBeGreaterThan(5);
    let progress = 0;
    const report = refoldLog({
      log,
      saveId: MAIN,
      keepScratch: true,
      onProgress: (seq) => (progress = seq),
    });
    expect(report.mismatch).toBeNull();
    expect(report.checkpoints).toBe(checkpoints.length);
    expect(report.folded).toBe(log.head(MAIN));
    expect(progress).toBe(log.head(MAIN));
    expect(report.stateHash).toBe(log.projectionHash(MAIN));
    const scratch = report.scratch!;
    expect(scratch.projectionState(MAIN)).toEqual(log.projectionState(MAIN));
    expect(scratch.read(MAIN)).toEqual(log.read(MAIN));
    // Kept, the scratch answers searches like the run's store.
    const fts = "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'the'";
    const found = log.db.prepare(fts).pluck().get() as number;
    expect(found).toBeGreaterThan(0);
    expect(scratch.db.prepare(fts).pluck().get()).toBe(found);
    scratch.db.close();
  });

  it("refolds to check only into a scratch it throws away, with the same checks and hash", () => {
    const into = fileLog();
    const report = refoldLog({ log, saveId: MAIN, into });
    expect(report.scratch).toBeNull();
    expect(report.mismatch).toBeNull();
    expect(report.checkpoints).toBe(checkpoints.length);
    expect(report.stateHash).toBe(log.projectionHash(MAIN));
    expect(into.projectionState(MAIN)).toEqual(log.projectionState(MAIN));
    // On disk nothing is copied; in memory the rows are the only way SQLite sees them.
    expect(eventRows(into)).toBe(where === "on disk" ? 0 : log.head(MAIN));
    into.db.close();
    // Its own scratch is closed before it returns.
    expect(refoldLog({ log, saveId: MAIN }).scratch).toBeNull();
  });

  it("stops at a checkpoint's seq − 1 with that checkpoint's hash, wherever asked", () => {
    for (const cp of [checkpoints[0]!, checkpoints[Math.floor(checkpoints.length / 2)]!]) {
      const report = refoldLog({ log, saveId: MAIN, untilSeq: cp.seq - 1 });
      expect(report.throughSeq).toBe(cp.seq - 1);
      expect(report.mismatch).toBeNull();
      expect(report.stateHash).toBe(cp.payload.stateHash);
    }
  });

  it("folds into a given store beside another save, the same as into a fresh one", () => {
    const into = new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });
    into.createSave({ saveId: ids.save("other"), campaignId: ids.campaign("c"), name: "other" });
    into.append(
      "other",
      0,
      log.read(MAIN, { toSeq: 40 }).map(({ seq, saveId, campaignId, ...e }) => e),
    );
    const otherHash = into.projectionHash("other");
    const report = refoldLog({ log, saveId: MAIN, into });
    expect(report.mismatch).toBeNull();
    expect(report.stateHash).toBe(log.projectionHash(MAIN));
    expect(into.projectionHash("other")).toBe(otherHash);
    into.db.close();
  });

  it("reports a changed log at the first checkpoint after the change, and with keepGoing every one after", () => {
    const copy = refoldLog({
      log,
      saveId: MAIN,
      checkpoints: false,
      keepScratch: true,
      into: open(),
    }).scratch!;
    const victim = copy
      .read(MAIN)
      .find((e) => e.type === "MemoryRecorded" && e.seq > checkpoints[2]!.seq)!;
    const payload = { ...victim.payload, text: "a memory rewritten after the run" };
    copy.db
      .prepare("UPDATE events SET payload = ? WHERE save_id = ? AND seq = ?")
      .run(JSON.stringify(payload), MAIN, victim.seq);
    const after = checkpoints.filter((c) => c.seq > victim.seq);

    const first = refoldLog({ log: copy, saveId: MAIN });
    expect(first.mismatch?.seq).toBe(after[0]!.seq);
    expect(first.mismatch?.expected).toBe(after[0]!.payload.stateHash);
    expect(first.throughSeq).toBe(after[0]!.seq - 1);
    expect(first.checkpoints).toBe(checkpoints.length - after.length);

    const all = refoldLog({ log: copy, saveId: MAIN, keepGoing: true });
    expect(all.mismatches.map((m) => m.seq)).toEqual(after.map((c) => c.seq));
    expect(all.throughSeq).toBe(log.head(MAIN));
    copy.db.close();
  });
});
