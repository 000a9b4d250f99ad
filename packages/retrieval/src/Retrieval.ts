/**
 * Retrieval as an Effect service: `search` and `dossier` for one NPC at one time. It
 * wraps a `RetrievalEngine` (the synchronous core the engine's hot loop may also call
 * directly) and adds what needs effects: embedding the query with a model-backed
 * embedder, and giving new rows their vectors before searching.
 */
import type { Dossier } from "@hearsay/core";
import { StoreDatabase } from "@hearsay/store";
import { Context, Effect, Layer } from "effect";
import { type DossierRequest, dossierFrame } from "./buildDossier.ts";
import { Embedder, type EmbedderError, type EmbedderShape } from "./Embedder.ts";
import { EmbeddingCache, vectorsFor } from "./EmbeddingCache.ts";
import type { SearchHit } from "./HybridSearch.ts";
import {
  RetrievalEngine,
  type RetrievalEngineOptions,
  type SearchRequest,
} from "./RetrievalEngine.ts";
import { VectorIndex, type VectorIndexes } from "./VectorIndex.ts";

/** The Retrieval service interface. */
export interface RetrievalShape {
  /** The synchronous engine underneath (for hot loops). */
  readonly engine: RetrievalEngine;
  readonly search: (req: SearchRequest) => Effect.Effect<ReadonlyArray<SearchHit>, EmbedderError>;
  readonly dossier: (req: DossierRequest) => Effect.Effect<Dossier | null, EmbedderError>;
}

/** Builds the service over an engine. */
export const makeRetrieval = (
  engine: RetrievalEngine,
  embedder: EmbedderShape,
  index: VectorIndexes | null,
): RetrievalShape => {
  /**
   * Catches the view up and, with a model-backed embedder, gives new and changed rows
   * their vectors (a synchronous embedder already did so inside the engine).
   */
  const prepare = (saveId: string) =>
    Effect.gen(function* () {
      const view = engine.view(saveId);
      if (index && !embedder.embedSync) {
        yield* index.update(engine.pending);
        engine.clearPending();
      }
      return view;
    });
  // Query vectors from a live model go through the same cache as row vectors, so a
  // replay over the same database asks the model nothing it was asked before.
  const cache = embedder.embedSync
    ? null
    : new EmbeddingCache(engine.db, embedder.model, embedder.dimensions);
  const embed = (text: string) =>
    embedder.embedSync || text.trim().length === 0
      ? Effect.succeed(null)
      : Effect.map(vectorsFor(embedder, cache, [text]), (vs) => vs[0] ?? null);
  return {
    engine,
    search: (req) =>
      Effect.gen(function* () {
        yield* prepare(req.saveId);
        const queryVector = req.queryVector ?? (yield* embed(req.query ?? ""));
        return engine.search(queryVector ? { ...req, queryVector } : req);
      }),
    dossier: (req) =>
      Effect.gen(function* () {
        const view = yield* prepare(req.saveId);
        const frame = dossierFrame(engine, view, req);
        if (!frame) return null;
        const queryVector = req.queryVector ?? (yield* embed(frame.queryText));
        return engine.dossier(queryVector ? { ...req, queryVector } : req);
      }),
  };
};

export class Retrieval extends Context.Service<Retrieval, RetrievalShape>()(
  "@hearsay/retrieval/Retrieval",
) {
  /** Retrieval over the store's database, the configured embedder and the vector index. */
  static readonly layer = (
    options: Omit<RetrievalEngineOptions, "log" | "embedder" | "index"> = {},
  ): Layer.Layer<Retrieval, never, StoreDatabase | Embedder | VectorIndex> =>
    Layer.effect(
      Retrieval,
      Effect.gen(function* () {
        const { db, log } = yield* StoreDatabase;
        const embedder = yield* Embedder;
        const index = yield* VectorIndex;
        const engine = new RetrievalEngine(db, { ...options, log, embedder, index });
        return makeRetrieval(engine, embedder, index);
      }),
    );
}
