/**
 * The HTTP side of `hearsay serve`: a server on loopback (by default), behind the guard
 * every local server runs behind (@hearsay/inspector's startGuardedServer: Host must name
 * the bound address, an Origin must be its own, writes must be JSON, and any error is a
 * status, never a crash). It checks the bearer token — refusing to start beyond loopback
 * without one — bounds and decodes every body, routes to the save's
 * TalkWorld — one per save, the one writer for it, which applies that save's writes one
 * at a time in arrival order — and maps typed failures to status codes (400 naming the
 * field, 401, 404, 409, 413, 502). A turn can stream its reply as NDJSON; a client that
 * goes away before the turn is stored abandons it, and nothing of it is written.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { renderDossier } from "@hearsay/core";
import { applyActionResult, applyWorldTick, exportJsonl, type TalkWorld } from "@hearsay/engine";
import {
  type GuardedRequest,
  HttpFailure,
  isHostName,
  isLoopbackHost,
  startGuardedServer,
} from "@hearsay/inspector";
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
  /**
   * When set, every request needs `Authorization: Bearer <token>`. Blank is no token;
   * a host beyond loopback refuses to start without one.
   */
  readonly token?: string | null;
  /** Host names answered besides the bound address (e.g. a LAN name for this machine). */
  readonly allowHosts?: ReadonlyArray<string>;
  readonly maxBodyBytes?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Why `startServe` would not start: one line naming the option and the fix. */
export class ServeRefused extends Error {}

/** The token to require: null when none was given or it is blank (blank is no token). */
export const tokenOf = (given: string | null | undefined): string | null => {
  const t = given?.trim() ?? "";
  return t === "" ? null : t;
};

/**
 * Why these options cannot be served, or null: beyond loopback, a token is required;
 * an allowed host must be a bare name or address.
 */
export const serveRefusal = (o: {
  host: string;
  token?: string | null;
  allowHosts?: ReadonlyArray<string>;
}): string | null => {
  if (!isLoopbackHost(o.host) && tokenOf(o.token) === null)
    return `--host ${o.host} listens beyond this machine: set a non-empty --token (or HEARSAY_TOKEN)`;
  const bad = (o.allowHosts ?? []).find((h) => !isHostName(h));
  return bad === undefined
    ? null
    : `--allow-host ${JSON.stringify(bad)}: expected a host name or address without a port`;
};

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
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
};

/** A typed failure from the engine as a status: unknown ids 404, conflicts 409. */
const failureOf = (e: unknown): HttpFailure => {
  const tag = (e as { _tag?: unknown })?._tag;
  const message = (e as { message?: unknown })?.message;
  const status = typeof tag === "string" ? (statusByTag[tag] ?? 500) : 500;
  return new HttpFailure(
    status,
    typeof tag === "string" ? tag : "InternalError",
    typeof message === "string" ? message : String(e),
  );
};

/** Reads at most `max` bytes of body and parses it as JSON. */
const readJson = (req: IncomingMessage, max: number): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    const tooBig = () =>
      new HttpFailure(413, "BodyTooLarge", `the body is over ${max} bytes: send less`);
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
          new HttpFailure(
            400,
            "BadJson",
            `the body is not JSON (${(e as Error).message}): send a JSON object`,
            { field: "(body)" },
          ),
        );
      }
    });
  });

const decoded = <S extends Schema.Top>(schema: S, json: unknown): S["Type"] => {
  const r = decodeBody(schema, json);
  if (Result.isSuccess(r)) return r.success;
  throw new HttpFailure(400, "BadBody", `${r.failure.field}: ${r.failure.problem}`, {
    field: r.failure.field,
  });
};

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/** Compares digests, so the time taken says nothing about the token, its length included. */
const authorised = (req: IncomingMessage, token: string): boolean => {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
};

/** @throws ServeRefused when the options cannot be served safely (see serveRefusal) */
export const startServe = async (o: ServeOptions): Promise<RunningServer> => {
  const host = o.host ?? "127.0.0.1";
  const refusal = serveRefusal({ host, token: o.token ?? null, allowHosts: o.allowHosts ?? [] });
  if (refusal !== null) throw new ServeRefused(refusal);
  const token = tokenOf(o.token);
  const max = o.maxBodyBytes ?? 64 * 1024;
  const worlds = new Map<string, TalkWorld>();
  const worldOf = (save: string): TalkWorld => {
    let w = worlds.get(save);
    if (w !== undefined) return w;
    if (!o.log.saves().some((s) => s.saveId === save))
      throw new HttpFailure(404, "SaveNotFound", `no save "${save}" in this database`);
    w = o.open(save);
    worlds.set(save, w);
    return w;
  };

  const handle = async (r: GuardedRequest): Promise<void> => {
    const { req, res, method, segments: parts, query } = r;
    const noRoute = () =>
      new HttpFailure(404, "NoSuchRoute", `${method} ${r.pathname}: see /openapi.json`);
    if (method === "GET" && r.pathname === "/openapi.json")
      return sendJson(res, 200, openApiDocument(max));
    if (token !== null && !authorised(req, token))
      throw new HttpFailure(401, "Unauthorized", "send Authorization: Bearer <token>");
    if (method === "GET" && r.pathname === "/saves")
      return sendJson(res, 200, {
        saves: o.log.saves().map((s) => ({ saveId: s.saveId, head: s.head })),
      });
    if (parts[0] !== "saves" || parts[1] === undefined) throw noRoute();
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
      const stream = query.get("stream") === "1";
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
      const world = worldOf(save);
      const camera = body.camera === undefined ? world.camera : (body.camera?.locationId ?? null);
      if (camera !== null && !world.spec.simulation.world.locations.some((l) => l.id === camera))
        throw new HttpFailure(
          400,
          "BadCamera",
          `camera.locationId: no location "${camera}" in this world: give one of its location ids`,
          { field: "camera.locationId" },
        );
      const announced = await applyWorldTick(
        world,
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
      // Moved only once the tick's events are stored: a failed tick changes nothing.
      world.setCamera(camera);
      return sendJson(res, 200, { events: announced, camera });
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
      const d = worldOf(save).dossier(npcRoute, query.get("query"));
      return sendJson(res, 200, { dossier: d, text: d === null ? "" : renderDossier(d) });
    }
    if (method === "GET" && npcRoute !== null && tail === "memories") {
      const about = query.get("about");
      if (about !== null && about !== "player")
        throw new HttpFailure(400, "BadQuery", 'about: expected "player" or nothing', {
          field: "about",
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
    throw noRoute();
  };

  const server = await startGuardedServer({
    host,
    port: o.port ?? 0,
    allowHosts: o.allowHosts ?? [],
    readOnly: false,
    handle,
    failureOf,
  });
  return {
    url: server.url,
    port: server.port,
    close: async () => {
      await server.close();
      // What the talks added goes into the vector files, so the next open trusts them;
      // every save's is tried before the first failure is reported.
      const failed: Array<string> = [];
      for (const [save, w] of worlds) {
        try {
          w.dossiers.flush?.();
        } catch (e) {
          failed.push(`saving save "${save}"'s vector index: ${(e as Error).message}`);
        }
      }
      if (failed.length > 0) throw new Error(failed.join("; "));
    },
  };
};
