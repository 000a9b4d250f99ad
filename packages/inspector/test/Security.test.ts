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
import { type Inspector, startInspector } from "@hearsay/inspector";
import { httpRequest, rawHttp } from "@hearsay/testkit";
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
