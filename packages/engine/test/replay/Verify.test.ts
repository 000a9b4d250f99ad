/**
 * Replay verification: a default run re-runs to the very same events and hashes; a run
 * whose behaviour was changed on purpose — an engine setting, a dossier that is not what
 * was recorded (so a recorded answer is missing), a tampered log — is reported at the
 * exact seq where it first differs, with both events and the state hashes on both sides.
 */
import { type Event, ids, type StoredEvent } from "@hearsay/core";
import {
  comparable,
  loadSimulation,
  recordedDossierRules,
  refoldLog,
  retrievalDossiers,
  runSimulation,
  type SimulationSpec,
  sameEvent,
  verifyLog,
} from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { hamlet, MAIN, memoryLog, recordedFixture, runHamlet } from "./fixtures.ts";
import { upcastWithOldVersions } from "./oldVersions.ts";

const DEEP = Boolean(process.env.HEARSAY_DEEP);

/** The first seq where two logs differ (or the shorter head + 1). */
const firstDifference = (a: SqliteEventLog, b: SqliteEventLog): number => {
  const x = a.read(MAIN);
  const y = b.read(MAIN);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (!sameEvent(x[i]!, y[i]!)) return i + 1;
  }
  return Math.min(x.length, y.length) + 1;
};

describe("replay --verify of the default world", () => {
  const days = DEEP ? 30 : 2;
  it(
    `passes for a ${days}-day run: every event and checkpoint identical, same state hash`,
    async () => {
      const sim = loadSimulation();
      const log = memoryLog();
      const saveId = ids.save("main");
      const summary = await runSimulation({
        world: sim.world,
        worldHash: sim.worldHash,
        lore: sim.lore,
        log,
        saveId,
        days,
        seed: 1,
        brain: ScriptedBrain.make(),
        recordBrain: false,
        dossiers: retrievalDossiers,
        resume: false,
      });
      expect(summary.finished).toBe(true);
      const checkpoints = log.read(saveId).filter((e) => e.type === "Checkpoint").length;
      expect(checkpoints).toBeGreaterThan(0);

      const report = await verifyLog({ log, saveId, simulation: (name) => loadSimulation(name) });
      expect(report.divergence).toBeNull();
      expect(report.ok).toBe(true);
      expect(report.compared).toBe(summary.head);
      expect(report.checkpoints).toBe(checkpoints);
      expect(report.brains).toEqual(["scripted"]);
      expect(report.stateHash).toBe(log.projectionHash(saveId));

      const refold = refoldLog({ log, saveId });
      expect(refold.mismatch).toBeNull();
      expect(refold.checkpoints).toBe(checkpoints);
      expect(refold.stateHash).toBe(log.projectionHash(saveId));
    },
    DEEP ? 3_600_000 : 300_000,
  );
});

