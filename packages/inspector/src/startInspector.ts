/**
 * `startInspector`: opens a recorded simulation read-only, indexes the chosen save, and
 * serves the web page and its JSON API on a loopback address until closed, behind the
 * guard every local server runs behind (startGuardedServer.ts): read-only (GET and HEAD),
 * the Host must name this server and an Origin be its own (no DNS rebinding, no other
 * site's page reading the log), and every bad request is a status, never a crash.
 */
import type { ServerResponse } from "node:http";
import { resolve } from "node:path";
import { isLoopbackHost } from "./HostGuard.ts";
import { HttpFailure } from "./HttpFailure.ts";
import { type DossierFactory, Inspection } from "./Inspection.ts";
import { BadRequest, NoSuchSave, NotLoopback } from "./InspectorError.ts";
import { openReadOnly } from "./openReadOnly.ts";
import { Params } from "./Params.ts";
import { routes } from "./routes.ts";
import type { IndexingProgress } from "./SaveIndex.ts";
import { defaultPageDir, StaticPage } from "./StaticPage.ts";
import { startGuardedServer } from "./startGuardedServer.ts";

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
  /**
   * Told of each stage of reading the first save's log before the page is served (its
   * days, places, knowledge, …), with the events read: minutes on a year of a thousand NPCs.
   */
  readonly onIndexing?: IndexingProgress;
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

const send = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  res.end(JSON.stringify(body));
};

/** A view's error as a status: a bad parameter or unknown id is the caller's, not a 500. */
const failureOf = (e: unknown): HttpFailure => {
  if (e instanceof BadRequest) return new HttpFailure(e.status, "BadRequest", e.message);
  if (e instanceof NoSuchSave) return new HttpFailure(404, "NoSuchSave", e.message);
  return new HttpFailure(500, "InternalError", e instanceof Error ? e.message : String(e));
};

/**
 * Starts the inspector. @throws NotLoopback, NotInspectable, NoSuchSave, PageNotBuilt
 */
export const startInspector = async (options: InspectorOptions): Promise<Inspector> => {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host)) throw new NotLoopback({ host });
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
    const head = inspection.index(saveId, options.onIndexing).head;
    const server = await startGuardedServer({
      host,
      port: options.port ?? DEFAULT_PORT,
      readOnly: true,
      failureOf,
      // The page shows `error` as the line to read.
      render: (f) => ({ error: f.message }),
      handle: ({ pathname, segments, query, res }) => {
        if (!pathname.startsWith("/api/")) {
          if (page === null)
            throw new HttpFailure(404, "NoPage", "this inspector serves the API only");
          return page.serve(segments, res);
        }
        const route = routes[pathname];
        if (!route) throw new HttpFailure(404, "NoRoute", `no API route ${pathname}`);
        send(res, 200, route(inspection, new Params(query)));
      },
    });
    const port = server.port;
    const shown = host.includes(":") ? `[${host}]` : host;
    return {
      url: `http://${shown}:${port}/`,
      port,
      saveId,
      head,
      close: async () => {
        await server.close();
        db.close();
      },
    };
  } catch (e) {
    db.close();
    throw e;
  }
};
