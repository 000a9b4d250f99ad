/**
 * Relevance bench: recall@5 and MRR of the dossier's lore and memory sections on a hand-labelled set of questions about the default world.
 *
 *   pnpm bench relevance
 *
 * The set (test/fixtures/relevance/haskerry.json) holds questions about the Haskerry
 * lore and about a recorded scripted run (2 days, seed 1, run here first), each labelled
 * with the lore chunks and the asking NPC's memories that answer it. Each question is
 * asked as the NPC's dossier query at the end of the run, with no scene, and the
 * section's items are read in rank order (the lore and memory budgets are lifted so a
 * section lists every item it ranks; `in budget` says whether an answer made it into the
 * standard-budget section a turn sees). Rows, all in this one run on the same data:
 *
 *   - keywords only: no vectors (FTS and filters) — the floor;
 *   - hashing: the default hashing embedder — the baseline;
 *   - fixture model: vectors from the loopback Ollama fixture server (its own process),
 *     whose deterministic model is fitted on the texts it will embed (LSA over the lore
 *     and the run's memories, beside hashed TF-IDF; see testkit's conceptEmbedding) —
 *     what a run with `embedder: "ollama"` gets from a server, without downloading one.
 *
 * A dossier ranks by a sum of signals (place, people, recency, importance…) in which
 * similarity to the query is one term, so the `by vector alone` rows also rank the same
 * candidates — every lore chunk, every live memory of the asker — by cosine similarity
 * to the question only: the embedder's own quality, apart from the dossier's weights.
 */
import {
  cosine,
  type EmbedderShape,
  embeddingText,
  makeHashingEmbedder,
  ollamaRunEmbedder,
  RetrievalEngine,
  standardBudgets,
  VectorIndexes,
} from "@hearsay/retrieval";
import { startFixtureServerProcess } from "@hearsay/testkit";
import { Effect } from "effect";
import { printTable } from "./lib/printTable.ts";
import { readSet, resolveLabels, runLabelledWorld } from "./lib/relevanceSet.ts";
import { writeResults } from "./lib/writeResults.ts";

