/**
 * `hearsay doctor` for the brain: is each chat host of `ollama.hosts` up and holding
 * the models it is to serve; is the server reachable (and which version), which
 * models are installed, is the chat model there and how long is its context (from
 * /api/show), is the embedding model there and how many dimensions it gives — each
 * problem with the command or setting that fixes it. Never fails: an unreachable
 * server is a finding, not an error.
 */
import { Effect, Result } from "effect";
import type { ShowResponse } from "ollama";
import type { MindConfig } from "../MindConfig.ts";
import { callOllama, type OllamaTransport } from "./callOllama.ts";
import { modelHosts, servesModel } from "./modelHosts.ts";
import { sameModel } from "./modelNames.ts";

export interface DoctorProblem {
  readonly problem: string;
  readonly fix: string;
}

/** One model host of `ollama.hosts`: up or not, and whether the models it should serve are there. */
export interface DoctorHost {
  readonly url: string;
  readonly reachable: boolean;
  readonly version: string | null;
  /** The chat and fallback models this host serves by config, and which of them are missing. */
  readonly serves: ReadonlyArray<string>;
  readonly missing: ReadonlyArray<string>;
}

export interface DoctorReport {
  /** Each chat host (one: the server below, when `ollama.hosts` is not set). */
  readonly hosts: ReadonlyArray<DoctorHost>;
  readonly server: {
    readonly url: string;
    readonly reachable: boolean;
    readonly version: string | null;
  };
  readonly installed: ReadonlyArray<{
    readonly name: string;
    readonly size: number;
    readonly family: string | null;
  }>;
  readonly chatModel: {
    readonly name: string;
    readonly installed: boolean;
    readonly contextLength: number | null;
  };
  readonly embeddingModel: {
    readonly name: string;
    readonly installed: boolean;
    readonly dimensions: number | null;
  };
  readonly problems: ReadonlyArray<DoctorProblem>;
  readonly ok: boolean;
}

/** `model_info["<arch>.<key>"]`, whatever the architecture. */
const infoNumber = (show: ShowResponse, key: string): number | null => {
  const info = (show.model_info ?? {}) as unknown as Record<string, unknown>;
  const arch = info["general.architecture"];
  const direct = typeof arch === "string" ? info[`${arch}.${key}`] : undefined;
  if (typeof direct === "number") return direct;
  const found = Object.entries(info).find(
    ([k, v]) => k.endsWith(`.${key}`) && typeof v === "number",
  );
  return found === undefined ? null : (found[1] as number);
};

export interface DoctorOptions {
  readonly config: MindConfig;
  readonly fetch?: typeof fetch;
  /** Per request (default 5 s). */
  readonly timeoutMs?: number;
}

/** Checks each configured chat host: reachable, and holding the models it is to serve. */
const checkHosts = (
  options: DoctorOptions,
  timeout: number,
  problems: Array<DoctorProblem>,
): Effect.Effect<ReadonlyArray<DoctorHost>> =>
  Effect.forEach(modelHosts(options.config), (host, i) =>
    Effect.gen(function* () {
      const { config } = options;
      const transport: OllamaTransport =
        options.fetch === undefined ? { url: host.url } : { url: host.url, fetch: options.fetch };
      const serves = [config.chatModel, ...config.fallback].filter(
        (m) => m !== "scripted" && servesModel(host, m),
      );
      const where = `ollama.hosts[${i}] (${host.url})`;
      const version = yield* Effect.result(callOllama(transport, "", timeout, (c) => c.version()));
      if (Result.isFailure(version)) {
        // The server checked first is often the first host: say it once.
        if (host.url !== config.ollamaUrl)
          problems.push({
            problem: `no Ollama server at ${where} (${version.failure.message})`,
            fix: "start `ollama serve` there, or remove it from ollama.hosts; calls go to the other hosts meanwhile",
          });
        return { url: host.url, reachable: false, version: null, serves, missing: [] };
      }
      const listed = yield* Effect.result(callOllama(transport, "", timeout, (c) => c.list()));
      const installed = Result.isSuccess(listed) ? listed.success.models : [];
      const missing = serves.filter((m) => !installed.some((x) => sameModel(x.name, m)));
      for (const m of missing)
        problems.push({
          problem: `${m} is not installed on ${where}`,
          fix: `run \`ollama pull ${m}\` there, or list the models it has in ollama.hosts[${i}].models`,
        });
      return { url: host.url, reachable: true, version: version.success.version, serves, missing };
    }),
  );

