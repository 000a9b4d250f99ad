/**
 * `startInspector`: opens a recorded simulation read-only, indexes the chosen save, and
 * serves the web page and its JSON API on a loopback address until closed. Only GET (and
 * HEAD) are answered, and only for a loopback Host header, so a web page elsewhere cannot
 * reach it through DNS rebinding.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { type DossierFactory, Inspection } from "./Inspection.ts";
import { BadRequest, NoSuchSave, NotLoopback } from "./InspectorError.ts";
import { openReadOnly } from "./openReadOnly.ts";
import { Params } from "./Params.ts";
import { routes } from "./routes.ts";
import { defaultPageDir, StaticPage } from "./StaticPage.ts";

export interface InspectorOptions {
  /** The hearsay database to inspect (opened read-only). */
  readonly dbPath: string;
  /** The save to show first (default: `main` if present, else the first save). */
  readonly saveId?: string;
  /** Port to listen on (default 7420; 0: any free port). */
  readonly port?: number;
  /** A loopback address (default 127.0.0.1). */
  readonly host?: string;
  /** Builds each save's dossier source (the engine's `retrievalDossiers`); null: none. */
  readonly dossiers?: DossierFactory | null;
  /** The built page's folder (default: the package's dist/web/); null serves the API only. */
  readonly pageDir?: string | null;
}

/** A running inspector. */
export interface Inspector {
  readonly url: string;
  readonly port: number;
  readonly saveId: string;
  /** Events in the chosen save when it started. */
  readonly head: number;
  /** Stops serving and closes the database. */
  close(): Promise<void>;
}

/** The default port of `hearsay inspect`. */
export const DEFAULT_PORT = 7420;

const loopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);

/** The host part of a Host header (`[::1]:80` → `::1`). */
const hostOf = (header: string | undefined): string => {
  const h = header ?? "";
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]"));
  return h.split(":")[0] ?? "";
};

const send = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  res.end(JSON.stringify(body));
};

/**
 * Starts the inspector. @throws NotLoopback, NotInspectable, NoSuchSave, PageNotBuilt
 */
export const startInspector = async (options: InspectorOptions): Promise<Inspector> => {
  const host = options.host ?? "127.0.0.1";
  if (!loopback(host)) throw new NotLoopback({ host });
  const page =
    options.pageDir === null ? null : new StaticPage(options.pageDir ?? defaultPageDir());
  const dbPath = resolve(options.dbPath);
  const db = openReadOnly(dbPath);
  try {
    const known = db
      .prepare("SELECT save_id FROM saves ORDER BY save_id")
      .pluck()
      .all() as Array<string>;
    const saveId = options.saveId ?? (known.includes("main") ? "main" : known[0]);
    if (saveId === undefined || !known.includes(saveId)) {
      throw new NoSuchSave({ path: options.dbPath, saveId: saveId ?? "", known });
    }
    const inspection = new Inspection(db, options.dbPath, saveId, options.dossiers ?? null);
    const head = inspection.index(saveId).head;
    /** The API's answer to a request, or null for a page path. */
    const answer = (req: IncomingMessage, url: URL): readonly [number, unknown] | null => {
      if (!loopback(hostOf(req.headers.host))) return [403, { error: "loopback Host only" }];
      if (req.method !== "GET" && req.method !== "HEAD")
        return [405, { error: "read-only: GET only" }];
      if (!url.pathname.startsWith("/api/")) {
        return page ? null : [404, { error: "this inspector serves the API only" }];
      }
      const route = routes[url.pathname];
      if (!route) return [404, { error: `no API route ${url.pathname}` }];
      try {
        return [200, route(inspection, new Params(url.searchParams))];
      } catch (e) {
        if (e instanceof BadRequest) return [e.status, { error: e.message }];
        if (e instanceof NoSuchSave) return [404, { error: e.message }];
        return [500, { error: e instanceof Error ? e.message : String(e) }];
      }
    };
    const handle = (req: IncomingMessage, res: ServerResponse): void => {
      const url = new URL(req.url ?? "/", "http://inspector.local");
      const result = answer(req, url);
      if (result) send(res, result[0], result[1]);
      else page?.serve(url.pathname, res);
    };
    const server = createServer(handle);
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(options.port ?? DEFAULT_PORT, host, () => ok());
    });
    const port = (server.address() as AddressInfo).port;
    const shown = host.includes(":") ? `[${host}]` : host;
    return {
      url: `http://${shown}:${port}/`,
      port,
      saveId,
      head,
      close: () =>
        new Promise<void>((ok) => {
          server.closeAllConnections();
          server.close(() => {
            db.close();
            ok();
          });
        }),
    };
  } catch (e) {
    db.close();
    throw e;
  }
};
