/**
 * What a vector index answers, as comparable data: for a fixed set of NPCs, times and
 * queries, every search hit (collection, id, score) and every rendered dossier. Two
 * indexes serve the same results exactly when their probes are equal.
 */
import { ids, renderDossier } from "@hearsay/core";
import {
  VectorIndexes as Indexes,
  type IndexReport,
  makeHashingEmbedder,
  RetrievalEngine,
  type VectorIndexes,
  type VectorIndexOptions,
} from "@hearsay/retrieval";
import type { SqliteDatabase, SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";

export const SAVE = ids.save("main");

const queries = [null, "the ford is rising", "salt and lamps"];

/** Opens the index beside the database the way a run does (loading what it can). */
export const openIndex = (
  db: SqliteDatabase,
  /** null: keep the index in memory only (a rebuild from SQLite, no files). */
  dbPath: string | null,
  options: Omit<VectorIndexOptions, "dbPath">,
): { readonly index: VectorIndexes; readonly reports: ReadonlyArray<IndexReport> } =>
  Effect.runSync(Indexes.open(db, makeHashingEmbedder(), { ...options, dbPath }));

/** Every probe's answers through `index`. */
export const probe = (
  db: SqliteDatabase,
  log: SqliteEventLog,
  index: VectorIndexes,
): ReadonlyArray<string> => {
  const engine = new RetrievalEngine(db, { log, embedder: makeHashingEmbedder(), index });
  const npcs = (
    db
      .prepare("SELECT npc_id FROM characters WHERE save_id = ? ORDER BY npc_id")
      .all(SAVE) as Array<{
      npc_id: string;
    }>
  )
    .map((r) => r.npc_id)
    .filter((_, i) => i % 20 === 0);
  const t = (
    db.prepare("SELECT max(t) AS t FROM events WHERE save_id = ?").get(SAVE) as { t: number }
  ).t;
  const out: Array<string> = [];
  for (const npcId of npcs) {
    for (const query of queries) {
      for (const at of [t, t - 600]) {
        const hits = engine.search({ saveId: SAVE, npcId, t: at, query, limit: 10 });
        out.push(
          `${npcId}@${at} ${query}: ${hits.map((h) => `${h.collection}/${h.id}=${h.score.toFixed(9)}`).join(" ")}`,
        );
        const dossier = engine.dossier({ saveId: SAVE, npcId, t: at, query, scene: null });
        out.push(
          `${npcId}@${at} ${query} dossier: ${dossier === null ? "none" : renderDossier(dossier)}`,
        );
      }
    }
  }
  return out;
};
