/**
 * A real HTTP server on 127.0.0.1 that speaks enough of Ollama's API for tests and
 * benches — /api/version, /api/tags, /api/show, /api/chat (streamed or not),
 * /api/embed, /api/pull (streamed progress) — answering from recorded fixtures, with
 * switchable chat behaviours: good answers, malformed JSON, schema-invalid JSON,
 * unknown ids, slow past a timeout, an HTTP 500, and `die` (drop the connection and
 * shut down mid-call). A model that is not installed answers 404 until pulled;
 * `kill()` ends the server at once, so later calls find the port closed.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type AnswerKind, chatAnswer, readPrompt } from "./chatAnswer.ts";
import { type ConceptModel, fitConceptModel } from "./conceptEmbedding.ts";
import { loadOllamaFixtures, type OllamaFixtures } from "./OllamaFixtures.ts";

export type ChatBehaviour = AnswerKind | "slow" | "error_500" | "die";

export interface FixtureRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown> | null;
}

export interface OllamaFixtureServerOptions {
  /** Fixtures directory (default: the testkit's own). */
  readonly fixturesDir?: string;
  /** How long a `slow` answer waits (default 2,000 ms). */
  readonly slowMs?: number;
  /**
   * Texts to fit /api/embed's model on (see `conceptEmbedding`); absent: each text gets
   * a pseudo-random unit vector from its hash (stable, but meaningless).
   */
  readonly embedCorpus?: ReadonlyArray<string>;
}

const normalize = (name: string): string => (name.includes(":") ? name : `${name}:latest`);

/** A deterministic unit vector for a text (for /api/embed). */
const embedding = (text: string, dims: number): Array<number> => {
  const out: Array<number> = [];
  for (let block = 0; out.length < dims; block++) {
    const digest = createHash("sha256").update(`${block}\u0000${text}`).digest();
    for (let i = 0; i + 2 <= digest.length && out.length < dims; i += 2)
      out.push(digest.readUInt16BE(i) / 32768 - 1);
  }
  const norm = Math.sqrt(out.reduce((a, x) => a + x * x, 0)) || 1;
  return out.map((x) => x / norm);
};

