/**
 * Shared pieces of the replay tests: the hamlet simulation (a six-NPC world with one
 * lore file, under test/fixtures/recorded/hamlet), runs of it, the recorded fixture log
 * and a loader that puts a JSONL export into a fresh database *as written* — old event
 * versions included, as an old database would hold them — by inserting the rows the
 * store's `events` table holds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type CampaignId, ids, type SaveId } from "@hearsay/core";
import {
  type ExportedEvent,
  type LoadedSimulation,
  loadSimulation,
  retrievalDossiers,
  runSimulation,
  type SimulationSpec,
  workspaceRoot,
} from "@hearsay/engine";
import { type BrainShape, BrainUnavailable, ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";

export const HAMLET_DIR = join(workspaceRoot(), "test", "fixtures", "recorded", "hamlet");
export const HAMLET_LOG = join(HAMLET_DIR, "log.jsonl");
export const MAIN: SaveId = ids.save("main");

let cached: LoadedSimulation | null = null;
/** The hamlet simulation definition. */
export const hamlet = (): LoadedSimulation => {
  cached ??= loadSimulation(join(HAMLET_DIR, "simulation"));
  return cached;
};

export const memoryLog = (): SqliteEventLog =>
  new SqliteEventLog(openDatabase(":memory:"), { snapshotEvery: 0 });

/** Runs the hamlet (scripted brain, seed 7, 3 days, real dossiers) unless told otherwise. */
export const runHamlet = (log: SqliteEventLog, over: Partial<SimulationSpec> = {}) => {
  const sim = hamlet();
  return runSimulation({
    world: sim.world,
    worldHash: sim.worldHash,
    lore: sim.lore,
    log,
    saveId: MAIN,
    days: 3,
    seed: 7,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: retrievalDossiers,
    resume: false,
    ...over,
  });
};

/** The lines of a JSONL text, parsed. */
export const parseJsonl = (text: string): ReadonlyArray<ExportedEvent> =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as ExportedEvent);

/** A fresh in-memory database holding the lines as stored rows of one save. */
export const loadJsonl = (text: string): SqliteEventLog => {
  const lines = parseJsonl(text);
  const log = memoryLog();
  const first = lines[0]!;
  log.createSave({
    saveId: ids.save(first.saveId),
    campaignId: first.campaignId as CampaignId,
    name: first.saveId,
  });
  const insert = log.db.prepare(
    "INSERT INTO events (save_id, seq, campaign_id, event_id, t, day, type, version, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  log.db.transaction(() => {
    for (const l of lines) {
      insert.run(
        l.saveId,
        l.seq,
        l.campaignId,
        l.id,
        l.t,
        l.day,
        l.type,
        l.version,
        JSON.stringify(l.payload),
      );
    }
    log.db
      .prepare("UPDATE saves SET head_seq = ? WHERE save_id = ?")
      .run(lines.length, first.saveId);
  })();
  return log;
};

/** The committed recorded fixture, loaded. */
export const recordedFixture = (): { readonly text: string; readonly log: SqliteEventLog } => {
  const text = readFileSync(HAMLET_LOG, "utf8");
  return { text, log: loadJsonl(text) };
};

/**
 * A brain that fails every call, counting them: what a replay that must answer from its
 * recording alone is given, so a call it asks shows as `calls() > 0`.
 */
export const refusingBrain = (): { readonly brain: BrainShape; readonly calls: () => number } => {
  let calls = 0;
  const brain: BrainShape = {
    name: "refuses",
    decide: () =>
      Effect.suspend(() => {
        calls += 1;
        return Effect.fail(
          new BrainUnavailable({
            brain: "refuses",
            model: "none",
            kind: "server_error",
            reason: "a verifying replay must not call a brain",
          }),
        );
      }),
  };
  return { brain, calls: () => calls };
};
