/**
 * The embedder a run ranks by meaning with. Config `embedder` ("hashing" | "ollama";
 * default: ollama with the ollama brain, else hashing). With ollama, the embedding model
 * (`ollama.embeddingModel`, default nomic-embed-text) is pulled with a progress bar when
 * missing and probed for its dimension before the run; an unreachable server at start
 * is a warning and the run ranks with hashing (recorded as such), except a save that
 * already embeds with that model, which keeps it and falls back — recorded — only if
 * the server still fails when a text needs a vector.
 */
import { type DossierEmbedding, liveEmbedding, recordedEmbedding } from "@hearsay/engine";
import { loadMindConfig } from "@hearsay/mind";
import { embedderLabel, makeOllamaEmbedder, parseEmbedderLabel } from "@hearsay/retrieval";
import type { SqliteEventLog } from "@hearsay/store";
import { Console, Effect } from "effect";
import { progressBar } from "./Progress.ts";

export const chooseEmbedder = (opts: {
  readonly brain: "scripted" | "ollama";
  readonly configPath: string | undefined;
  readonly quiet: boolean;
  readonly log: SqliteEventLog;
  readonly saveId: string;
}) =>
  Effect.gen(function* () {
    const config = yield* loadMindConfig(
      opts.configPath === undefined ? {} : { path: opts.configPath },
    );
    const choice = config.embedder ?? (opts.brain === "ollama" ? "ollama" : "hashing");
    if (choice === "hashing") return null as DossierEmbedding | null;
    const model = config.embeddingModel;
    let bar: ReturnType<typeof progressBar> | null = null;
    const probed = yield* Effect.result(
      makeOllamaEmbedder({
        host: config.ollamaUrl,
        model,
        onPullProgress: (p) => {
          if (p.total <= 0) return;
          bar ??= progressBar(
            p.total,
            `pulling ${model} {bar} {percentage}% | ETA {eta_formatted}`,
            opts.quiet,
          );
          bar.update(Math.min(p.completed, p.total), {});
        },
      }),
    );
    (bar as ReturnType<typeof progressBar> | null)?.stop();
    const recorded = recordedEmbedding(opts.log, opts.saveId).label;
    const kept = recorded === null ? null : parseEmbedderLabel(recorded);
    const base = {
      host: config.ollamaUrl,
      model,
      log: opts.log,
      saveId: opts.saveId,
      timeoutMs: config.timeoutMs,
    };
    if (probed._tag === "Success") {
      const dimensions = probed.success.dimensions;
      return liveEmbedding({ ...base, dimensions, label: embedderLabel(model, dimensions) });
    }
    if (kept !== null && kept.model === model) {
      yield* Console.error(
        `hearsay: warning: ${probed.failure.message} — the save keeps ${recorded} from its cached vectors and falls back to hashing where one is missing`,
      );
      return liveEmbedding({ ...base, dimensions: kept.dimensions, label: recorded! });
    }
    yield* Console.error(
      `hearsay: warning: ${probed.failure.message} — this run ranks with the hashing embedder`,
    );
    return null;
  });
