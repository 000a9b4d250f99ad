/**
 * The fast replay (`refoldLog`, the store's bulk import underneath): a run's log refolds
 * into a scratch that holds the same events and the same read models as the run wrote,
 * every Checkpoint matching; a changed log is caught at the first Checkpoint after the
 * change (and, with `keepGoing`, at every one after it); `untilSeq` stops where asked.
 */
import { ids, type StoredEvent } from "@hearsay/core";
import { refoldLog } from "@hearsay/engine";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIN, memoryLog, runHamlet } from "./fixtures.ts";

type Checkpoint = Extract<StoredEvent, { type: "Checkpoint" }>;

describe("refoldLog", () => {
  let log: SqliteEventLog;
  let checkpoints: ReadonlyArray<Checkpoint>;
  beforeAll(async () => {
    log = memoryLog();
    await runHamlet(log, { days: 2, config: { checkpointEveryTicks: 4 } });
    checkpoints = log.read(MAIN).filter((e): e is Checkpoint => e.type === "Checkpoint");
  });

  it("rebuilds the run's events and read models, every checkpoint matching", () => {
    expect(checkpoints.length).toBeGreaterThan(5);
    let progress = 0;
    const report = refoldLog({ log, saveId: MAIN, onProgress: (seq) => (progress = seq) });
    expect(report.mismatch).toBeNull();
    expect(report.checkpoints).toBe(checkpoints.length);
    expect(report.folded).toBe(log.head(MAIN));
    expect(progress).toBe(log.head(MAIN));
    expect(report.stateHash).toBe(log.projectionHash(MAIN));
    expect(report.scratch.projectionState(MAIN)).toEqual(log.projectionState(MAIN));
    expect(report.scratch.read(MAIN)).toEqual(log.read(MAIN));
    report.scratch.db.close();
  });

  it("stops at a checkpoint's seq − 1 with that checkpoint's hash, wherever asked", () => {
    for (const cp of [checkpoints[0]!, checkpoints[Math.floor(checkpoints.length / 2)]!]) {
      const report = refoldLog({ log, saveId: MAIN, untilSeq: cp.seq - 1 });
      expect(report.throughSeq).toBe(cp.seq - 1);
      expect(report.mismatch).toBeNull();
      expect(report.stateHash).toBe(cp.payload.stateHash);
      report.scratch.db.close();
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
    const copy = refoldLog({ log, saveId: MAIN, checkpoints: false }).scratch;
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
    for (const r of [first, all]) r.scratch.db.close();
    copy.db.close();
  });
});
