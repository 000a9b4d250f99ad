/**
 * The Ollama server address, read the way Ollama's own tools read `OLLAMA_HOST`: a
 * bare `host`, `host:port`, `:port`, or a URL; scheme defaults to http, host to
 * 127.0.0.1, port to 11434 (80/443 when an http/https scheme is written without one).
 * A listen-everywhere address (0.0.0.0, ::) is where a server listens, not where a
 * client connects, so it becomes loopback.
 */

export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";

const DEFAULT_PORT = "11434";

/** The base URL (no trailing slash) an `OLLAMA_HOST`-style value names. */
export const ollamaHost = (value: string | undefined): string => {
  const s = (value ?? "").trim();
  if (s.length === 0) return DEFAULT_OLLAMA_URL;
  let scheme = "http";
  let rest = s;
  let defaultPort = DEFAULT_PORT;
  const sep = s.indexOf("://");
  if (sep >= 0) {
    scheme = s.slice(0, sep).toLowerCase();
    rest = s.slice(sep + 3);
    if (scheme === "http") defaultPort = "80";
    else if (scheme === "https") defaultPort = "443";
  }
  const slash = rest.indexOf("/");
  const hostport = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash).replace(/\/+$/, "") : "";
  let host: string;
  let port: string;
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(hostport);
  if (bracketed !== null) {
    host = bracketed[1] ?? "";
    port = bracketed[2] || defaultPort;
  } else if ((hostport.match(/:/g) ?? []).length === 1) {
    const [h, p] = hostport.split(":") as [string, string];
    host = h;
    port = p || defaultPort;
  } else {
    host = hostport;
    port = defaultPort;
  }
  const n = Number(port);
  if (!/^\d+$/.test(port) || n > 65535) port = defaultPort;
  if (host === "" || host === "0.0.0.0") host = "127.0.0.1";
  if (host === "::" || host === "::0") host = "::1";
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return `${scheme}://${shownHost}:${port}${path}`;
};
