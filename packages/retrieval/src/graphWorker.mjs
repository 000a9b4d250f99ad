// The worker behind `buildSegmentsInWorkers`: it builds the graph segments it is given,
// one after another, each exactly as `GraphSegments` builds one in process (a fresh
// index made from the same options, rows added single-threaded in rowid order, in the
// same batches), saves each to its file, then wakes the main thread, which sleeps in
// Atomics.wait. Vectors arrive as f16 bits and are decoded with the main thread's own
// table, so the floats added are the very floats an in-process build adds.
import { workerData } from "node:worker_threads";

const { jobs, table, options, batch, flag } = workerData;
const signal = new Int32Array(flag);
const decode = new Float32Array(table);
const d = options.dimensions;
try {
  // Imported here so that a failure to load it wakes the main thread too.
  const usearch = (await import("usearch")).default;
  for (const job of jobs) {
    const rowids = new Float64Array(job.rowids);
    const half = new Uint16Array(job.half);
    const graph = new usearch.Index(options);
    for (let i = 0; i < rowids.length; i += batch) {
      const end = Math.min(rowids.length, i + batch);
      const keys = BigUint64Array.from(rowids.subarray(i, end), BigInt);
      const vectors = new Float32Array((end - i) * d);
      for (let j = 0; j < vectors.length; j++) vectors[j] = decode[half[i * d + j]];
      graph.add(keys, vectors, 1);
    }
    graph.save(job.path);
  }
  Atomics.store(signal, 0, 1);
} catch {
  Atomics.store(signal, 0, 2);
}
Atomics.notify(signal, 0);
