/**
 * One HTTP request sent byte for byte over a TCP socket, for tests that need what a
 * well-behaved client would never send: a malformed request line, a forged Host, a
 * chosen source address. Loopback addresses only; every call is bounded by a timeout.
 */
import { connect } from "node:net";

export interface RawAnswer {
  /** The status code, or 0 when the server closed the connection without answering. */
  readonly status: number;
  /** Header names lower-cased; the last value wins. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface RawHttpOptions {
  /** Where to connect (default 127.0.0.1). */
  readonly host?: string;
  /** The source address to connect from (e.g. 127.0.0.2). */
  readonly localAddress?: string;
  readonly timeoutMs?: number;
}

const loopback = (a: string): boolean => a === "::1" || /^127\.\d+\.\d+\.\d+$/.test(a);

/** Sends `request` as written (end it with a blank line) and reads until the server closes. */
export const rawHttp = (
  port: number,
  request: string,
  options: RawHttpOptions = {},
): Promise<RawAnswer> => {
  const host = options.host ?? "127.0.0.1";
  for (const a of [host, options.localAddress ?? "127.0.0.1"])
    if (!loopback(a)) throw new Error(`rawHttp: ${a} is not a loopback address`);
  return new Promise((resolve, reject) => {
    const socket = connect({
      port,
      host,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
    });
    const chunks: Array<Buffer> = [];
    socket.setTimeout(options.timeoutMs ?? 5000, () => {
      socket.destroy();
      reject(new Error(`rawHttp: no answer within ${options.timeoutMs ?? 5000} ms`));
    });
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (e) => {
      // A reset after a full answer is still an answer.
      if (chunks.length === 0) reject(e);
    });
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const head = split < 0 ? text : text.slice(0, split);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body: split < 0 ? "" : text.slice(split + 4),
      });
    });
    socket.write(request);
  });
};

/** A request with CRLF line ends and `Connection: close`, so the server ends the exchange. */
export const httpRequest = (
  requestLine: string,
  headers: Readonly<Record<string, string>>,
  body = "",
): string =>
  [
    requestLine,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(body === "" ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
    "Connection: close",
    "",
    body,
  ].join("\r\n");
