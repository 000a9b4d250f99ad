/**
 * `hearsay stats` shows the engine snapshots a resume would start from: how many, how
 * big, the newest seq — and says so when there are none.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { loadSimulation, retrievalDossiers, runSimulation } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { EngineSnapshotStore, openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, describe, expect, it } from "vitest";
import { hearsay, ROOT } from "./runCli.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-stats-snapshots-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 2-day hamlet run into a file, with an engine snapshot every `every` events. */
const runInto = async (path: string, every: number) => {
  const sim = loadSimulation(join(ROOT, "test", "fixtures", "recorded", "hamlet", "simulation"));
  const db = openDatabase(path);
  try {
    const log = new SqliteEventLog(db);
    await runSimulation({
      world: sim.world,
      worldHash: sim.worldHash,
      lore: sim.lore,
      log,
      saveId: ids.save("main"),
      days: 2,
      seed: 7,
      brain: ScriptedBrain.make(),
      recordBrain: false,
      dossiers: retrievalDossiers,
      resume: false,
      config: { snapshotEveryEvents: every, snapshotsKept: 2 },
    });
    return new EngineSnapshotStore(db).of("main");
  } finally {
    db.close();
  }
};

describe("hearsay stats: engine snapshots", () => {
  it("counts them, sizes them and names the newest; says none when there are none", async () => {
    const withSnaps = join(dir, "with.db");
    const kept = await runInto(withSnaps, 100);
    expect(kept).toHaveLength(2);
    const bytes = kept.reduce((a, k) => a + k.bytes, 0);
    const text = await hearsay("stats", "--db", withSnaps);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `engine snapshots: 2, ${(bytes / 2 ** 20).toFixed(1)} MiB stored, newest at seq ${kept[1]!.seq}`,
    );
    const json = await hearsay("stats", "--db", withSnaps, "--json");
    expect(JSON.parse(json.stdout).engineSnapshots).toEqual({
      saveId: "main",
      count: 2,
      bytes,
      newestSeq: kept[1]!.seq,
    });

    const without = join(dir, "without.db");
    expect(await runInto(without, 0)).toHaveLength(0);
    const none = await hearsay("stats", "--db", without);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("engine snapshots: none");
  }, 120_000);
});
