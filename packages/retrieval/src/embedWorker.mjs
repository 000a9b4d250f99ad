// The worker behind `BlockingEmbedClient`: it owns the `ollama` client and answers one
// `embed` request at a time on its port, then wakes the main thread, which sleeps in
// Atomics.wait so the engine's synchronous dossier path can embed through a live model.
import { workerData } from "node:worker_threads";
import { Ollama } from "ollama";

const { host, flag, port } = workerData;
const signal = new Int32Array(flag);
const client = new Ollama({ host });

port.on("message", async (request) => {
  let reply;
  try {
    const r = await client.embed({ model: request.model, input: request.input });
    reply = { embeddings: r.embeddings };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
