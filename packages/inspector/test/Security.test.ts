/**
 * `inspect` against hostile callers, over raw HTTP to a real inspector on 127.0.0.1: a
 * forged Host (DNS rebinding would hand a web page the whole log), a foreign Origin,
 * writes, and requests that once ended the process (bad percent-encoding, a malformed
 * request line) or answered 500 (a NUL in a search). Each is a status code; it keeps
 * serving, and the database file is never changed.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Inspector, routes, startInspector } from "@hearsay/inspector";
import { httpRequest, rawHttp } from "@hearsay/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordHaskerry } from "./harness.ts";

let path: string;
let inspector: Inspector;
let hashBefore: string;
const fileHash = () => createHash("sha256").update(readFileSync(path)).digest("hex");

beforeAll(async () => {
  path = await recordHaskerry(1);
  hashBefore = fileHash();
  const pageDir = mkdtempSync(join(tmpdir(), "hearsay-page-"));
  writeFileSync(join(pageDir, "index.html"), "<!doctype html><title>inspector</title>");
  inspector = await startInspector({ dbPath: path, port: 0, pageDir });
}, 120_000);
afterAll(async () => {
  await inspector?.close();
});

const send = (requestLine: string, headers: Record<string, string>, body = "") =>
  rawHttp(inspector.port, httpRequest(requestLine, headers, body));
const local = () => ({ Host: `127.0.0.1:${inspector.port}` });

describe("inspect: Host must name the bound address (DNS rebinding)", () => {
  it("refuses a foreign Host or port on the API and the page, and accepts the loopback names", async () => {
    const p = inspector.port;
    for (const host of ["attacker.example", `attacker.example:${p}`, `localhost:${p + 1}`]) {
      for (const target of ["/api/events", "/api/meta", "/", "/index.html"]) {
        const r = await send(`GET ${target} HTTP/1.1`, { Host: host });
        expect(r.status, `${host} ${target}`).toBe(403);
        expect(r.body).not.toContain("inspector");
      }
    }
    for (const host of [`localhost:${p}`, `127.0.0.1:${p}`, `[::1]:${p}`]) {
      expect((await send("GET /api/meta HTTP/1.1", { Host: host })).status, host).toBe(200);
      expect((await send("GET / HTTP/1.1", { Host: host })).status, host).toBe(200);
    }
  });

  it("refuses a foreign Origin, and every method but GET and HEAD", async () => {
    const r = await send("GET /api/meta HTTP/1.1", {
      ...local(),
      Origin: "http://attacker.example",
    });
    expect(r.status).toBe(403);
    const same = await send("GET /api/meta HTTP/1.1", {
      ...local(),
      Origin: `http://127.0.0.1:${inspector.port}`,
    });
    expect(same.status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const w = await send(
        `${method} /api/meta HTTP/1.1`,
        { ...local(), "Content-Type": "application/json" },
        "{}",
      );
      expect(w.status, method).toBe(405);
    }
    expect(fileHash()).toBe(hashBefore);
  });
});

describe("inspect: a bad request is a 400, never a crash or a 500", () => {
  it("answers 400 to bad percent-encoding, a malformed request line and a NUL in a search, and keeps serving", async () => {
    for (const line of [
      "GET /%E0%A4%A HTTP/1.1",
      "GET /api/%E0%A4%A HTTP/1.1",
      "GET http://[ HTTP/1.1",
      "GET /api/items?kind=memory&q=%00 HTTP/1.1",
      "GET /api/items?q=%00 HTTP/1.1",
      "GET /api/npcs?q=a%00b HTTP/1.1",
    ]) {
      const r = await send(line, local());
      expect(r.status, line).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ error: expect.any(String) });
    }
    expect((await send("GET /api/meta HTTP/1.1", local())).status).toBe(200);
    expect(fileHash()).toBe(hashBefore);
  });
});

describe("inspect: no request is a 500", () => {
  // Searches (q, kind) weigh more: text reaching SQLite is where odd bytes once broke it.
  const names = ["at", "day", "limit", "offset", "seq", "step", "items", "id", "item", "sort"]
    .concat(["state", "knowersOnly", "location", "query", "save", "type"])
    .concat(["q", "q", "q", "kind", "kind", "kind"]);
  const value = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 12 }),
    fc.string({ unit: "binary-ascii", maxLength: 8 }),
    fc.integer({ min: -5, max: 10_000 }).map(String),
    fc.constantFrom(
      "main",
      "memory",
      "memory",
      "debate",
      "world_event",
      "1",
      "",
      "thing:x",
      "a\u0000b",
    ),
  );
  const target = fc
    .tuple(
      fc.constantFrom(...Object.keys(routes), "/", "/assets/x.js", "/api/", "/..%2F..%2Fetc"),
      fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 4 }),
      fc.boolean(),
    )
    .map(([path, query, raw]) => {
      const q = query
        .map(([k, v]) => `${k}=${raw ? v.replace(/[\s#%]/g, "") : encodeURIComponent(v)}`)
        .join("&");
      return q === "" ? path : `${path}?${q}`;
    });

  it("answers any route with any query with 200, 400 or 404, and keeps serving", async () => {
    await fc.assert(
      fc.asyncProperty(target, async (t) => {
        const r = await send(`GET ${t} HTTP/1.1`, local());
        expect([200, 400, 404], `${t}: ${r.status} ${r.body.slice(0, 200)}`).toContain(r.status);
      }),
      { numRuns: 300 },
    );
    expect((await send("GET /api/meta HTTP/1.1", local())).status).toBe(200);
    expect(fileHash()).toBe(hashBefore);
  }, 60_000);
});
