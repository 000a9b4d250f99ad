/**
 * The Ollama adapter of the Embedder port: batched `/api/embed` calls through the
 * `ollama` client, `nomic-embed-text` by default. At start-up it checks the model is on
 * the server (pulling it with progress when it is not) and measures the vector length
 * with one probe call, so a wrong dimension is one clear error before any work, not a
 * corrupt index later. Every batch is checked again (count and length).
 */
import { Effect } from "effect";
import { Ollama } from "ollama";
import { EmbedderError, type EmbedderShape, normalize } from "./Embedder.ts";

/** Pull progress, as the server streams it. */
export interface PullProgress {
  readonly status: string;
  readonly completed: number;
  readonly total: number;
}

/** Options for {@link makeOllamaEmbedder}. */
export interface OllamaEmbedderOptions {
  /** Server URL (default `http://127.0.0.1:11434`). */
  readonly host?: string;
  /** Embedding model (default `nomic-embed-text`). */
  readonly model?: string;
  /** The vector length the caller expects; a model giving another is an error. */
  readonly dimensions?: number;
  /** Texts per `/api/embed` request (default 64). */
  readonly batchSize?: number;
  /** Pull the model when the server does not have it (default true). */
  readonly pull?: boolean;
  /** Called with each pull progress line. */
  readonly onPullProgress?: (p: PullProgress) => void;
  /** A fetch to use instead of the global one. */
  readonly fetch?: typeof fetch;
}

const detailOf = (u: unknown): string => (u instanceof Error ? u.message : String(u));

const withTag = (name: string): string => (name.includes(":") ? name : `${name}:latest`);

/**
 * Connects to the server, makes sure the model is there (pulling it if allowed), checks
 * its dimension, and returns the embedder.
 */
export const makeOllamaEmbedder = (
  options: OllamaEmbedderOptions = {},
): Effect.Effect<EmbedderShape, EmbedderError> =>
  Effect.gen(function* () {
    const host = options.host ?? "http://127.0.0.1:11434";
    const model = options.model ?? "nomic-embed-text";
    const name = `ollama:${model}`;
    const batchSize = Math.max(1, options.batchSize ?? 64);
    const client = new Ollama(options.fetch ? { host, fetch: options.fetch } : { host });
    const fail = (reason: EmbedderError["reason"], detail: string) =>
      new EmbedderError({ model: name, reason, detail });

    const listed = yield* Effect.tryPromise({
      try: () => client.list(),
      catch: (e) =>
        fail(
          "unreachable",
          `cannot reach Ollama at ${host} (${detailOf(e)}); start \`ollama serve\` or set the host`,
        ),
    });
    const present = listed.models.some((m) => withTag(m.name) === withTag(model));
    if (!present) {
      if (options.pull === false) {
        return yield* Effect.fail(
          fail("missing-model", `${model} is not on ${host}; run \`ollama pull ${model}\``),
        );
      }
      yield* Effect.tryPromise({
        try: async () => {
          const stream = await client.pull({ model, stream: true });
          for await (const p of stream) {
            options.onPullProgress?.({
              status: p.status,
              completed: p.completed ?? 0,
              total: p.total ?? 0,
            });
          }
        },
        catch: (e) =>
          fail(
            "pull-failed",
            `pulling ${model} from ${host} failed (${detailOf(e)}); run \`ollama pull ${model}\` by hand`,
          ),
      });
    }

    const call = (texts: ReadonlyArray<string>) =>
      Effect.tryPromise({
        try: () => client.embed({ model, input: [...texts] }),
        catch: (e) => fail("unreachable", `embed call to ${host} failed: ${detailOf(e)}`),
      });

    const probe = yield* call(["hearsay dimension probe"]);
    const dims = probe.embeddings[0]?.length ?? 0;
    if (dims === 0)
      return yield* Effect.fail(fail("bad-response", "the server returned no vector"));
    if (options.dimensions !== undefined && options.dimensions !== dims) {
      return yield* Effect.fail(
        fail(
          "dimension-mismatch",
          `${model} returns ${dims}-dimensional vectors but ${options.dimensions} are configured; set dimensions to ${dims} (and run \`hearsay index rebuild\`) or choose a ${options.dimensions}-dimensional model`,
        ),
      );
    }

    const embed = (texts: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const out: Array<Float32Array> = [];
        for (let i = 0; i < texts.length; i += batchSize) {
          const batch = texts.slice(i, i + batchSize);
          const r = yield* call(batch);
          if (r.embeddings.length !== batch.length) {
            return yield* Effect.fail(
              fail("bad-response", `asked for ${batch.length} vectors, got ${r.embeddings.length}`),
            );
          }
          for (const e of r.embeddings) {
            if (e.length !== dims) {
              return yield* Effect.fail(
                fail(
                  "dimension-mismatch",
                  `got a ${e.length}-dimensional vector, expected ${dims}`,
                ),
              );
            }
            out.push(normalize(Float32Array.from(e)));
          }
        }
        return out as ReadonlyArray<Float32Array>;
      });

    return { model: name, dimensions: dims, embedSync: null, embed } satisfies EmbedderShape;
  });
