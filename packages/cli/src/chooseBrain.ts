/**
 * The brain a run uses. `scripted` (the default) needs nothing. `ollama` reads the
 * config (hearsay.config and environment variables, decoded by Schema), makes sure the
 * chat model is installed — pulling it with a progress bar, or standing in another
 * installed model and saying so — and records every call in the log so a replay never
 * needs the server. An unreachable server is a warning, not a stop: each call then falls
 * back along the configured chain to the scripted brain, and the log says which answered.
 */
import {
  type BrainShape,
  ensureModel,
  loadMindConfig,
  modelHosts,
  OllamaBrain,
  ScriptedBrain,
  servesModel,
} from "@hearsay/mind";
import { Console, Effect } from "effect";
import { progressBar } from "./Progress.ts";

export interface ChosenBrain {
  readonly brain: BrainShape;
  readonly record: boolean;
}

export const chooseBrain = (opts: {
  readonly brain: "scripted" | "ollama";
  readonly model: string | undefined;
  readonly configPath: string | undefined;
  readonly quiet: boolean;
}) =>
  Effect.gen(function* () {
    if (opts.brain === "scripted")
      return { brain: ScriptedBrain.make(), record: false } as ChosenBrain;
    const loaded = yield* loadMindConfig(
      opts.configPath === undefined ? {} : { path: opts.configPath },
    );
    const wanted = opts.model ?? loaded.chatModel;
    let bar: ReturnType<typeof progressBar> | null = null;
    const ensured = yield* Effect.result(
      ensureModel({
        // The first host serving the chat model; `hearsay doctor` checks every host.
        transport: {
          url: (modelHosts(loaded).find((h) => servesModel(h, wanted)) ?? modelHosts(loaded)[0]!)
            .url,
        },
        model: wanted,
        kind: "chat",
        prefer: loaded.fallback.filter((f) => f !== "scripted"),
        onProgress: (p) => {
          if (p.total === null || p.completed === null) return;
          bar ??= progressBar(
            p.total,
            `pulling ${p.model} {bar} {percentage}% | ETA {eta_formatted}`,
            opts.quiet,
          );
          bar.update(p.completed, {});
        },
      }),
    );
    (bar as ReturnType<typeof progressBar> | null)?.stop();
    let model = wanted;
    if (ensured._tag === "Success") {
      model = ensured.success.model;
      if (ensured.success.pulled || ensured.success.substitutedFor !== null) {
        yield* Console.error(`hearsay: ${ensured.success.message}`);
      }
    } else {
      yield* Console.error(
        `hearsay: warning: ${ensured.failure.message} — every call will fall back to ${loaded.fallback.join(", then ")}`,
      );
    }
    return {
      brain: OllamaBrain.make({ config: { ...loaded, chatModel: model } }),
      record: true,
    } as ChosenBrain;
  });
