/**
 * The HTTP side of `hearsay serve`: a node:http server on loopback (by default) that
 * checks the bearer token, bounds and decodes every body, routes to the save's
 * TalkWorld — one per save, the one writer for it, which applies that save's writes one
 * at a time in arrival order — and maps typed failures to status codes (400 naming the
 * field, 401, 404, 409, 413, 502). A turn can stream its reply as NDJSON; a client that
 * goes away before the turn is stored abandons it, and nothing of it is written.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { renderDossier } from "@hearsay/core";
import { applyActionResult, applyWorldTick, exportJsonl, type TalkWorld } from "@hearsay/engine";
import type { SqliteEventLog } from "@hearsay/store";
import { Result, type Schema } from "effect";
import { openApiDocument } from "./openApi.ts";
import { ActionBody, decodeBody, TickBody, TurnBody } from "./ServeBodies.ts";

export interface ServeOptions {
  readonly log: SqliteEventLog;
  /** The TalkWorld of a save that exists (called once per save). */
  readonly open: (saveId: string) => TalkWorld;
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  readonly token?: string | null;
  readonly maxBodyBytes?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** An answer with a status: thrown by handlers, sent by the server. */
class HttpFailure {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {}
}

const statusByTag: Record<string, number> = {
  NpcNotFound: 404,
  ConversationNotFound: 404,
  TaskNotFound: 404,
  NotInWorld: 404,
  UnknownSave: 404,
  TaskMoveRefused: 409,
  StaleSeq: 409,
  ReplyFailed: 502,
  DatabaseBusy: 503,
};

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  if (res.headersSent) {
    // A stream already under way ends with the failure as its last line.
    if (!res.writableEnded)
      res.end(`${JSON.stringify({ type: "error", status, ...(body as object) })}\n`);
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
};

const failureOf = (e: unknown): HttpFailure => {
  if (e instanceof HttpFailure) return e;
  const tag = (e as { _tag?: unknown })?._tag;
  const message = (e as { message?: unknown })?.message;
  const status = typeof tag === "string" ? (statusByTag[tag] ?? 500) : 500;
  return new HttpFailure(status, {
    error: typeof tag === "string" ? tag : "InternalError",
    message: typeof message === "string" ? message : String(e),
  });
};

/** Reads at most `max` bytes of body and parses it as JSON. */
const readJson = (req: IncomingMessage, max: number): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    const tooBig = () =>
      new HttpFailure(413, {
        error: "BodyTooLarge",
        message: `the body is over ${max} bytes: send less`,
      });
    if (declared > max) {
      req.resume();
      reject(tooBig());
      return;
    }
    const chunks: Array<Buffer> = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on("error", reject);
    req.on("end", () => {
      if (over) return reject(tooBig());
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(
          new HttpFailure(400, {
            error: "BadJson",
            field: "(body)",
            message: `the body is not JSON (${(e as Error).message}): send a JSON object`,
          }),
        );
      }
    });
  });

const decoded = <S extends Schema.Top>(schema: S, json: unknown): S["Type"] => {
  const r = decodeBody(schema, json);
  if (Result.isSuccess(r)) return r.success;
  throw new HttpFailure(400, {
    error: "BadBody",
    field: r.failure.field,
    message: `${r.failure.field}: ${r.failure.problem}`,
  });
};

const authorised = (req: IncomingMessage, token: string): boolean => {
  const header = req.headers.authorization ?? "";
  const m = /^Bearer (.+)$/.exec(header);
  if (m === null) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
};

