/**
 * The model servers chat calls go to: the configured `ollama.hosts`, or else the one
 * `ollama.host` with `ollama.concurrency` slots, serving every model.
 */
import type { MindConfig } from "../MindConfig.ts";
import { sameModel } from "./modelNames.ts";

export interface ModelHost {
  readonly url: string;
  /** Calls it takes at once (its OLLAMA_NUM_PARALLEL). */
  readonly concurrency: number;
  /** The models it serves; null: any. */
  readonly models: ReadonlyArray<string> | null;
}

/** The hosts a config names, in the order given. */
export const modelHosts = (
  config: Pick<MindConfig, "hosts" | "ollamaUrl" | "concurrency">,
): ReadonlyArray<ModelHost> =>
  config.hosts === null
    ? [{ url: config.ollamaUrl, concurrency: config.concurrency, models: null }]
    : config.hosts.map((h) => ({
        url: h.url,
        concurrency: h.concurrency,
        models: h.models ?? null,
      }));

/** Whether `host` serves `model`. */
export const servesModel = (host: ModelHost, model: string): boolean =>
  host.models === null || host.models.some((m) => sameModel(m, model));
