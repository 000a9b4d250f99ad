/** A small world run for half a day into a fresh database, for the chat and serve tests. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { loadSimulation, runSimulation, workspaceRoot } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";

export const tinyPath = join(workspaceRoot(), "packages", "engine", "test", "fixtures", "tiny");

/** A database file holding save "main" of the tiny world, run `ticks` hours from its start. */
export const tinyWorldDb = async (ticks = 8): Promise<string> => {
  const file = join(mkdtempSync(join(tmpdir(), "hearsay-talk-")), "world.db");
  const log = new SqliteEventLog(openDatabase(file));
  const sim = loadSimulation(tinyPath);
  await runSimulation({
    ...sim,
    log,
    saveId: ids.save("main"),
    days: 3,
    seed: 7,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: () => ({ dossier: () => null }),
    resume: false,
    maxTicks: ticks,
  });
  log.db.close();
  return file;
};
