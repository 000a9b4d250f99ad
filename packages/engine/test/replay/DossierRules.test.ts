/**
 * The dossier rules are a fact of a run: a new run records the `steady` rules in its
 * `SimulationStarted`, and every source built on a save follows the rules it recorded —
 * `stable` for a run recorded under them, the `moment` rules for a run recorded before
 * the field existed, such as the committed fixture — so a recorded answer always meets
 * the dossier it was given.
 */
import { currentDossierRules, type GameTime, type LocationId, type NpcId } from "@hearsay/core";
import { recordedDossierRules, retrievalDossiers, verifyLog } from "@hearsay/engine";
import type { SqliteEventLog } from "@hearsay/store";
import { beforeAll, describe, expect, it } from "vitest";
import { hamlet, MAIN, memoryLog, runHamlet } from "./fixtures.ts";

let log: SqliteEventLog;

beforeAll(async () => {
  log = memoryLog();
  await runHamlet(log, { days: 2 });
});

/** Turns of every NPC every six hours, each with another place and company. */
const asks = () => {
  const world = hamlet().world;
  const npcs = world.npcs.map((n) => n.id as NpcId);
  const last = log.read(MAIN).at(-1)!.t;
  const out = [];
  for (let t = 24 * 60; t <= last; t += 6 * 60)
    for (const [i, npcId] of npcs.entries())
      out.push({
        npcId,
        t: t as GameTime,
        query: "what news of the harvest?",
        scene: {
          locationId: world.locations[i % world.locations.length]!.id as LocationId,
          present: npcs.filter((id) => id !== npcId).slice(i % 3, (i % 3) + 2),
        },
        npcTurn: true as const,
      });
  return out;
};

describe("dossier rules", () => {
  it("a new run records the current rules, and its replay builds by them", async () => {
    const started = log.read(MAIN, { toSeq: 1 })[0]!;
    expect(started.type).toBe("SimulationStarted");
    expect(currentDossierRules).toBe("steady");
    expect((started.payload as { dossierRules?: string }).dossierRules).toBe("steady");
    expect(recordedDossierRules(log, MAIN)).toBe("steady");
    expect(retrievalDossiers(log, MAIN).dossierRules).toBe("steady");
    expect((await verifyLog({ log, saveId: MAIN, simulation: hamlet() })).ok).toBe(true);
  });

  it("a source on a save follows the rules it recorded, and the rules build other dossiers", () => {
    const steady = retrievalDossiers(log, MAIN, { dossierRules: "steady" });
    const stable = retrievalDossiers(log, MAIN, { dossierRules: "stable" });
    const moment = retrievalDossiers(log, MAIN, { dossierRules: "moment" });
    const onNew = retrievalDossiers(log, MAIN);
    let differ = 0;
    let differStable = 0;
    for (const ask of asks()) {
      expect(onNew.dossier(ask)).toEqual(steady.dossier(ask));
      if (JSON.stringify(stable.dossier(ask)) !== JSON.stringify(moment.dossier(ask))) differ++;
      if (JSON.stringify(steady.dossier(ask)) !== JSON.stringify(stable.dossier(ask)))
        differStable++;
    }
    expect(differ).toBeGreaterThan(0);
    expect(differStable).toBeGreaterThan(0);
    const restart = (set: string) =>
      log.db.prepare(`UPDATE events SET payload = ${set} WHERE save_id = ? AND seq = 1`).run(MAIN);
    // The same save as a run recorded under the stable rules.
    restart("json_set(payload, '$.dossierRules', 'stable')");
    expect(recordedDossierRules(log, MAIN)).toBe("stable");
    const onStable = retrievalDossiers(log, MAIN);
    expect(onStable.dossierRules).toBe("stable");
    for (const ask of asks()) expect(onStable.dossier(ask)).toEqual(stable.dossier(ask));
    // The same save as a run recorded before the field: its start names no rules.
    restart("json_remove(payload, '$.dossierRules')");
    expect(recordedDossierRules(log, MAIN)).toBe("moment");
    const onOld = retrievalDossiers(log, MAIN);
    expect(onOld.dossierRules).toBeUndefined();
    for (const ask of asks()) expect(onOld.dossier(ask)).toEqual(moment.dossier(ask));
  });
});
