/**
 * Synchronous `/api/embed` calls. The engine builds dossiers synchronously (inside a
 * brain's prompt assembly), so a live embedding model is reached through a worker
 * thread that owns the `ollama` client while this thread waits on a shared flag: one
 * request at a time, batched by the caller, with a deadline. Everything it returns is
 * checked (count and length); every failure is an `EmbedderError`, thrown.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { EmbedderError, normalize } from "./Embedder.ts";

export interface BlockingEmbedClientOptions {
  readonly host: string;
  readonly model: string;
  /** How long one request may take (default 120 s). */
  readonly timeoutMs?: number;
}

type Reply = { readonly embeddings: Array<Array<number>> } | { readonly error: string };

export class BlockingEmbedClient {
  private readonly worker: Worker;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessageChannel["port1"];
  private readonly timeoutMs: number;
  readonly name: string;

  constructor(private readonly options: BlockingEmbedClientOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.name = `ollama:${options.model}`;
    this.worker = new Worker(new URL("./embedWorker.mjs", import.meta.url), {
      workerData: { host: options.host, flag: this.flag.buffer, port: port2 },
      transferList: [port2],
    });
    // The worker must not keep a finished run's process alive.
    this.worker.unref();
    this.port.unref();
  }

  private fail(reason: EmbedderError["reason"], detail: string): EmbedderError {
    return new EmbedderError({ model: this.name, reason, detail });
  }

  /** Embeds texts in one request; unit vectors in input order. @throws EmbedderError */
  embed(texts: ReadonlyArray<string>, dimensions: number | null): Array<Float32Array> {
    if (texts.length === 0) return [];
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ model: this.options.model, input: [...texts] });
    const woke = Atomics.wait(this.flag, 0, 0, this.timeoutMs);
    const message = receiveMessageOnPort(this.port)?.message as Reply | undefined;
    if (woke === "timed-out" || message === undefined) {
      throw this.fail(
        "unreachable",
        `no answer from ${this.options.host} within ${this.timeoutMs} ms`,
      );
    }
    if ("error" in message) {
      throw this.fail("unreachable", `embed call to ${this.options.host} failed: ${message.error}`);
    }
    if (message.embeddings.length !== texts.length) {
      throw this.fail(
        "bad-response",
        `asked for ${texts.length} vectors, got ${message.embeddings.length}`,
      );
    }
    return message.embeddings.map((e) => {
      if (e.length === 0 || (dimensions !== null && e.length !== dimensions)) {
        throw this.fail(
          "dimension-mismatch",
          `got a ${e.length}-dimensional vector, expected ${dimensions}`,
        );
      }
      return normalize(Float32Array.from(e));
    });
  }

  /** Stops the worker. */
  close(): void {
    void this.worker.terminate();
    this.port.close();
  }
}