export default async (): Promise<void> => {
  const set = readSet();
  const { log, saveId, head, t } = await runLabelledWorld(set);
  const db = log.db;

  const labelled = resolveLabels(log, saveId, set);

  const corpus = [
    ...(db
      .prepare("SELECT text FROM lore_chunks WHERE save_id = ?")
      .pluck()
      .all(saveId) as Array<string>),
    ...(db
      .prepare("SELECT text FROM memories WHERE save_id = ?")
      .pluck()
      .all(saveId) as Array<string>),
  ];
  const server = await startFixtureServerProcess({ embedCorpus: corpus });
  const fixtureEmbedder = ollamaRunEmbedder({
    db,
    host: server.url,
    model: "nomic-embed-text",
    dimensions: 768,
    position: () => head,
    onSwitch: (s) => {
      throw new Error(`the fixture server failed: ${s.detail}`);
    },
  });

  const rows: Array<Array<string | number>> = [];
  const results: Array<Record<string, unknown>> = [];
  const configs: ReadonlyArray<{ name: string; embedder: EmbedderShape; vectors: boolean }> = [
    { name: "keywords only", embedder: makeHashingEmbedder(), vectors: false },
    { name: "hashing", embedder: makeHashingEmbedder(), vectors: true },
    { name: "fixture model", embedder: fixtureEmbedder, vectors: true },
  ];
  const lifted = { ...standardBudgets, lore: 1_000_000, memories: 1_000_000 };
  for (const config of configs) {
    const index = config.vectors
      ? Effect.runSync(
          VectorIndexes.open(db, config.embedder, { dbPath: null, store: { graph: false } }),
        ).index
      : null;
    const engine = new RetrievalEngine(db, {
      log,
      embedder: config.embedder,
      index,
      exactVectors: true,
    });
    for (const section of ["lore", "memories"] as const) {
      let recall = 0;
      let rr = 0;
      let inBudget = 0;
      let n = 0;
      const perQuestion: Array<Record<string, unknown>> = [];
      for (const { q, ...answers } of labelled) {
        const relevant = answers[section];
        if (relevant.size === 0) continue;
        n += 1;
        const ask = { saveId, npcId: q.npc, t, query: q.question, scene: null };
        const ranked = engine
          .dossier({ ...ask, budget: lifted })!
          .sections.find((s) => s.name === section)!
          .items.map((i) => i.id);
        const shown = engine
          .dossier(ask)!
          .sections.find((s) => s.name === section)!
          .items.map((i) => i.id);
        const top = ranked.slice(0, 5).filter((id) => relevant.has(id)).length;
        const first = ranked.findIndex((id) => relevant.has(id));
        recall += top / Math.min(5, relevant.size);
        rr += first < 0 ? 0 : 1 / (first + 1);
        if (shown.some((id) => relevant.has(id))) inBudget += 1;
        perQuestion.push({
          id: q.id,
          rank: first < 0 ? null : first + 1,
          top5: top,
          relevant: relevant.size,
        });
      }
      rows.push([config.name, section, n, recall / n, rr / n, inBudget / n]);
      results.push({
        embedder: config.name,
        model: config.embedder.model,
        section,
        questions: n,
        recallAt5: recall / n,
        mrr: rr / n,
        answerInStandardBudget: inBudget / n,
        perQuestion,
      });
    }
  }
  // The embedders alone: every candidate ranked by cosine similarity to the question.
  const loreRows = db
    .prepare("SELECT chunk_id, heading_path, text FROM lore_chunks WHERE save_id = ?")
    .raw()
    .all(saveId) as Array<[string, string, string]>;
  const memoryRows = db.prepare(
    "SELECT memory_id, text FROM memories WHERE save_id = ? AND owner_npc_id = ? AND gone_at IS NULL AND recorded_at <= ?",
  );
  for (const config of configs.filter((c) => c.vectors)) {
    const embed = (texts: ReadonlyArray<string>) =>
      config.embedder.embedManySync?.(texts) ?? texts.map(config.embedder.embedSync!);
    const loreVectors = embed(
      loreRows.map(([, path, text]) => embeddingText("lore", [path, text])),
    );
    for (const section of ["lore", "memories"] as const) {
      let recall = 0;
      let rr = 0;
      let n = 0;
      const perQuestion: Array<Record<string, unknown>> = [];
      for (const { q, ...answers } of labelled) {
        const relevant = answers[section];
        if (relevant.size === 0) continue;
        n += 1;
        const query = embed([q.question])[0]!;
        let ids: Array<string>;
        let vectors: ReadonlyArray<Float32Array>;
        if (section === "lore") {
          ids = loreRows.map(([id]) => id);
          vectors = loreVectors;
        } else {
          const mine = memoryRows.raw().all(saveId, q.npc, t) as Array<[string, string]>;
          ids = mine.map(([id]) => id);
          vectors = embed(mine.map(([, text]) => embeddingText("memories", [text])));
        }
        const ranked = ids
          .map((id, i) => ({ id, score: cosine(query, vectors[i]!) }))
          .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
          .map((x) => x.id);
        const top = ranked.slice(0, 5).filter((id) => relevant.has(id)).length;
        const first = ranked.findIndex((id) => relevant.has(id));
        recall += top / Math.min(5, relevant.size);
        rr += first < 0 ? 0 : 1 / (first + 1);
        perQuestion.push({
          id: q.id,
          rank: first < 0 ? null : first + 1,
          top5: top,
          of: ids.length,
        });
      }
      rows.push([`${config.name}, by vector alone`, section, n, recall / n, rr / n, "-"]);
      results.push({
        embedder: `${config.name}, by vector alone`,
        model: config.embedder.model,
        section,
        questions: n,
        recallAt5: recall / n,
        mrr: rr / n,
        perQuestion,
      });
    }
  }
  await server.stop();
  db.close();
  printTable(
    `relevance: ${labelled.length} labelled questions, ${set.run.simulation} after a ${set.run.days}-day scripted run (seed ${set.run.seed})`,
    ["embedder", "section", "questions", "recall@5", "MRR", "in budget"],
    rows,
    3,
  );
  const path = writeResults("relevance", {
    set: "test/fixtures/relevance/haskerry.json",
    rows: results,
  });
  console.log(`results: ${path}`);
};
