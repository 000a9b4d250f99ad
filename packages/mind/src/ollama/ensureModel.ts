/**
 * Making sure a configured model is there before a run needs it: list the server's
 * models; pull a missing one, streaming its progress to a callback (the CLI draws the
 * bar); if the pull fails and another model of the same kind is installed, use that
 * one and say so; otherwise fail with the reason and the fix.
 */
import { Effect } from "effect";
import type { ProgressResponse } from "ollama";
import { type BrainTimeout, type BrainUnavailable, ModelNotFound } from "../BrainError.ts";
import { callOllama, type OllamaTransport } from "./callOllama.ts";
import { isEmbeddingModel, normalizeModel, sameModel } from "./modelNames.ts";

/** One progress line of a pull. `total`/`completed` are bytes of the current layer. */
export interface PullProgress {
  readonly model: string;
  readonly status: string;
  readonly digest: string | null;
  readonly total: number | null;
  readonly completed: number | null;
}

export interface EnsureModelOptions {
  readonly transport: OllamaTransport;
  readonly model: string;
  readonly kind: "chat" | "embedding";
  /** Installed models to prefer as a stand-in, in order (e.g. the fallback models). */
  readonly prefer?: ReadonlyArray<string>;
  readonly onProgress?: (progress: PullProgress) => void;
  /** For listing (default 10 s). */
  readonly timeoutMs?: number;
  /** For the whole pull (default 1 h). */
  readonly pullTimeoutMs?: number;
}

export interface EnsuredModel {
  readonly requested: string;
  /** The model to use: the requested one, or an installed stand-in. */
  readonly model: string;
  readonly pulled: boolean;
  /** Set when `model` stands in for `requested`. */
  readonly substitutedFor: string | null;
  /** One line for people: what happened. */
  readonly message: string;
}

/** Lists, pulls if missing, or picks an installed stand-in. */
export const ensureModel = (
  options: EnsureModelOptions,
): Effect.Effect<EnsuredModel, BrainUnavailable | BrainTimeout | ModelNotFound> =>
  Effect.gen(function* () {
    const { transport, model } = options;
    const listTimeout = options.timeoutMs ?? 10_000;
    const listed = yield* callOllama(transport, model, listTimeout, (c) => c.list());
    if (listed.models.some((m) => sameModel(m.name, model)))
      return {
        requested: model,
        model,
        pulled: false,
        substitutedFor: null,
        message: `${model} is installed`,
      };
    const pulled = yield* callOllama(
      transport,
      model,
      options.pullTimeoutMs ?? 3_600_000,
      async (c) => {
        const stream = await c.pull({ model, stream: true });
        // From here on the server is reachable: an error is the pull's own failure.
        try {
          let last: ProgressResponse | null = null;
          for await (const p of stream) {
            last = p;
            options.onProgress?.({
              model,
              status: p.status,
              digest: p.digest ?? null,
              total: typeof p.total === "number" ? p.total : null,
              completed: typeof p.completed === "number" ? p.completed : null,
            });
          }
          return last?.status === "success" ? null : "the pull ended without success";
        } catch (e) {
          return typeof e === "object" && e !== null && "message" in e
            ? String(e.message)
            : String(e);
        }
      },
    ).pipe(
      Effect.catchTag("ModelNotFound", (e) => Effect.succeed(e.reason)),
      Effect.catchIf(
        (e): e is BrainUnavailable => e._tag === "BrainUnavailable" && e.kind === "server_error",
        (e) => Effect.succeed(e.reason),
      ),
    );
    if (pulled === null)
      return {
        requested: model,
        model,
        pulled: true,
        substitutedFor: null,
        message: `pulled ${model}`,
      };
    const reason = pulled;
    const wantEmbedding = options.kind === "embedding";
    const ofKind = listed.models
      .filter((m) => isEmbeddingModel(m) === wantEmbedding)
      .map((m) => m.name);
    const preferred = (options.prefer ?? []).flatMap((p) =>
      ofKind.filter((name) => sameModel(name, p)),
    );
    const standIn = preferred[0] ?? [...ofKind].sort()[0];
    if (standIn === undefined)
      return yield* Effect.fail(
        new ModelNotFound({
          model,
          reason: `pull failed (${reason}) and no other ${options.kind} model is installed`,
        }),
      );
    return {
      requested: model,
      model: standIn,
      pulled: false,
      substitutedFor: model,
      message: `could not pull ${normalizeModel(model)} (${reason}); using installed ${standIn} instead`,
    };
  });
