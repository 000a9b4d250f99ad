/**
 * A streamed reply from an Ollama model: the chat is asked with `stream: true` and the
 * purpose's JSON Schema as its format, and the words of the answer's leading `text`
 * field are handed on as they arrive, before the object is complete. The finished
 * answer is decoded and id-checked like any other; if the stream fails or the answer
 * does not decode, the fallback brain (normally the full Ollama brain with its retries
 * and fallback chain) answers instead, and the listener is told to start over.
 */
import { Prng, type RejectedSpend } from "@hearsay/core";
import { Effect, Result } from "effect";
import type { Message } from "ollama";
import type { BrainAnswer, BrainRequest, BrainShape } from "../Brain.ts";
import type { BrainError } from "../BrainError.ts";
import {
  addRejected,
  noRejected,
  rejectedMeta,
  rejectedOf,
  withRejected,
} from "../llmCallPayload.ts";
import type { MindConfig } from "../MindConfig.ts";
import { renderPrompt } from "../Prompt.ts";
import type { PurposeName } from "../Purpose.ts";
import { routeOf } from "../policy/BrainPolicy.ts";
import { callOllama, type OllamaTransport } from "./callOllama.ts";
import { decodeAnswer } from "./decodeAnswer.ts";
import { outputFormat } from "./outputFormat.ts";
import { textFieldPrefix } from "./textFieldPrefix.ts";

/** Where streamed words go. */
export interface ReplyListener {
  /** More of the reply's text. */
  text(delta: string): void;
  /** What was shown so far is void: the answer comes again from the start. */
  restart(): void;
}

/** Asks a brain for an answer, streaming its `text` field to a listener as it comes. */
export type ReplyStreamer = <P extends PurposeName>(
  request: BrainRequest<P>,
  listener: ReplyListener,
) => Effect.Effect<BrainAnswer<P>, BrainError>;

export interface StreamOllamaReplyOptions {
  readonly config: MindConfig;
  /** Answers when the stream fails or its answer does not decode. */
  readonly fallback: BrainShape;
  readonly fetch?: typeof fetch;
}

const textOf = (output: unknown): string | null => {
  const t = (output as { text?: unknown } | null)?.text;
  return typeof t === "string" ? t : null;
};

/** Hands the rest of the final text on, or restarts if it does not continue what was shown. */
export const finishText = (shown: string, final: string | null, listener: ReplyListener): void => {
  if (final === null) return;
  if (final.startsWith(shown)) {
    if (final.length > shown.length) listener.text(final.slice(shown.length));
    return;
  }
  listener.restart();
  listener.text(final);
};

/** A streamer over the configured chat model, falling back to `options.fallback`. */
export const streamOllamaReply = (options: StreamOllamaReplyOptions): ReplyStreamer => {
  const { config } = options;
  const transport: OllamaTransport =
    options.fetch === undefined
      ? { url: config.ollamaUrl }
      : { url: config.ollamaUrl, fetch: options.fetch };
  const model = config.chatModel;
  return <P extends PurposeName>(request: BrainRequest<P>, listener: ReplyListener) =>
    Effect.gen(function* () {
      // A purpose the policy scripts is not streamed from a model at all.
      const route = routeOf(config.policy, request);
      const policy = { priority: route.priority, reason: route.reason };
      if (route.priority === "scripted") {
        const answer = yield* options.fallback.decide(request);
        finishText("", textOf(answer.output), listener);
        return answer;
      }
      const started = performance.now();
      const prompt = renderPrompt(request);
      const messages: Array<Message> = [
        { role: "system", content: prompt.system },
        { role: "user", content: prompt.user },
      ];
      let shown = "";
      const streamed = yield* Effect.result(
        callOllama(transport, model, config.timeoutMs, async (client) => {
          const parts = await client.chat({
            model,
            messages,
            format: outputFormat(request.purpose, request.input),
            stream: true,
            keep_alive: config.keepAlive,
            options: {
              temperature: config.temperature,
              seed: Prng.derive(
                request.seed,
                "ollama",
                request.purpose,
                request.npcId ?? "-",
                request.t,
              ).int(0, 0x7fffffff),
              num_ctx: config.numCtx,
            },
          });
          let content = "";
          let promptTokens = 0;
          let outputTokens = 0;
          for await (const part of parts) {
            content += part.message.content;
            const prefix = textFieldPrefix(content);
            if (prefix !== null && prefix.length > shown.length && prefix.startsWith(shown)) {
              listener.text(prefix.slice(shown.length));
              shown = prefix;
            }
            if (part.done) {
              promptTokens = part.prompt_eval_count ?? 0;
              outputTokens = part.eval_count ?? 0;
            }
          }
          return { content, promptTokens, outputTokens };
        }),
      );
      let reason: string;
      let refused: RejectedSpend = noRejected;
      if (Result.isSuccess(streamed)) {
        const { content, promptTokens, outputTokens } = streamed.success;
        const decoded = decodeAnswer(request.purpose, request.input, content, model);
        if (Result.isSuccess(decoded)) {
          finishText(shown, textOf(decoded.success), listener);
          return {
            output: decoded.success,
            meta: {
              brain: "ollama",
              model,
              promptTokens,
              outputTokens,
              latencyMs: Math.round((performance.now() - started) * 10) / 10,
              fallbackReason: null,
              policy,
            },
          } as BrainAnswer<P>;
        }
        reason = `${model} (streamed): ${decoded.failure.message}`;
        refused = { answers: 1, promptTokens, outputTokens };
      } else {
        reason = `${model} (streamed): ${streamed.failure.message}`;
      }
      const answer = yield* options.fallback
        .decide(request)
        .pipe(
          Effect.mapError((error) => withRejected(error, addRejected(refused, rejectedOf(error)))),
        );
      finishText(shown, textOf(answer.output), listener);
      return {
        output: answer.output,
        meta: {
          ...answer.meta,
          fallbackReason:
            answer.meta.fallbackReason === null
              ? reason
              : `${reason}; ${answer.meta.fallbackReason}`,
          ...rejectedMeta(addRejected(refused, answer.meta.rejected ?? noRejected)),
          policy,
        },
      } as BrainAnswer<P>;
    });
};