export const doctorReport = (options: DoctorOptions): Effect.Effect<DoctorReport> =>
  Effect.gen(function* () {
    const { config } = options;
    const transport: OllamaTransport =
      options.fetch === undefined
        ? { url: config.ollamaUrl }
        : { url: config.ollamaUrl, fetch: options.fetch };
    const timeout = options.timeoutMs ?? 5_000;
    const problems: Array<DoctorProblem> = [];
    const chatName = config.chatModel;
    const embedName = config.embeddingModel;
    const version = yield* Effect.result(callOllama(transport, "", timeout, (c) => c.version()));
    if (Result.isFailure(version)) {
      problems.push({
        problem: `no Ollama server at ${config.ollamaUrl} (${version.failure.message})`,
        fix: "start it with `ollama serve`, or point OLLAMA_HOST / hearsay.config ollama.host at where it runs; the scripted brain works without it",
      });
      return {
        hosts: yield* checkHosts(options, timeout, config.hosts === null ? [] : problems),
        server: { url: config.ollamaUrl, reachable: false, version: null },
        installed: [],
        chatModel: { name: chatName, installed: false, contextLength: null },
        embeddingModel: { name: embedName, installed: false, dimensions: null },
        problems,
        ok: false,
      };
    }
    const listed = yield* Effect.result(callOllama(transport, "", timeout, (c) => c.list()));
    const models = Result.isSuccess(listed) ? listed.success.models : [];
    if (Result.isFailure(listed))
      problems.push({
        problem: `could not list models (${listed.failure.message})`,
        fix: "check the server's log; restart `ollama serve`",
      });
    const installed = models.map((m) => ({
      name: m.name,
      size: m.size,
      family: m.details?.family ?? null,
    }));
    const has = (name: string) => models.some((m) => sameModel(m.name, name));
    const show = (name: string) =>
      Effect.result(callOllama(transport, name, timeout, (c) => c.show({ model: name })));

    let contextLength: number | null = null;
    if (!has(chatName)) {
      problems.push({
        problem: `chat model ${chatName} is not installed`,
        fix: `run \`ollama pull ${chatName}\` (hearsay run pulls it too), or set ollama.chatModel to an installed model`,
      });
    } else {
      const shown = yield* show(chatName);
      if (Result.isSuccess(shown)) contextLength = infoNumber(shown.success, "context_length");
      if (contextLength === null)
        problems.push({
          problem: `could not read ${chatName}'s context length from /api/show`,
          fix: "update Ollama; hearsay will use ollama.numCtx as given",
        });
      else if (contextLength < config.numCtx)
        problems.push({
          problem: `ollama.numCtx is ${config.numCtx} but ${chatName} supports ${contextLength} tokens`,
          fix: `set ollama.numCtx to ${contextLength} or less, or choose a model with a longer context`,
        });
    }

    let dimensions: number | null = null;
    if (!has(embedName)) {
      problems.push({
        problem: `embedding model ${embedName} is not installed`,
        fix: `run \`ollama pull ${embedName}\`, or set ollama.embeddingModel; the hashing embedder works without it`,
      });
    } else {
      const shown = yield* show(embedName);
      if (Result.isSuccess(shown)) dimensions = infoNumber(shown.success, "embedding_length");
      if (dimensions === null) {
        const probe = yield* Effect.result(
          callOllama(transport, embedName, timeout * 6, (c) =>
            c.embed({ model: embedName, input: "hearsay doctor" }),
          ),
        );
        if (Result.isSuccess(probe)) dimensions = probe.success.embeddings[0]?.length ?? null;
        else
          problems.push({
            problem: `${embedName} did not embed a probe text (${probe.failure.message})`,
            fix: `check that ${embedName} is an embedding model`,
          });
      }
    }

    for (const entry of config.fallback) {
      if (entry !== "scripted" && !has(entry))
        problems.push({
          problem: `fallback model ${entry} is not installed`,
          fix: `run \`ollama pull ${entry}\` or remove it from "fallback"`,
        });
    }
    return {
      // One host is the server checked above: its findings are already among the problems.
      hosts: yield* checkHosts(options, timeout, config.hosts === null ? [] : problems),
      server: { url: config.ollamaUrl, reachable: true, version: version.success.version },
      installed,
      chatModel: { name: chatName, installed: has(chatName), contextLength },
      embeddingModel: { name: embedName, installed: has(embedName), dimensions },
      problems,
      ok: problems.length === 0,
    };
  });
