/**
 * The dossier source a run uses: the retrieval service over the run's own database —
 * knowledge-filtered hybrid search behind an in-memory view kept level with the log, the
 * deterministic hashing embedder, and the vector index saved beside the database file
 * (rebuilt from SQLite whenever it is missing, corrupt or stale). Vectors are ranked
 * exactly, never through an approximate graph (none is kept), so the index is only ever
 * a cache.
 *
 * The first catch-up that finds NPCs in the save also builds one throwaway dossier (the
 * first NPC's, at time 0, when it knows only the public lore): the dossier path's
 * one-time costs — compiling its code and regular expressions, measuring the lore's
 * texts for the token budget — are then paid while the run starts, not by the first
 * model call. A dossier only reads, and every cache behind it is a pure memo, so this
 * changes no dossier (and no log).
 */
import type { SaveId } from "@hearsay/core";
import {
  type DossierRequest,
  makeHashingEmbedder,
  RetrievalEngine,
  VectorIndexes,
} from "@hearsay/retrieval";
import type { SqliteEventLog } from "@hearsay/store";
import { Effect } from "effect";
import type { DossierAsk, DossierSource } from "./TickContext.ts";

export const retrievalDossiers = (log: SqliteEventLog, saveId: SaveId): DossierSource => {
  let engine = retrievalEngine(log);
  const requestOf = ({ npcId, t, query, scene }: DossierAsk): DossierRequest => ({
    saveId,
    npcId,
    t,
    query,
    scene: scene === null ? null : { locationId: scene.locationId, present: scene.present },
  });
  let warm = false;
  const warmUp = (): void => {
    if (warm) return;
    const npcs = engine.engine.view(saveId).npcs;
    if (npcs.size === 0) return;
    warm = true;
    let first = npcs.value(0);
    for (let i = 1; i < npcs.size; i++) if (npcs.value(i) < first) first = npcs.value(i);
    engine.engine.dossier({ saveId, npcId: first, t: 0, query: null, scene: null });
  };
  return {
    dossier: (ask) => engine.engine.dossier(requestOf(ask)),
    // A turn's sections are built as its brain reads them: the scripted brain reads one to four.
    deferred: (ask) => engine.engine.deferredDossier(requestOf(ask)),
    flush: () => {
      engine.engine.view(saveId);
      engine.index.save();
    },
    refresh: () => {
      engine.engine.view(saveId);
      warmUp();
    },
    // The view and the in-memory vectors may hold rows that were rolled back: start over.
    reset: () => {
      engine = retrievalEngine(log);
    },
  };
};

const retrievalEngine = (log: SqliteEventLog) => {
  const embedder = makeHashingEmbedder();
  // Exact vector ranking: a run must write the same log whether its index grew with it
  // or was rebuilt when it resumed. So the index keeps no approximate graph either (its
  // upkeep on every new memory was a fifth of a run's CPU); whoever opens the database
  // for approximate search later builds one from the vectors.
  const { index } = Effect.runSync(
    VectorIndexes.open(log.db, embedder, { store: { graph: false } }),
  );
  return {
    index,
    engine: new RetrievalEngine(log.db, { log, embedder, index, exactVectors: true }),
  };
};
