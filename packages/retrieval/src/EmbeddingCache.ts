/**
 * Vectors from a live embedding model, cached in SQLite's `embeddings` table by
 * (model, sha256 of the text), so rebuilding an index — or replaying a run — never calls
 * the model for a text it has embedded before. Not a projection: a content-addressed
 * cache of outcomes, written only here. The hashing embedder needs no cache (its
 * vectors are recomputed), so `vectorsFor` bypasses it.
 */
import { sha256 } from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";
import { Effect } from "effect";
import type { EmbedderError, EmbedderShape } from "./Embedder.ts";
import { prepare, type Statement } from "./prepare.ts";

export class EmbeddingCache {
  private readonly getStmt: Statement;
  private readonly putStmt: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    readonly model: string,
    readonly dimensions: number,
  ) {
    this.getStmt = prepare(
      db,
      "SELECT vector FROM embeddings WHERE model = ? AND text_hash = ? AND dim = ?",
    ).pluck();
    this.putStmt = prepare(
      db,
      "INSERT INTO embeddings (model, text_hash, dim, vector) VALUES (?, ?, ?, ?) ON CONFLICT (model, text_hash) DO UPDATE SET dim = excluded.dim, vector = excluded.vector",
    );
  }

  /** The cached vector for a text, if any. */
  get(text: string): Float32Array | undefined {
    const blob = this.getStmt.get(this.model, sha256(text), this.dimensions) as Buffer | undefined;
    if (!blob || blob.byteLength !== this.dimensions * 4) return undefined;
    const out = new Float32Array(this.dimensions);
    new Uint8Array(out.buffer).set(blob);
    return out;
  }

  /** Stores vectors for texts (one transaction). */
  putMany(texts: ReadonlyArray<string>, vectors: ReadonlyArray<Float32Array>): void {
    this.db.transaction(() => {
      texts.forEach((text, i) => {
        const v = vectors[i]!;
        this.putStmt.run(
          this.model,
          sha256(text),
          this.dimensions,
          Buffer.from(v.buffer, v.byteOffset, v.byteLength),
        );
      });
    })();
  }
}

/**
 * Vectors for texts, in order: recomputed by a synchronous embedder, otherwise read from
 * the cache and embedded (then cached) only where missing.
 */
export const vectorsFor = (
  embedder: EmbedderShape,
  cache: EmbeddingCache | null,
  texts: ReadonlyArray<string>,
): Effect.Effect<ReadonlyArray<Float32Array>, EmbedderError> => {
  const sync = syncVectors(embedder);
  if (sync) return Effect.sync(() => sync(texts));
  return Effect.gen(function* () {
    const out: Array<Float32Array | undefined> = texts.map((t) => cache?.get(t));
    const missing: Array<number> = [];
    out.forEach((v, i) => {
      if (!v) missing.push(i);
    });
    if (missing.length > 0) {
      const fresh = yield* embedder.embed(missing.map((i) => texts[i]!));
      cache?.putMany(
        missing.map((i) => texts[i]!),
        fresh,
      );
      missing.forEach((i, j) => {
        out[i] = fresh[j];
      });
    }
    return out as ReadonlyArray<Float32Array>;
  });
};

/**
 * How a synchronous embedder makes the vectors of many texts (its `embedManySync`, else
 * `embedSync` per text), as {@link vectorsFor} does; null for one that needs I/O.
 */
export const syncVectors = (
  embedder: EmbedderShape,
): ((texts: ReadonlyArray<string>) => ReadonlyArray<Float32Array>) | null => {
  const many = embedder.embedManySync;
  if (many) return many;
  const sync = embedder.embedSync;
  return sync ? (texts) => texts.map(sync) : null;
};
