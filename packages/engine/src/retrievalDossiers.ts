/**
 * The dossier source a run uses: the retrieval service over the run's own database —
 * knowledge-filtered hybrid search behind an in-memory view kept level with the log, the
 * deterministic hashing embedder, and the vector index saved beside the database file
 * (rebuilt from SQLite whenever it is missing, corrupt or stale).
 */
import type { SaveId } from "@hearsay/core";
import { makeHashingEmbedder, RetrievalEngine, VectorIndexes } from "@hearsay/retrieval";
import type { SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import type { DossierSource } from "./TickContext.ts";

export const retrievalDossiers = (log: SqliteEventLog, saveId: SaveId): DossierSource => {
  const embedder = makeHashingEmbedder();
  const { index } = Effect.runSync(VectorIndexes.open(log.db, embedder));
  const engine = new RetrievalEngine(log.db, { log, embedder, index });
  return {
    dossier: ({ npcId, t, query, scene }) =>
      engine.dossier({
        saveId,
        npcId,
        t,
        query,
        scene: scene === null ? null : { locationId: scene.locationId, present: scene.present },
      }),
    flush: () => {
      engine.view(saveId);
      index.save();
    },
  };
};
