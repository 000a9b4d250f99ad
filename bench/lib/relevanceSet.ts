/**
 * The labelled relevance set (test/fixtures/relevance/haskerry.json) and the run it is
 * labelled against. Memory labels name phrases of memories the scripted run leaves, so a
 * change to what the run does can leave a label matching nothing: `resolveLabels` lists
 * every such label at once, and a test (test/relevance/labels.test.ts) keeps the set
 * resolvable, so the bench never finds out first.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids, type SaveId } from "@hearsay/core";
import { loadSimulation, retrievalDossiersWith, runSimulation } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";

export interface Question {
  readonly id: string;
  readonly npc: string;
  readonly question: string;
  readonly lore?: ReadonlyArray<string>;
  readonly memories?: ReadonlyArray<string>;
}
export interface LabelledSet {
  readonly run: { readonly simulation: string; readonly days: number; readonly seed: number };
  readonly questions: ReadonlyArray<Question>;
}
export interface LabelledQuestion {
  readonly q: Question;
  readonly lore: ReadonlySet<string>;
  readonly memories: ReadonlySet<string>;
}

export const setPath = join(
  import.meta.dirname,
  "..",
  "..",
  "test",
  "fixtures",
  "relevance",
  "haskerry.json",
);

export const readSet = (): LabelledSet => JSON.parse(readFileSync(setPath, "utf8")) as LabelledSet;

/** Runs the set's scripted run into a fresh database and returns its log and end time. */
export const runLabelledWorld = async (set: LabelledSet) => {
  const sim = loadSimulation(set.run.simulation);
  const dbPath = join(mkdtempSync(join(tmpdir(), "hearsay-relevance-")), "run.db");
  const log = new SqliteEventLog(openDatabase(dbPath));
  const saveId = ids.save("main") as SaveId;
  await runSimulation({
    world: sim.world,
    worldHash: sim.worldHash,
    lore: sim.lore,
    log,
    saveId,
    days: set.run.days,
    seed: set.run.seed,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    // The set is labelled against this run as it was recorded, under the `moment` dossier
    // rules: the scripted brain's lines draw on its dossiers, so under other rules the run
    // (and the memories it leaves) would differ from the one labelled. Questions are
    // ranked alike under both rules (their lore and memories follow the question).
    dossiers: retrievalDossiersWith({ dossierRules: "moment" }),
    resume: false,
  });
  const head = log.head(saveId);
  const t = log.read(saveId, { fromSeq: head })[0]!.t;
  return { log, saveId, head, t };
};

/**
 * Labels → ids: every chunk, or every live memory of the asker, containing the phrase.
 * Labels that match nothing are all named in one error.
 */
export const resolveLabels = (
  log: SqliteEventLog,
  saveId: SaveId,
  set: LabelledSet,
): ReadonlyArray<LabelledQuestion> => {
  const loreIds = log.db.prepare(
    "SELECT chunk_id FROM lore_chunks WHERE save_id = ? AND instr(text, ?) > 0",
  );
  const memoryIds = log.db.prepare(
    "SELECT memory_id FROM memories WHERE save_id = ? AND owner_npc_id = ? AND gone_at IS NULL AND instr(text, ?) > 0",
  );
  const misses: Array<string> = [];
  const resolve = (q: Question, kind: "lore" | "memories"): Set<string> => {
    const out = new Set<string>();
    for (const label of q[kind] ?? []) {
      const rows = (
        kind === "lore"
          ? loreIds.pluck().all(saveId, label)
          : memoryIds.pluck().all(saveId, q.npc, label)
      ) as Array<string>;
      if (rows.length === 0) misses.push(`${q.id}: ${kind} label ${JSON.stringify(label)}`);
      for (const r of rows) out.add(r);
    }
    return out;
  };
  const labelled = set.questions.map((q) => ({
    q,
    lore: resolve(q, "lore"),
    memories: resolve(q, "memories"),
  }));
  if (misses.length > 0)
    throw new Error(
      `${setPath}: ${misses.length} label(s) match nothing in the labelled run; relabel them against what the run now leaves: ${misses.join("; ")}`,
    );
  return labelled;
};