describe("a replay that cannot match its log", () => {
  it("reports an engine setting changed on purpose at the first seq the two runs differ", async () => {
    const recorded = memoryLog();
    await runHamlet(recorded);
    const tweak = { memoryCap: 12, rumourChance: 0.9 };
    const changed = memoryLog();
    await runHamlet(changed, { config: tweak });
    const at = firstDifference(recorded, changed);
    expect(at).toBeLessThanOrEqual(recorded.head(MAIN));

    const report = await verifyLog({
      log: recorded,
      saveId: MAIN,
      simulation: hamlet(),
      config: tweak,
    });
    expect(report.ok).toBe(false);
    const d = report.divergence!;
    expect(d.seq).toBe(at);
    expect(report.compared).toBe(at - 1);
    expect(comparable(d.expected!)).toEqual(
      comparable(recorded.read(MAIN, { fromSeq: at, toSeq: at })[0]!),
    );
    expect(comparable(d.actual!)).toEqual(
      comparable(changed.read(MAIN, { fromSeq: at, toSeq: at })[0]!),
    );
    expect(d.t).toBe(d.expected!.t);
    expect(d.paths.length).toBeGreaterThan(0);
    expect(d.stateHashes.actual.throughSeq).toBeGreaterThanOrEqual(at);
    expect(d.stateHashes.expected.throughSeq).toBe(d.stateHashes.actual.throughSeq);
    if (d.lastCheckpoint !== null) expect(d.lastCheckpoint.seq).toBeLessThan(at);

    // The same run verified without the tweak agrees with itself.
    expect((await verifyLog({ log: recorded, saveId: MAIN, simulation: hamlet() })).ok).toBe(true);
  });

  it("reports a recorded answer that is missing (a changed prompt) at its call, never calling a model", async () => {
    const { log } = recordedFixture();
    const all = log.read(MAIN);
    // An act call whose NPC had no other call with a dossier (a profile) at that moment:
    // the tamper below changes the first dossier built for the NPC then.
    const profiled = new Set(
      all
        .filter((e) => e.type === "LlmCallRecorded" && e.payload.purpose !== "act")
        .map((e) => `${(e.payload as { npcId: string | null }).npcId}@${e.t}`),
    );
    const calls = all.filter(
      (e): e is Extract<StoredEvent, { type: "LlmCallRecorded" }> =>
        e.type === "LlmCallRecorded" &&
        e.payload.purpose === "act" &&
        e.t > 24 * 60 &&
        !profiled.has(`${e.payload.npcId}@${e.t}`),
    );
    const victim = calls[3]!;
    let tampered = false;
    const dossiers: SimulationSpec["dossiers"] = (l, s) => {
      // Without `deferred`, turns take the (tampered) whole dossier. The replay's log is
      // fresh, so the source is told the rules the fixture was recorded with.
      const { deferred, ...real } = retrievalDossiers(l, s, {
        dossierRules: recordedDossierRules(log, MAIN) ?? "moment",
      });
      void deferred;
      const tamper: typeof real.dossier = (req) => {
        const d = real.dossier(req);
        if (d === null || tampered || req.npcId !== victim.payload.npcId || req.t !== victim.t)
          return d;
        tampered = true;
        const [first, ...rest] = d.sections;
        const items = first!.items.map((item, i) =>
          i === 0 ? { ...item, text: `${item.text} (changed)` } : item,
        );
        return { ...d, sections: [{ ...first!, items }, ...rest] };
      };
      return { ...real, dossier: tamper };
    };
    const report = await verifyLog({
      log,
      saveId: MAIN,
      simulation: hamlet(),
      upcast: upcastWithOldVersions,
      dossiers,
    });
    const d = report.divergence!;
    expect(tampered).toBe(true);
    expect(d.seq).toBe(victim.seq);
    expect(d.type).toBe("LlmCallRecorded");
    expect(d.missingAnswer).toMatch(new RegExp(`no recorded act call for ${victim.payload.npcId}`));
    expect(d.paths).toContain("payload.error");
  });

  it("reports a tampered event at its seq; the fast replay at the first checkpoint after it", async () => {
    const log = memoryLog();
    await runHamlet(log, { config: { checkpointEveryTicks: 4 } });
    const target = log
      .read(MAIN)
      .find(
        (e): e is Extract<StoredEvent, { type: "WorldEventOccurred" }> =>
          e.type === "WorldEventOccurred" && e.t > 24 * 60,
      )!;
    const payload = { ...target.payload, text: `${target.payload.text} (rewritten)` };
    log.db
      .prepare("UPDATE events SET payload = ? WHERE save_id = ? AND seq = ?")
      .run(JSON.stringify(payload), MAIN, target.seq);

    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence?.seq).toBe(target.seq);
    expect(report.divergence?.paths).toEqual(["payload.text"]);
    expect(report.divergence?.stateHashes.expected.stateHash).not.toBe(
      report.divergence?.stateHashes.actual.stateHash,
    );

    const nextCheckpoint = log
      .read(MAIN)
      .find((e) => e.type === "Checkpoint" && e.seq > target.seq)!;
    const refold = refoldLog({ log, saveId: MAIN });
    expect(refold.mismatch?.seq).toBe(nextCheckpoint.seq);
    expect(refold.throughSeq).toBe(nextCheckpoint.seq - 1);
    expect(refoldLog({ log, saveId: MAIN, untilSeq: nextCheckpoint.seq - 1 }).mismatch).toBeNull();
  });

  it("compares only through --until, and says when the run stops short of the log", async () => {
    // A run's last tick only moves the clock, so a run ending at day 1 is the first part of
    // a longer one only when nothing else happened at its first midnight: the first seed
    // from 7 whose run is quiet then.
    const quietAt = (log: SqliteEventLog, t: number) =>
      log
        .read(MAIN)
        .filter((e) => e.t === t)
        .every((e) => e.type === "ClockAdvanced" || e.type === "Checkpoint");
    let log = memoryLog();
    let summary = await runHamlet(log, { days: 2 });
    for (let seed = 8; seed < 16 && !quietAt(log, 24 * 60); seed++) {
      log = memoryLog();
      summary = await runHamlet(log, { days: 2, seed });
    }
    expect(quietAt(log, 24 * 60)).toBe(true);
    const half = Math.floor(summary.head / 2);
    const partial = await verifyLog({ log, saveId: MAIN, simulation: hamlet(), untilSeq: half });
    expect(partial.ok).toBe(true);
    expect(partial.compared).toBe(half);

    // Re-running with an earlier end day stops before the log does.
    const started = log.read(MAIN, { toSeq: 1 })[0] as Extract<
      Event,
      { type: "SimulationStarted" }
    >;
    const shorter = { ...started, payload: { ...started.payload, endDay: 1 } };
    log.db
      .prepare("UPDATE events SET payload = ? WHERE save_id = ? AND seq = 1")
      .run(JSON.stringify(shorter.payload), MAIN);
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    const endOfDay1 = log.read(MAIN).filter((e) => e.t <= 24 * 60).length;
    expect(report.ok).toBe(false);
    expect(report.divergence?.seq).toBe(endOfDay1 + 1);
    expect(report.divergence?.actual).toBeNull();
    expect(report.divergence?.why).toMatch(
      new RegExp(`the run ended at seq ${endOfDay1}, but the log goes on`),
    );
  });
});