export class OllamaFixtureServer {
  /** Every request received, in order. */
  readonly requests: Array<FixtureRequest> = [];
  private behaviour: ChatBehaviour = "good";
  private readonly queued: Array<ChatBehaviour> = [];
  private readonly installedModels: Set<string>;
  private pullsFail = false;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private embedsLeft = Number.POSITIVE_INFINITY;
  private readonly concepts = new Map<number, ConceptModel>();
  embedCorpus: ReadonlyArray<string> | null = null;
  private inflight = 0;
  private peak = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly fixtures: OllamaFixtures,
    private readonly slowMs: number,
  ) {
    this.installedModels = new Set(
      fixtures.models.filter((m) => m.installed).map((m) => m.tag.name),
    );
  }

  /** Starts a server on 127.0.0.1 at a free port. */
  static async start(options: OllamaFixtureServerOptions = {}): Promise<OllamaFixtureServer> {
    const fixtures = loadOllamaFixtures(options.fixturesDir);
    const corpus = options.embedCorpus ?? null;
    let self: OllamaFixtureServer | null = null;
    const server = createServer((req, res) => {
      if (self !== null) void self.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string")
      throw new Error("fixture server has no port");
    self = new OllamaFixtureServer(
      server,
      `http://127.0.0.1:${address.port}`,
      fixtures,
      options.slowMs ?? 2_000,
    );
    self.embedCorpus = corpus;
    const s = self;
    server.on("connection", (socket) => {
      s.sockets.add(socket);
      socket.on("close", () => s.sockets.delete(socket));
    });
    return self;
  }

  /** The behaviour of every chat from now on (after any queued ones). */
  behave(behaviour: ChatBehaviour): this {
    this.behaviour = behaviour;
    return this;
  }

  /** Behaviours for the next chats, one each, before the standing behaviour resumes. */
  queue(...behaviours: ReadonlyArray<ChatBehaviour>): this {
    this.queued.push(...behaviours);
    return this;
  }

  /** Answers this many more /api/embed requests, then fails every one with HTTP 500. */
  failEmbedsAfter(requests: number | null): this {
    this.embedsLeft = requests ?? Number.POSITIVE_INFINITY;
    return this;
  }

  /** Embed requests received so far. */
  embeds(): Array<FixtureRequest> {
    return this.requests.filter((r) => r.path === "/api/embed");
  }

  /** Makes pulls fail (as for a name the registry does not have). */
  failPulls(fail = true): this {
    this.pullsFail = fail;
    return this;
  }

  /** Marks a fixture model installed or not. */
  setInstalled(name: string, installed: boolean): this {
    if (installed) this.installedModels.add(normalize(name));
    else this.installedModels.delete(normalize(name));
    return this;
  }

  installed(): Array<string> {
    return [...this.installedModels].sort();
  }

  /** Chat requests received so far. */
  chats(): Array<FixtureRequest> {
    return this.requests.filter((r) => r.path === "/api/chat");
  }

  /** The most chats this server has had open at the same time. */
  peakConcurrentChats(): number {
    return this.peak;
  }

  /** Dies at once: open connections are dropped and the port is closed. */
  async kill(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Shuts down (same as kill; kept for symmetry with other servers). */
  close(): Promise<void> {
    return this.kill();
  }

  private model(name: unknown) {
    return typeof name === "string"
      ? this.fixtures.models.find((m) => m.tag.name === normalize(name))
      : undefined;
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  private notFound(res: ServerResponse, name: unknown): void {
    this.send(res, 404, { error: `model "${String(name)}" not found, try pulling it first` });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Array<Buffer> = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown> | null = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return this.send(res, 400, { error: "invalid JSON body" });
      }
    }
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    this.requests.push({ method: req.method ?? "GET", path, body });
    switch (path) {
      case "/api/version":
        return this.send(res, 200, { version: this.fixtures.version });
      case "/api/tags":
        return this.send(res, 200, {
          models: this.fixtures.models
            .filter((m) => this.installedModels.has(m.tag.name))
            .map((m) => m.tag),
        });
      case "/api/show": {
        const m = this.model(body?.model ?? body?.name);
        if (m === undefined || !this.installedModels.has(m.tag.name))
          return this.notFound(res, body?.model ?? body?.name);
        return this.send(res, 200, m.show);
      }
      case "/api/embed":
        return this.embed(res, body);
      case "/api/pull":
        return this.pull(res, body);
      case "/api/chat": {
        this.inflight++;
        this.peak = Math.max(this.peak, this.inflight);
        res.on("close", () => this.inflight--);
        return this.chat(req, res, body);
      }
      default:
        return this.send(res, 404, { error: `no route ${path}` });
    }
  }

  private embed(res: ServerResponse, body: Record<string, unknown> | null): void {
    const m = this.model(body?.model);
    if (m === undefined || !this.installedModels.has(m.tag.name)) {
      this.notFound(res, body?.model);
      return;
    }
    const arch = String(m.show.model_info["general.architecture"] ?? "");
    const dims = Number(m.show.model_info[`${arch}.embedding_length`] ?? 8);
    const inputs = Array.isArray(body?.input)
      ? (body.input as Array<unknown>).map(String)
      : [String(body?.input ?? "")];
    if (this.embedsLeft <= 0) {
      this.send(res, 500, { error: "llama runner process has terminated: signal: killed" });
      return;
    }
    this.embedsLeft -= 1;
    const corpus = this.embedCorpus;
    let model = corpus === null ? undefined : this.concepts.get(dims);
    if (corpus !== null && model === undefined) {
      model = fitConceptModel(corpus, dims);
      this.concepts.set(dims, model);
    }
    this.send(res, 200, {
      model: m.tag.name,
      embeddings: inputs.map((t) => (model ? model.embed(t) : embedding(t, dims))),
      total_duration: 1_000_000,
      load_duration: 0,
      prompt_eval_count: inputs.reduce((a, t) => a + Math.ceil(t.length / 4), 0),
    });
  }

  private pull(res: ServerResponse, body: Record<string, unknown> | null): void {
    const name = body?.model ?? body?.name;
    const m = this.model(name);
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    if (m === undefined || this.pullsFail) {
      res.end(
        `${JSON.stringify({ status: "pulling manifest" })}\n${JSON.stringify({ error: "pull model manifest: file does not exist" })}\n`,
      );
      return;
    }
    const size = m.tag.size;
    const slots: Record<string, string> = {
      digest: m.tag.digest.slice(0, 12),
      size: String(size),
      quarter: String(Math.floor(size / 4)),
      half: String(Math.floor(size / 2)),
    };
    const lines = this.fixtures.pullLines.map((l) =>
      l.replace(/\{(\w+)\}/g, (all, k: string) => slots[k] ?? all),
    );
    this.installedModels.add(m.tag.name);
    res.end(`${lines.join("\n")}\n`);
  }

  private chat(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown> | null,
  ): void {
    const behaviour = this.queued.shift() ?? this.behaviour;
    const model = body?.model;
    const m = this.model(model);
    if (m === undefined || !this.installedModels.has(m.tag.name)) {
      this.notFound(res, model);
      return;
    }
    if (behaviour === "die") {
      req.socket.destroy();
      void this.kill();
      return;
    }
    if (behaviour === "error_500") {
      this.send(res, 500, { error: "llama runner process has terminated: signal: killed" });
      return;
    }
    const messages = (Array.isArray(body?.messages) ? body.messages : []) as Array<{
      role: string;
      content: string;
    }>;
    const prompt = readPrompt(messages);
    const promptText = messages.map((x) => x.content).join("\n");
    const kind: AnswerKind = behaviour === "slow" ? "good" : behaviour;
    const content = chatAnswer(
      prompt === null ? undefined : this.fixtures.chat[prompt.purpose],
      kind,
      prompt?.input ?? null,
      promptText,
    );
    const reply = () => this.reply(res, m.tag.name, content, promptText, body?.stream === true);
    if (behaviour !== "slow") {
      reply();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!res.destroyed) reply();
    }, this.slowMs);
    this.timers.add(timer);
    res.on("close", () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }

  private reply(
    res: ServerResponse,
    model: string,
    content: string,
    promptText: string,
    stream: boolean,
  ): void {
    const counts = {
      total_duration: 250_000_000,
      load_duration: 1_000_000,
      prompt_eval_count: Math.ceil(promptText.length / 4),
      prompt_eval_duration: 100_000_000,
      eval_count: Math.max(1, Math.ceil(content.length / 4)),
      eval_duration: 150_000_000,
    };
    const created_at = "2026-11-22T00:00:00.000Z";
    if (!stream) {
      this.send(res, 200, {
        model,
        created_at,
        message: { role: "assistant", content },
        done: true,
        done_reason: "stop",
        ...counts,
      });
      return;
    }
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    const third = Math.ceil(content.length / 3);
    const parts = [
      content.slice(0, third),
      content.slice(third, 2 * third),
      content.slice(2 * third),
    ];
    for (const part of parts)
      res.write(
        `${JSON.stringify({ model, created_at, message: { role: "assistant", content: part }, done: false })}\n`,
      );
    res.end(
      `${JSON.stringify({ model, created_at, message: { role: "assistant", content: "" }, done: true, done_reason: "stop", ...counts })}\n`,
    );
  }
}
