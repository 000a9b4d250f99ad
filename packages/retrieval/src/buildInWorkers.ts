/**
 * Builds several graph segments at once, one thread per share of them. Each segment is
 * still built by one thread, from a fresh index, in rowid order (`graphWorker.mjs` does
 * what `buildGraph` does), so the graphs are the ones a single thread builds: only how
 * long the build takes depends on the threads. Used by a rebuild, which builds every
 * segment of a collection at once; a run seals one segment at a time and never gets here.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Index } from "usearch";
import { HALF_TABLE } from "./halfFloat.ts";
import {
  buildGraph,
  GRAPH_ADD_BATCH,
  type GraphTuning,
  graphOptions,
  newGraph,
} from "./newGraph.ts";

/** What the builder reads: rows' vectors as floats (in process) or as f16 bits (for a worker). */
export interface GraphRows {
  vectorsOf(rowids: Float64Array): Float32Array;
  halvesOf(rowids: Float64Array): Uint16Array;
}

let files = 0;
/** How long a worker may take per row before its jobs are built here instead (10 rows/s). */
const WORKER_MS_PER_ROW = 100;

/** Splits jobs over `threads` bins, largest first into the lightest bin (bin 0 is this thread). */
const assign = (sizes: ReadonlyArray<number>, threads: number): Array<Array<number>> => {
  const bins = Array.from({ length: threads }, () => ({ load: 0, jobs: [] as Array<number> }));
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  for (const i of order) {
    let best = bins[0]!;
    for (const b of bins) if (b.load < best.load) best = b;
    best.jobs.push(i);
    best.load += sizes[i]!;
  }
  return bins.map((b) => b.jobs);
};

const shared = <T extends Float64Array | Uint16Array | Float32Array>(src: T): ArrayBuffer => {
  const buf = new SharedArrayBuffer(src.byteLength);
  new Uint8Array(buf).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
  return buf as unknown as ArrayBuffer;
};

/**
 * The graphs of `jobs` (each a segment's rowids, ascending), in job order, built over
 * `threads` threads (this one included), and how many of them workers built. A worker
 * that fails leaves its jobs to this thread, so the graphs never depend on whether
 * threads were available.
 */
export const buildInWorkers = (
  dimensions: number,
  tuning: GraphTuning,
  jobs: ReadonlyArray<Float64Array>,
  rows: GraphRows,
  threads: number,
): { readonly graphs: Array<Index>; readonly byWorkers: number } => {
  let byWorkers = 0;
  const out: Array<Index | undefined> = jobs.map(() => undefined);
  const bins = assign(
    jobs.map((j) => j.length),
    Math.max(1, Math.min(threads, jobs.length)),
  );
  const table = shared(HALF_TABLE);
  const started = bins.slice(1).map((bin) => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const paths = bin.map((i) =>
      join(tmpdir(), `hearsay-graph-${process.pid}-${files++}-${i}.usearch`),
    );
    try {
      const worker = new Worker(new URL("./graphWorker.mjs", import.meta.url), {
        workerData: {
          jobs: bin.map((i, k) => ({
            rowids: shared(jobs[i]!),
            half: shared(rows.halvesOf(jobs[i]!)),
            path: paths[k],
          })),
          table,
          options: graphOptions(dimensions, tuning),
          batch: GRAPH_ADD_BATCH,
          flag: flag.buffer,
        },
      });
      worker.unref();
      return { bin, flag, paths, worker };
    } catch {
      return { bin, flag: null, paths, worker: null };
    }
  });
  for (const i of bins[0]!) out[i] = buildGraph(dimensions, tuning, jobs[i]!, rows.vectorsOf);
  for (const w of started) {
    let ok = false;
    if (w.flag) {
      // A worker that never answers (killed, stuck) is given up on, its jobs built here.
      const rowsOfBin = w.bin.reduce((a, i) => a + jobs[i]!.length, 0);
      Atomics.wait(w.flag, 0, 0, WORKER_MS_PER_ROW * rowsOfBin + 60_000);
      ok = Atomics.load(w.flag, 0) === 1;
    }
    w.bin.forEach((i, k) => {
      const path = w.paths[k]!;
      let graph: Index | undefined;
      if (ok) {
        try {
          graph = newGraph(dimensions, tuning);
          graph.load(path);
          if (graph.size() !== jobs[i]!.length) graph = undefined;
        } catch {
          graph = undefined;
        }
      }
      rmSync(path, { force: true });
      if (graph) byWorkers++;
      out[i] = graph ?? buildGraph(dimensions, tuning, jobs[i]!, rows.vectorsOf);
    });
    void w.worker?.terminate();
  }
  return { graphs: out as Array<Index>, byWorkers };
};
