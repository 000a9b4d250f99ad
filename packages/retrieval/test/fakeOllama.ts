/**
 * A small loopback server that speaks the slice of Ollama's HTTP API the embedder uses:
 * GET /api/tags, POST /api/show, POST /api/embed and a streamed POST /api/pull. Models
 * not installed answer 404 until pulled. It records every embed batch size.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeOllama {
  readonly url: string;
  readonly batches: Array<number>;
  readonly installed: Set<string>;
  pullFails: boolean;
  close(): Promise<void>;
}

const tag = (m: string) => (m.includes(":") ? m : `${m}:latest`);

const vector = (text: string, dims: number): Array<number> => {
  const out: Array<number> = [];
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  for (let i = 0; i < dims; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    out.push((h % 2000) / 1000 - 1);
  }
  return out;
};

const body = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Array<Buffer> = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {};
};

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

/** Starts the fake with `dims`-dimensional models; `installed` lists models present at start. */
export const startFakeOllama = async (
  dims: number,
  installed: ReadonlyArray<string>,
): Promise<FakeOllama> => {
  const state = {
    batches: [] as Array<number>,
    installed: new Set(installed.map(tag)),
    pullFails: false,
  };
  const server: Server = createServer(async (req, res) => {
    const b = req.method === "POST" ? await body(req) : {};
    const model = tag(String(b.model ?? b.name ?? ""));
    switch (req.url) {
      case "/api/tags":
        return json(res, 200, {
          models: [...state.installed].map((name) => ({ name, model: name, size: 1, digest: "d" })),
        });
      case "/api/show":
        if (!state.installed.has(model))
          return json(res, 404, { error: `model "${model}" not found` });
        return json(res, 200, {
          model_info: { "bert.embedding_length": dims },
          capabilities: ["embedding"],
        });
      case "/api/embed": {
        if (!state.installed.has(model))
          return json(res, 404, { error: `model "${model}" not found, try pulling it first` });
        const input = Array.isArray(b.input) ? (b.input as Array<string>) : [String(b.input)];
        state.batches.push(input.length);
        return json(res, 200, { model, embeddings: input.map((t) => vector(t, dims)) });
      }
      case "/api/pull": {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.write(`${JSON.stringify({ status: "pulling manifest" })}\n`);
        for (const completed of [0, 400, 1000]) {
          res.write(
            `${JSON.stringify({ status: "pulling 0abc", digest: "sha256:0abc", total: 1000, completed })}\n`,
          );
        }
        if (state.pullFails) {
          res.end(`${JSON.stringify({ error: "pull model manifest: file does not exist" })}\n`);
          return;
        }
        state.installed.add(model);
        res.end(`${JSON.stringify({ status: "success" })}\n`);
        return;
      }
      default:
        return json(res, 404, { error: "not found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
};
