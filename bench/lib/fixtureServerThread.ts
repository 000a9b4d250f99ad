/**
 * The Ollama fixture server on a thread of its own, for benches that time the engine
 * against it: a real model server is another process, so the engine's work must not
 * delay the server's answers (and the server's work must not count as the engine's),
 * as it would if both shared one event loop. `modelMs` makes every answer wait that
 * long on the server's side, as a model generating would. The thread notes when it
 * finished each answer (absolute time, `performance.timeOrigin + performance.now()`),
 * so a bench can tell how long an answer waited to be read.
 */
import { ServerResponse } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { OllamaFixtureServer } from "@hearsay/testkit";

/** A fixture server running on its own thread. */
export interface FixtureServerThread {
  readonly url: string;
  /** Stops the server; resolves to when each chat answer was finished, in order (absolute ms). */
  close(): Promise<ReadonlyArray<number>>;
}

/** Starts the fixture server on a worker thread. */
export const startFixtureServerThread = async (modelMs = 0): Promise<FixtureServerThread> => {
  // The thread loads this file through tsx, as the bench runner was.
  const worker = new Worker(
    `import { register } from "tsx/esm/api"; register(); await import(${JSON.stringify(import.meta.url)});`,
    { eval: true, workerData: { modelMs } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    worker.once("message", (m: { url: string }) => resolve(m.url));
    worker.once("error", reject);
  });
  return {
    url,
    close: async () => {
      const finished = new Promise<ReadonlyArray<number>>((resolve) =>
        worker.once("message", (m: { finished: ReadonlyArray<number> }) => resolve(m.finished)),
      );
      worker.postMessage("close");
      const out = await finished;
      await new Promise((resolve) => worker.once("exit", resolve));
      return out;
    },
  };
};

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const { modelMs } = workerData as { modelMs: number };
  const finished: Array<number> = [];
  const end = ServerResponse.prototype.end;
  // Every answer of the server ends here: delay it like a model would, and note when.
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: Array<unknown>) {
    const chat = this.req?.url === "/api/chat";
    const finish = () => {
      if (chat) finished.push(performance.timeOrigin + performance.now());
      return (end as (...a: Array<unknown>) => ServerResponse).apply(this, args);
    };
    if (modelMs > 0 && chat) setTimeout(finish, modelMs);
    else finish();
    return this;
  } as typeof end;
  const server = await OllamaFixtureServer.start({});
  port.on("message", async () => {
    await server.close();
    port.postMessage({ finished });
    port.close();
  });
  port.postMessage({ url: server.url });
}
