/**
 * Which Host and Origin headers a local server answers (HostGuard.ts), over generated
 * names, addresses and ports: a name a web page could control is never accepted unless
 * the operator allowed it, the port must be the bound one, and no header value throws.
 */
import {
  type Bind,
  hostAllowed,
  isHostName,
  isJsonType,
  isLoopbackHost,
  originAllowed,
} from "@hearsay/inspector";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const port = fc.integer({ min: 1, max: 65_535 });
const otherPort = (p: number) =>
  fc.integer({ min: 1, max: 65_535 }).filter((q) => q !== p && !(p === 80 && q === 80));
const withPort = (name: string, p: number) =>
  name.includes(":") ? `[${name}]:${p}` : `${name}:${p}`;
const loopbackBinds = ["127.0.0.1", "localhost", "::1", "127.3.4.5"];

describe("hostAllowed", () => {
  it("on a loopback bind: the loopback names at the bound port only", () => {
    fc.assert(
      fc.property(fc.constantFrom(...loopbackBinds), port, (host, p) => {
        const bind: Bind = { host, port: p };
        for (const name of ["localhost", "LOCALHOST", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"])
          expect(hostAllowed(withPort(name, p), bind), name).toBe(true);
        expect(hostAllowed(`localhost:${p + 1}`, bind)).toBe(false);
        expect(hostAllowed("localhost", bind)).toBe(p === 80);
      }),
    );
  });

  it("never accepts a domain name the operator did not allow, on any bind", () => {
    fc.assert(
      fc.property(
        fc.domain(),
        fc.constantFrom(...loopbackBinds, "0.0.0.0", "::", "192.168.1.5"),
        port,
        (name, host, p) => {
          expect(hostAllowed(`${name}:${p}`, { host, port: p })).toBe(false);
          expect(
            hostAllowed(`${name.toUpperCase()}:${p}`, { host, port: p, allowHosts: [name] }),
          ).toBe(true);
        },
      ),
    );
  });

  it("on a wildcard bind: any address literal, at the bound port only", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.ipV4(), fc.ipV6()),
        fc.constantFrom("0.0.0.0", "::"),
        port.chain((p) => fc.tuple(fc.constant(p), otherPort(p))),
        (address, host, [p, q]) => {
          expect(hostAllowed(withPort(address, p), { host, port: p })).toBe(true);
          expect(hostAllowed(withPort(address, q), { host, port: p })).toBe(false);
        },
      ),
    );
  });

  it("on another address: that address and the allowed names, not the loopback names", () => {
    const bind: Bind = { host: "192.168.1.5", port: 7341, allowHosts: ["box.lan"] };
    expect(hostAllowed("192.168.1.5:7341", bind)).toBe(true);
    expect(hostAllowed("box.lan:7341", bind)).toBe(true);
    expect(hostAllowed("box.lan:7342", bind)).toBe(false);
    expect(hostAllowed("192.168.1.6:7341", bind)).toBe(false);
    expect(hostAllowed("localhost:7341", bind)).toBe(false);
    expect(hostAllowed("127.0.0.1:7341", bind)).toBe(false);
  });

  it("refuses malformed values without throwing", () => {
    const bind: Bind = { host: "0.0.0.0", port: 80 };
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(typeof hostAllowed(value, bind)).toBe("boolean");
        expect(typeof originAllowed(value, bind)).toBe("boolean");
      }),
    );
    for (const v of [
      "",
      "[",
      "[::1",
      "a b",
      "127.0.0.1:99999",
      "x@127.0.0.1",
      "127.0.0.1/x",
      "[zz]:80",
    ])
      expect(hostAllowed(v, bind), v).toBe(false);
  });
});

describe("originAllowed", () => {
  const bind: Bind = { host: "127.0.0.1", port: 7341 };
  it("accepts no Origin and the server's own, refuses any other", () => {
    expect(originAllowed(undefined, bind)).toBe(true);
    expect(originAllowed("http://localhost:7341", bind)).toBe(true);
    expect(originAllowed("http://[::1]:7341", bind)).toBe(true);
    for (const o of [
      "null",
      "",
      "http://attacker.example",
      "https://localhost:7341",
      "http://localhost:7342",
      "http://localhost:7341/",
      "http://user@localhost:7341",
    ])
      expect(originAllowed(o, bind), o).toBe(false);
  });
});

describe("small checks", () => {
  it("isJsonType, isLoopbackHost, isHostName", () => {
    expect(isJsonType("application/json")).toBe(true);
    expect(isJsonType("Application/JSON; charset=utf-8")).toBe(true);
    for (const t of [
      undefined,
      "",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "application/jsonp",
    ])
      expect(isJsonType(t), String(t)).toBe(false);
    for (const h of ["127.0.0.1", "127.9.9.9", "::1", "localhost"])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "192.168.1.5", "localhost.attacker.example", "128.0.0.1"])
      expect(isLoopbackHost(h), h).toBe(false);
    for (const h of ["box.lan", "10.0.0.2", "::1", "[fe80::1]"])
      expect(isHostName(h), h).toBe(true);
    for (const h of ["box.lan:80", "", "a b", "x/y"]) expect(isHostName(h), h).toBe(false);
  });
});
