/**
 * The one request wrapper both local servers (`serve`, `inspect`) run behind, so no
 * handler has to remember a check and no handler's error can end the process:
 *
 * - the Host header must name the bound address (see HostGuard.ts) — 403 — and a sent
 *   Origin must be the server's own — 403 — on every route, reads included;
 * - a read-only server answers only GET and HEAD (405); on any other server every other
 *   method changes state and needs `Content-Type: application/json` (415), which a web
 *   page cannot send cross-origin without a preflight this server never grants;
 * - the request target is a path (a proxy-style `http://…` target is 400), its segments
 *   are percent-decoded here (bad encoding: 400), and no segment or query value may hold
 *   a control character (400) — handlers get decoded segments and never decode again;
 * - whatever a handler throws becomes a status: an HttpFailure as it says, anything else
 *   through the server's `failureOf` (default 500) — never an uncaught error.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Bind, hostAllowed, isJsonType, originAllowed } from "./HostGuard.ts";
import { HttpFailure } from "./HttpFailure.ts";

/** A request that passed the guard. */
export interface GuardedRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** The path as sent (still percent-encoded), without the query. */
  readonly pathname: string;
  /** The path's non-empty segments, percent-decoded. */
  readonly segments: ReadonlyArray<string>;
  readonly query: URLSearchParams;
}

export interface GuardedServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Host names answered besides the bound address (the port must still match). */
  readonly allowHosts?: ReadonlyArray<string>;
  /** Answer GET and HEAD only (405 for anything else). */
  readonly readOnly: boolean;
  readonly handle: (r: GuardedRequest) => void | Promise<void>;
  /** The status of an error that is not an HttpFailure (default: 500). */
  readonly failureOf?: (e: unknown) => HttpFailure;
  /** The JSON body of a failure (default: `{ error: code, message, ...extra }`). */
  readonly render?: (f: HttpFailure) => unknown;
}

export interface GuardedServer {
  readonly port: number;
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** C0 controls but tab, LF and CR, and DEL: no id or search needs them; NUL breaks SQLite. */
const hasControl = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
};

const shown = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

const internal = (e: unknown): HttpFailure =>
  new HttpFailure(500, "InternalError", e instanceof Error ? e.message : String(e));

const defaultRender = (f: HttpFailure): unknown => ({
  error: f.code,
  message: f.message,
  ...f.extra,
});

/** Checks a request against the bind and splits its target; throws an HttpFailure. */
const admit = (
  req: IncomingMessage,
  res: ServerResponse,
  bind: Bind,
  readOnly: boolean,
): GuardedRequest => {
  const host = req.headers.host;
  if (host === undefined || host === "")
    throw new HttpFailure(400, "NoHost", "send a Host header naming this server");
  if (!hostAllowed(host, bind))
    throw new HttpFailure(
      403,
      "HostNotAllowed",
      `Host ${shown(host)} is not this server's address; use the address it listens on`,
    );
  if (!originAllowed(req.headers.origin, bind))
    throw new HttpFailure(
      403,
      "OriginNotAllowed",
      `Origin ${shown(req.headers.origin ?? "")} is another site; only this server's own page may call it`,
    );
  const method = req.method ?? "GET";
  const reading = method === "GET" || method === "HEAD";
  if (readOnly && !reading)
    throw new HttpFailure(405, "MethodNotAllowed", `${method}: read-only, send GET`);
  if (!reading && !isJsonType(req.headers["content-type"]))
    throw new HttpFailure(
      415,
      "UnsupportedMediaType",
      `${method} needs Content-Type: application/json`,
    );
  const target = req.url ?? "";
  if (!target.startsWith("/"))
    throw new HttpFailure(400, "BadTarget", `request target ${shown(target)}: send a path`);
  const cut = target.search(/[?#]/);
  const pathname = cut < 0 ? target : target.slice(0, cut);
  const query = new URLSearchParams(cut < 0 || target[cut] === "#" ? "" : target.slice(cut + 1));
  let segments: Array<string>;
  try {
    segments = pathname
      .split("/")
      .filter((p) => p !== "")
      .map(decodeURIComponent);
  } catch {
    throw new HttpFailure(400, "BadPath", `path ${shown(pathname)}: bad percent-encoding`);
  }
  if (segments.some(hasControl))
    throw new HttpFailure(400, "BadPath", `path ${shown(pathname)}: holds a control character`);
  for (const [k, v] of query)
    if (hasControl(k) || hasControl(v))
      throw new HttpFailure(400, "BadQuery", `query ${shown(k)}: holds a control character`, {
        field: k,
      });
  return { req, res, method, pathname, segments, query };
};

/** Sends a failure; a stream already under way ends with it as its last NDJSON line. */
const sendFailure = (res: ServerResponse, f: HttpFailure, body: unknown): void => {
  if (res.headersSent) {
    if (!res.writableEnded)
      res.end(`${JSON.stringify({ type: "error", status: f.status, ...(body as object) })}\n`);
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(f.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    // The body of a refused request may be unread: do not reuse the connection.
    connection: "close",
  });
  res.end(text);
};

/** Listens on `host:port` and answers every request through the guard. */
export const startGuardedServer = async (o: GuardedServerOptions): Promise<GuardedServer> => {
  let bind: Bind = { host: o.host, port: o.port, allowHosts: o.allowHosts ?? [] };
  const render = o.render ?? defaultRender;
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A client that goes away mid-request is no reason to stop serving.
    req.on("error", () => {});
    res.on("error", () => {});
    try {
      await o.handle(admit(req, res, bind, o.readOnly));
    } catch (e) {
      let f: HttpFailure;
      try {
        f = e instanceof HttpFailure ? e : (o.failureOf ?? internal)(e);
      } catch (e2) {
        f = internal(e2);
      }
      sendFailure(res, f, render(f));
    }
  };
  const server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  bind = { ...bind, port };
  return {
    port,
    url: `http://${o.host.includes(":") ? `[${o.host}]` : o.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