export const startServe = async (o: ServeOptions): Promise<RunningServer> => {
  const max = o.maxBodyBytes ?? 64 * 1024;
  const worlds = new Map<string, TalkWorld>();
  const worldOf = (save: string): TalkWorld => {
    let w = worlds.get(save);
    if (w !== undefined) return w;
    if (!o.log.saves().some((s) => s.saveId === save))
      throw new HttpFailure(404, {
        error: "SaveNotFound",
        message: `no save "${save}" in this database`,
      });
    w = o.open(save);
    worlds.set(save, w);
    return w;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const parts = url.pathname
      .split("/")
      .filter((p) => p.length > 0)
      .map(decodeURIComponent);
    const method = req.method ?? "GET";
    if (method === "GET" && url.pathname === "/openapi.json")
      return sendJson(res, 200, openApiDocument(max));
    if (o.token && !authorised(req, o.token))
      throw new HttpFailure(401, {
        error: "Unauthorized",
        message: "send Authorization: Bearer <token>",
      });
    if (method === "GET" && url.pathname === "/saves")
      return sendJson(res, 200, {
        saves: o.log.saves().map((s) => ({ saveId: s.saveId, head: s.head })),
      });
    if (parts[0] !== "saves" || parts[1] === undefined)
      throw new HttpFailure(404, {
        error: "NoSuchRoute",
        message: `${method} ${url.pathname}: see /openapi.json`,
      });
    const save = parts[1];
    const rest = parts.slice(2).join("/");
    const npcRoute = parts[2] === "npcs" && parts[3] !== undefined ? parts[3] : null;
    const tail = parts.slice(4).join("/");

    if (method === "POST" && npcRoute !== null && tail === "turn") {
      const body = decoded(TurnBody, await readJson(req, max));
      const world = worldOf(save);
      world.npc(npcRoute);
      const abort = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      const stream = url.searchParams.get("stream") === "1";
      if (stream) res.writeHead(200, { "content-type": "application/x-ndjson" });
      const line = (o2: unknown) => {
        if (stream && !res.destroyed) res.write(`${JSON.stringify(o2)}\n`);
      };
      const r = await world.takeTurn(
        {
          npcId: npcRoute,
          conversationId: body.conversationId ?? null,
          message: body.message,
          scene: body.scene ?? null,
          end: body.end ?? false,
          signal: abort.signal,
        },
        { text: (text) => line({ type: "delta", text }), restart: () => line({ type: "restart" }) },
      );
      const result = {
        conversationId: r.conversationId,
        turnIndex: r.turnIndex,
        reply: r.reply,
        actions: r.actions,
        firstMeeting: r.firstMeeting,
        memories: r.digest?.memories ?? [],
        summary: r.digest?.summary ?? null,
        regard: r.digest?.regard ?? null,
        brain: r.brain,
        head: r.head,
      };
      if (stream) {
        line({ type: "done", ...result });
        res.end();
        return;
      }
      return sendJson(res, 200, result);
    }
    if (
      method === "POST" &&
      npcRoute !== null &&
      parts[4] === "conversations" &&
      parts[6] === "end" &&
      parts.length === 7
    ) {
      const digest = await worldOf(save).endConversation(npcRoute, parts[5]!);
      return sendJson(res, 200, {
        memories: digest?.memories ?? [],
        summary: digest?.summary ?? null,
        regard: digest?.regard ?? null,
      });
    }
    if (method === "POST" && rest === "tick") {
      const body = decoded(TickBody, await readJson(req, max));
      const announced = await applyWorldTick(
        worldOf(save),
        body.events.map((e) => ({
          kind: e.kind,
          text: e.text,
          locationId: e.locationId ?? null,
          factionId: e.factionId ?? null,
          visibility: e.visibility,
          importance: e.importance ?? 0.5,
          participants: e.participants ?? [],
          entities: e.entities ?? [],
        })),
      );
      return sendJson(res, 200, { events: announced });
    }
    if (method === "POST" && rest === "actions") {
      const body = decoded(ActionBody, await readJson(req, max));
      const r = await applyActionResult(worldOf(save), {
        taskId: body.taskId,
        outcome: body.outcome,
        note: body.note ?? null,
      });
      return sendJson(res, 200, r);
    }
    if (method === "GET" && npcRoute !== null && tail === "dossier") {
      const d = worldOf(save).dossier(npcRoute, url.searchParams.get("query"));
      return sendJson(res, 200, { dossier: d, text: d === null ? "" : renderDossier(d) });
    }
    if (method === "GET" && npcRoute !== null && tail === "memories") {
      const about = url.searchParams.get("about");
      if (about !== null && about !== "player")
        throw new HttpFailure(400, {
          error: "BadQuery",
          field: "about",
          message: 'about: expected "player" or nothing',
        });
      return sendJson(res, 200, {
        npcId: npcRoute,
        memories: worldOf(save).memories(npcRoute, about === "player"),
      });
    }
    if (method === "GET" && rest === "export") {
      worldOf(save);
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      for (const chunk of exportJsonl({ log: o.log, saveId: save })) res.write(chunk);
      res.end();
      return;
    }
    throw new HttpFailure(404, {
      error: "NoSuchRoute",
      message: `${method} ${url.pathname}: see /openapi.json`,
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const f = failureOf(e);
      if (f.status === 413) res.setHeader("connection", "close");
      sendJson(res, f.status, f.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
