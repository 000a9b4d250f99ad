/**
 * One HTTP call to an Ollama server through the `ollama` npm client, as an Effect: a
 * client per call whose injected `fetch` carries the call's AbortSignal (the client
 * takes no signal for non-streamed calls), a timeout that aborts the request, and the
 * client's thrown errors sorted into typed ones — refused, dropped, HTTP error, model
 * not found.
 */
import { Effect } from "effect";
import { Ollama } from "ollama";
import { BrainTimeout, BrainUnavailable, ModelNotFound } from "../BrainError.ts";

/** Where the server is and how to reach it (tests inject `fetch`). */
export interface OllamaTransport {
  readonly url: string;
  readonly fetch?: typeof fetch;
}

/** A client whose every request is aborted when `signal` is. */
export const ollamaClient = (transport: OllamaTransport, signal?: AbortSignal): Ollama => {
  const base = transport.fetch ?? fetch;
  const withSignal = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (signal === undefined) return base(input, init);
    const own = init?.signal;
    return base(input, { ...init, signal: own ? AbortSignal.any([own, signal]) : signal });
  }) as typeof fetch;
  return new Ollama({ host: transport.url, fetch: withSignal });
};

const codeOf = (e: unknown): string | undefined => {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && typeof cur === "object" && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (cur as { errors?: unknown }).errors;
    cur =
      Array.isArray(errors) && errors.length > 0 ? errors[0] : (cur as { cause?: unknown }).cause;
  }
  return undefined;
};

// Errors from undici or another realm fail `instanceof Error`; read their shape instead.
const isErrorLike = (u: unknown): u is Error =>
  typeof u === "object" && u !== null && typeof (u as { message?: unknown }).message === "string";
const messageOf = (u: unknown): string => (isErrorLike(u) ? u.message : String(u));

/** Sorts a thrown client error into a typed one. */
export const classifyOllamaError = (
  e: unknown,
  url: string,
  model: string,
): BrainUnavailable | ModelNotFound => {
  const error = isErrorLike(e) ? e : new Error(String(e));
  const status = (error as { status_code?: unknown }).status_code;
  const unavailable = (kind: BrainUnavailable["kind"], reason: string) =>
    new BrainUnavailable({ brain: "ollama", model, kind, reason });
  if (typeof status === "number") {
    if (status === 404 && /not found/i.test(error.message))
      return new ModelNotFound({ model, reason: error.message });
    return unavailable(
      "server_error",
      `server at ${url} answered HTTP ${status}: ${error.message}`,
    );
  }
  const code = codeOf(error);
  if (
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "EHOSTUNREACH" ||
    code === "ECONNABORTED"
  )
    return unavailable("unreachable", `cannot connect to ${url} (${code}); is Ollama running?`);
  if (
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "UND_ERR_SOCKET" ||
    /other side closed|socket hang up|terminated/i.test(
      `${error.message} ${messageOf((error as { cause?: unknown }).cause ?? "")}`,
    )
  )
    return unavailable("lost", `connection to ${url} was lost mid-call`);
  if (error.name === "SyntaxError")
    return unavailable("bad_response", `server at ${url} sent a response that is not JSON`);
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause === undefined ? "" : `: ${messageOf(cause)}`;
  return unavailable(
    "bad_response",
    `request to ${url} failed: ${error.message}${detail}${code ? ` (${code})` : ""}`,
  );
};

/** Runs `f` with a fresh client, aborting it after `timeoutMs`. */
export const callOllama = <A>(
  transport: OllamaTransport,
  model: string,
  timeoutMs: number,
  f: (client: Ollama) => Promise<A>,
): Effect.Effect<A, BrainUnavailable | BrainTimeout | ModelNotFound> =>
  Effect.tryPromise({
    try: (signal) => f(ollamaClient(transport, signal)),
    catch: (e) => classifyOllamaError(e, transport.url, model),
  }).pipe(
    Effect.timeoutOrElse({
      duration: timeoutMs,
      orElse: () => Effect.fail(new BrainTimeout({ brain: "ollama", model, timeoutMs })),
    }),
  );
