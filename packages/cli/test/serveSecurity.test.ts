/**
 * `hearsay serve` against hostile callers, over raw HTTP to a real server on loopback:
 * a web page's forged Host (DNS rebinding) and cross-origin writes, malformed requests,
 * and an empty token on a public bind. Only loopback addresses are used; the "other
 * address" is 127.0.0.2 talking to a server bound to 0.0.0.0.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { loadSimulation, TalkWorld } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { httpRequest, rawHttp } from "@hearsay/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServe } from "../src/serve/startServe.ts";
import { hearsayWith, ROOT } from "./runCli.ts";
import { tinyPath, tinyWorldDb } from "./talkFixture.ts";

const sim = loadSimulation(tinyPath);
const main = ids.save("main");
let dbPath: string;
let log: SqliteEventLog;
let server: RunningServer;

const openWorld = (save: string) =>
  new TalkWorld({
    simulation: sim,
    log,
    saveId: ids.save(save),
    brain: ScriptedBrain.make(),
    recordBrain: false,
  });

beforeAll(async () => {
  dbPath = await tinyWorldDb();
  log = new SqliteEventLog(openDatabase(dbPath));
  // The default: loopback, no token — the setup a hostile web page would aim at.
  server = await startServe({ log, open: openWorld });
});
afterAll(async () => {
  await server.close();
  log.db.close();
});

const tick = JSON.stringify({
  events: [{ kind: "fire", text: "Smoke over the mill.", visibility: "global" }],
});

const send = (
  requestLine: string,
  headers: Record<string, string>,
  body = "",
  port = server.port,
  localAddress?: string,
) =>
  rawHttp(
    port,
    httpRequest(requestLine, headers, body),
    localAddress === undefined ? {} : { localAddress },
  );

describe("serve: Host must name the bound address (DNS rebinding)", () => {
  it("refuses a foreign Host on every route, reads included, and accepts the loopback names", async () => {
    const p = server.port;
    for (const host of ["attacker.example", `attacker.example:${p}`, `127.0.0.1:${p + 1}`, ""]) {
      for (const path of ["/saves/main/export", "/saves", "/openapi.json"]) {
        const r = await send(`GET ${path} HTTP/1.1`, { Host: host });
        expect(r.status, `${host} ${path}`).toBe(host === "" ? 400 : 403);
        expect(r.body).not.toContain("WorldCreated");
      }
    }
    for (const host of [`localhost:${p}`, `127.0.0.1:${p}`, `[::1]:${p}`]) {
      const r = await send("GET /saves/main/export HTTP/1.1", { Host: host });
      expect(r.status, host).toBe(200);
    }
  });
});

describe("serve: writes need JSON and no foreign Origin", () => {
  it("refuses a text/plain tick from a foreign Origin, a form-encoded turn, and any cross-origin write, storing nothing", async () => {
    const head = log.head(main);
    const host = `127.0.0.1:${server.port}`;
    const foreign = await send(
      "POST /saves/main/tick HTTP/1.1",
      { Host: host, Origin: "http://attacker.example", "Content-Type": "text/plain" },
      tick,
    );
    expect(foreign.status).toBe(403);
    const plain = await send(
      "POST /saves/main/tick HTTP/1.1",
      { Host: host, "Content-Type": "text/plain" },
      tick,
    );
    expect(plain.status).toBe(415);
    const form = await send(
      "POST /saves/main/npcs/ada/turn HTTP/1.1",
      { Host: host, "Content-Type": "application/x-www-form-urlencoded" },
      "message=Hello",
    );
    expect(form.status).toBe(415);
    const untyped = await send("POST /saves/main/tick HTTP/1.1", { Host: host }, tick);
    expect(untyped.status).toBe(415);
    for (const origin of ["http://attacker.example", "null", `https://${host}`]) {
      const r = await send(
        "POST /saves/main/tick HTTP/1.1",
        { Host: host, Origin: origin, "Content-Type": "application/json" },
        tick,
      );
      expect(r.status, origin).toBe(403);
    }
    expect(log.head(main)).toBe(head);
    // Same origin, or no Origin at all (a game, curl), with JSON: stored.
    const same = await send(
      "POST /saves/main/tick HTTP/1.1",
      { Host: host, Origin: `http://${host}`, "Content-Type": "application/json; charset=utf-8" },
      tick,
    );
    expect(same.status).toBe(200);
    const bare = await send(
      "POST /saves/main/tick HTTP/1.1",
      { Host: host, "Content-Type": "application/json" },
      tick,
    );
    expect(bare.status).toBe(200);
    expect(log.head(main)).toBeGreaterThan(head);
  });
});

describe("serve: a bad request is a 400, never a crash or a 500", () => {
  it("answers 400 to bad percent-encoding and a malformed request line, and keeps serving", async () => {
    const host = `127.0.0.1:${server.port}`;
    for (const line of [
      "GET /%E0%A4%A HTTP/1.1",
      "GET /saves/%E0%A4%A/export HTTP/1.1",
      "GET http://[ HTTP/1.1",
      "GET /saves/main/npcs/ada/dossier?query=%00 HTTP/1.1",
    ]) {
      const r = await send(line, { Host: host });
      expect(r.status, line).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ error: expect.any(String) });
    }
    expect((await send("GET /saves HTTP/1.1", { Host: host })).status).toBe(200);
  });
});

describe("serve: an empty token is no token", () => {
  it("refuses to start on a public bind with an empty or blank token", async () => {
    for (const token of ["", "   ", null])
      await expect(startServe({ log, open: openWorld, host: "0.0.0.0", token })).rejects.toThrow(
        /--token/,
      );
  });

  it("on 0.0.0.0 with a token, answers another address only with that token", async () => {
    const open = await startServe({ log, open: openWorld, host: "0.0.0.0", token: "s3cret" });
    try {
      const host = `127.0.0.2:${open.port}`;
      const ask = (auth?: string) =>
        send(
          "GET /saves HTTP/1.1",
          { Host: host, ...(auth === undefined ? {} : { Authorization: auth }) },
          "",
          open.port,
          "127.0.0.2",
        );
      expect((await ask()).status).toBe(401);
      expect((await ask("Bearer ")).status).toBe(401);
      expect((await ask("Bearer s3creT")).status).toBe(401);
      expect((await ask("Bearer s3cret-and-more")).status).toBe(401);
      expect((await ask("Bearer s3cret")).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it("the CLI refuses --token '' and a blank HEARSAY_TOKEN on 0.0.0.0 in one line, exit 1", async () => {
    for (const [env, flags] of [
      [{}, ["--token", ""]],
      [{ HEARSAY_TOKEN: "  " }, []],
    ] as const) {
      const r = await hearsayWith(
        { env, timeoutMs: 20_000 },
        "serve",
        "--db",
        dbPath,
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        ...flags,
      );
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).not.toContain("listening");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/--host 0\.0\.0\.0.*--token/);
    }
  }, 60_000);
});

describe("the real `hearsay serve` process on 0.0.0.0, called from 127.0.0.2", () => {
  it("answers only its own addresses and allowed names, with the token, JSON writes only, 400 for malformed requests", async () => {
    const db = await tinyWorldDb(2);
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join("packages", "cli", "src", "main.ts"), "serve", "--db", db].concat([
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--token",
        "s3cret",
        "--allow-host",
        "box.lan",
        "--simulation",
        tinyPath,
      ]),
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((ok) => child.on("close", (code) => ok(code)));
    try {
      const port = await new Promise<number>((ok, fail) => {
        let out = "";
        const timer = setTimeout(() => fail(new Error(`serve did not start: ${out}`)), 30_000);
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString("utf8");
          const m = /listening on http:\/\/0\.0\.0\.0:(\d+)/.exec(out);
          if (m !== null) {
            clearTimeout(timer);
            ok(Number(m[1]));
          }
        });
      });
      const from2 = (line: string, headers: Record<string, string>, body = "") =>
        rawHttp(port, httpRequest(line, headers, body), {
          host: "127.0.0.2",
          localAddress: "127.0.0.2",
        });
      const auth = { Authorization: "Bearer s3cret" };
      const own = `127.0.0.2:${port}`;
      expect((await from2("GET /saves HTTP/1.1", { Host: own })).status).toBe(401);
      expect((await from2("GET /saves HTTP/1.1", { Host: own, ...auth })).status).toBe(200);
      const named = await from2("GET /saves/main/export HTTP/1.1", {
        Host: `box.lan:${port}`,
        ...auth,
      });
      expect(named.status, named.body.slice(0, 300)).toBe(200);
      const rebound = await from2("GET /saves/main/export HTTP/1.1", {
        Host: "attacker.example",
        ...auth,
      });
      expect(rebound.status).toBe(403);
      expect(rebound.body).not.toContain("WorldCreated");
      const crossSite = await from2(
        "POST /saves/main/tick HTTP/1.1",
        { Host: own, ...auth, Origin: "http://attacker.example", "Content-Type": "text/plain" },
        tick,
      );
      expect(crossSite.status).toBe(403);
      const form = await from2(
        "POST /saves/main/npcs/ada/turn HTTP/1.1",
        { Host: own, ...auth, "Content-Type": "application/x-www-form-urlencoded" },
        "message=Hello",
      );
      expect(form.status).toBe(415);
      for (const line of ["GET http://[ HTTP/1.1", "GET /%E0%A4%A HTTP/1.1"])
        expect((await from2(line, { Host: own, ...auth })).status, line).toBe(400);
      expect((await from2("GET /saves HTTP/1.1", { Host: own, ...auth })).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 60_000);
});

describe("serve: no request is a 500", () => {
  const id = fc.oneof(
    fc.constantFrom("main", "ada", "bram", "mill", "nope", "x", "%E0%A4%A", "%00", "..", "%2F"),
    fc.string({ unit: "grapheme-ascii", maxLength: 6 }).map(encodeURIComponent),
  );
  const tail = fc.constantFrom(
    ["turn"],
    ["dossier"],
    ["memories"],
    ["conversations", "c1", "end"],
    [],
    ["x", "y", "z"],
  );
  const path = fc.oneof(
    fc.tuple(id, id, tail).map(([save, npc, t]) => ["saves", save, "npcs", npc, ...t]),
    fc
      .tuple(id, fc.constantFrom("tick", "actions", "export", "npcs", ""))
      .map(([save, r]) => ["saves", save, r]),
    fc.array(id, { maxLength: 3 }),
  );
  const query = fc.constantFrom("", "?stream=1", "?about=player", "?about=x", "?query=mill");
  const body = fc.oneof(
    fc.json({ maxDepth: 2 }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      JSON.stringify({ message: "Hello there." }),
      JSON.stringify({ message: "Hi", conversationId: "nope", end: true }),
      tick,
      JSON.stringify({ events: [] }),
      JSON.stringify({ taskId: "fix-wheel", outcome: "completed" }),
      JSON.stringify({ taskId: "nope", outcome: "accepted" }),
      "",
    ),
  );

  it("answers any route, method and body with a status other than 500, and keeps serving", async () => {
    const host = `127.0.0.1:${server.port}`;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE"),
        path,
        query,
        body,
        async (method, segments, q, b) => {
          const target = `/${segments.join("/")}${q}`;
          const r = await send(
            `${method} ${target} HTTP/1.1`,
            { Host: host, "Content-Type": "application/json" },
            method === "GET" ? "" : b,
          );
          expect(r.status, `${method} ${target} ${b}: ${r.body.slice(0, 200)}`).not.toBe(500);
          expect(r.status).toBeGreaterThanOrEqual(200);
          expect(r.status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
    expect((await send("GET /saves HTTP/1.1", { Host: host })).status).toBe(200);
  }, 120_000);
});
