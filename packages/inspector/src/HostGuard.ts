/**
 * Which Host and Origin headers a local server answers, given the address it is bound
 * to. A web page can point a name it controls at 127.0.0.1 (DNS rebinding) and so reach
 * a loopback server from the browser; the browser then sends that name as Host. So a
 * server answers only the names that are its own address: on a loopback bind,
 * `localhost`, `127.0.0.1`, `[::1]` and the bound address; on a wildcard bind (0.0.0.0,
 * ::), any IP address literal (rebinding needs a name; an address literal is the
 * server's own origin) and the loopback names; on another bind, that address; always
 * with the bound port, plus the names the operator allowed. An Origin, when sent, must
 * be `http://` and one of those hosts, so only the server's own page can call it.
 */
import { isIP } from "node:net";

/** Where a server listens, and the extra host names the operator allows. */
export interface Bind {
  readonly host: string;
  readonly port: number;
  readonly allowHosts?: ReadonlyArray<string>;
}

const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;
const LOOPBACK_NAMES: ReadonlyArray<string> = ["localhost", "127.0.0.1", "::1"];

/** An address or name in one spelling: lower case, IPv6 without brackets, compressed. */
const canonical = (name: string): string | null => {
  const bare = name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name;
  if (isIP(bare) !== 6) return bare.toLowerCase();
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
};

/** The name and port of a Host header value (port 80 when none is given), or null. */
export const parseHost = (value: string): { name: string; port: number } | null => {
  const m = HOST.exec(value);
  if (m === null) return null;
  const name = canonical(m[1]!);
  if (name === null || (m[1]!.startsWith("[") && isIP(name) !== 6)) return null;
  const port = m[2] === undefined ? 80 : Number(m[2]);
  return port > 65_535 ? null : { name, port };
};

/** Is this a host a "serves this machine only" server may bind? */
export const isLoopbackHost = (host: string): boolean => {
  const name = canonical(host);
  return (
    name === "localhost" || name === "::1" || (isIP(name ?? "") === 4 && name!.startsWith("127."))
  );
};

const isWildcard = (host: string): boolean => {
  const name = canonical(host);
  return name === "0.0.0.0" || name === "::" || name === "";
};

/** Is an allowed host name well-formed (a name or an address, no port)? */
export const isHostName = (name: string): boolean =>
  /^[A-Za-z0-9.-]+$/.test(name) || isIP(name.replace(/^\[(.*)\]$/, "$1")) === 6;

/** Does a Host header value name this server? */
export const hostAllowed = (value: string, bind: Bind): boolean => {
  const h = parseHost(value);
  if (h === null || h.port !== bind.port) return false;
  if (h.name === canonical(bind.host)) return true;
  if ((bind.allowHosts ?? []).some((a) => canonical(a) === h.name)) return true;
  if (isLoopbackHost(bind.host)) return LOOPBACK_NAMES.includes(h.name);
  if (isWildcard(bind.host)) return LOOPBACK_NAMES.includes(h.name) || isIP(h.name) !== 0;
  return false;
};

/** Is an Origin header (absent: a non-browser client) this server's own page? */
export const originAllowed = (value: string | undefined, bind: Bind): boolean => {
  if (value === undefined) return true;
  const m = /^http:\/\/([^/?#@]+)$/.exec(value);
  return m !== null && hostAllowed(m[1]!, bind);
};

/** Is a Content-Type header JSON (`application/json`, any parameters)? */
export const isJsonType = (value: string | undefined): boolean =>
  (value ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
