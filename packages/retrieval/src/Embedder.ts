/**
 * The Embedder port: text in, unit vectors out. Adapters (`HashingEmbedder`,
 * `OllamaEmbedder`) implement it; everything else sees only this interface. An embedder
 * names its `model` (it keys the embeddings cache and the index manifests, so vectors
 * from two models never mix) and its `dimensions`, checked when the adapter starts.
 */
import { type Effect, Schema } from "effect";

/** What went wrong talking to an embedding model. */
export const EmbedderFailure = Schema.Literals([
  "unreachable",
  "missing-model",
  "pull-failed",
  "dimension-mismatch",
  "bad-response",
]);
export type EmbedderFailure = typeof EmbedderFailure.Type;

/** An embedder could not produce vectors; `message` names the model, the cause and the fix. */
export class EmbedderError extends Schema.TaggedError<EmbedderError>()("EmbedderError", {
  model: Schema.String,
  reason: EmbedderFailure,
  detail: Schema.String,
}) {
  override get message(): string {
    return `embedder ${this.model}: ${this.reason}: ${this.detail}`;
  }
}

/** The embedder interface every adapter provides. */
export interface EmbedderShape {
  /** Stable model name, e.g. `hashing-v1-384` or `ollama:nomic-embed-text`. */
  readonly model: string;
  /** Length of every vector it returns. */
  readonly dimensions: number;
  /**
   * A synchronous embedding when the adapter needs no I/O (the hashing embedder); the
   * engine's hot loop uses it. `null` for model-backed adapters.
   */
  readonly embedSync: ((text: string) => Float32Array) | null;
  /**
   * True when `embedSync` is a pure function of the text, with no I/O and nothing to
   * record (the hashing embedder): a caller may keep a text's vector and use it again
   * rather than embed the text again. A live model's embedder is not: each of its calls
   * may be the one that fails and switches it, which a run records.
   */
  readonly pure?: boolean;
  /** Many texts at once, synchronously (one batched request where the adapter has I/O). */
  readonly embedManySync?: (texts: ReadonlyArray<string>) => ReadonlyArray<Float32Array>;
  /** Embeds a batch; vectors come back L2-normalised, in input order. */
  readonly embed: (
    texts: ReadonlyArray<string>,
  ) => Effect.Effect<ReadonlyArray<Float32Array>, EmbedderError>;
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export const normalize = (v: Float32Array): Float32Array => {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
};

/** Cosine similarity of two unit vectors (their dot product). */
export const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
};
