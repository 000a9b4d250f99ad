/**
 * The two ways a run embeds through a live model, both `FallbackEmbedder`s over the
 * database's embeddings cache: a run's, which asks the server (batched, through a worker
 * so the engine's dossier path stays synchronous) for what the cache lacks; and a
 * replay's, which reads only the cache — a text it lacks is a failure, so it falls back
 * where the run did — and never reaches a server. The label a run records
 * (`ollama:<model>@<dimensions>`) is all a replay needs to rebuild it.
 */
import type { SqliteDatabase } from "@hearsay/store";
import { BlockingEmbedClient } from "./BlockingEmbedClient.ts";
import { EmbedderError } from "./Embedder.ts";
import { EmbeddingCache } from "./EmbeddingCache.ts";
import {
  type EmbedderSwitch,
  type FallbackEmbedder,
  makeFallbackEmbedder,
  type RecordedSwitch,
} from "./FallbackEmbedder.ts";

/** `ollama:<model>@<dimensions>`, what a run records as its embedder. */
export const embedderLabel = (model: string, dimensions: number): string =>
  `ollama:${model}@${dimensions}`;

/** The model and dimension of a recorded label, or null when it is not one. */
export const parseEmbedderLabel = (
  label: string,
): { readonly model: string; readonly dimensions: number } | null => {
  const m = /^ollama:(.+)@(\d+)$/.exec(label);
  return m ? { model: m[1]!, dimensions: Number(m[2]) } : null;
};

interface Common {
  readonly db: SqliteDatabase;
  readonly model: string;
  readonly dimensions: number;
  readonly position: () => number;
  readonly onSwitch: (s: EmbedderSwitch) => void;
}

/** A run's embedder: cache first, then the server; hashing after a failure. */
export const ollamaRunEmbedder = (
  options: Common & {
    readonly host: string;
    readonly batchSize?: number;
    readonly timeoutMs?: number;
    /** The log already records a fallback (a resumed run): embed with hashing. */
    readonly startSwitched?: boolean;
  },
): FallbackEmbedder => {
  let client: BlockingEmbedClient | null = null;
  return makeFallbackEmbedder({
    model: `ollama:${options.model}`,
    dimensions: options.dimensions,
    cache: new EmbeddingCache(options.db, `ollama:${options.model}`, options.dimensions),
    position: options.position,
    onSwitch: (s) => {
      client?.close();
      client = null;
      options.onSwitch(s);
    },
    startSwitched: options.startSwitched === true,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    embedBatch: (texts) => {
      client ??= new BlockingEmbedClient({
        host: options.host,
        model: options.model,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      return client.embed(texts, options.dimensions);
    },
  });
};

/** A replay's embedder: the cache only, switching where the run recorded it did. */
export const cachedReplayEmbedder = (
  options: Common & {
    readonly switchAt: RecordedSwitch | null;
  },
): FallbackEmbedder => {
  const name = `ollama:${options.model}`;
  return makeFallbackEmbedder({
    model: name,
    dimensions: options.dimensions,
    cache: new EmbeddingCache(options.db, name, options.dimensions),
    position: options.position,
    onSwitch: options.onSwitch,
    switchAt: options.switchAt,
    embedBatch: (texts) => {
      throw new EmbedderError({
        model: name,
        reason: "unreachable",
        detail: `replay found no cached vector for ${texts.length} text(s) and never calls a server`,
      });
    },
  });
};
