/**
 * The thread behind `BackgroundAppends`: it opens the run's database file on a connection
 * of its own and appends each batch it is sent, in the order sent, as `SqliteEventLog`'s
 * `append` does (log rows and read models in one transaction), then counts the batch as
 * committed in the shared signal and wakes the run's thread. It never decides anything:
 * the batches come with their seqs fixed by the sender, which did not decode them — the
 * worker does, and refuses an event that does not decode to exactly itself, since the
 * sender goes on with the events as it sent them. A batch that does not
 * land as sent (another writer moved the head, an id already stored) stops it: the error
 * goes back on the port, the failure flag is raised, and nothing after it is written.
 * An engine snapshot the run hands over is stored in the same order, after the batches
 * sent before it, and counted as one.
 */
import { readlinkSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import {
  type AppendJob,
  type EngineSnapshotJob,
  SIGNAL,
  sentEvents,
  type WorkerStart,
} from "./backgroundProtocol.ts";
import { decodeSent } from "./decodeSent.ts";
import { EngineSnapshotStore } from "./EngineSnapshotStore.ts";
import { openDatabase } from "./openDatabase.ts";
import { SqliteEventLog } from "./SqliteEventLog.ts";

const start = workerData as WorkerStart;
const signal = new Int32Array(start.signal);
const port = start.port;

const fail = (e: unknown): void => {
  const error =
    typeof e === "object" && e !== null
      ? {
          ...(e as Record<string, unknown>),
          _tag: (e as { _tag?: unknown })._tag,
          message: e instanceof Error ? e.message : String(e),
          name: e instanceof Error ? e.name : "Error",
        }
      : { message: String(e), name: "Error" };
  port.postMessage(error);
  Atomics.store(signal, SIGNAL.failed, 1);
  Atomics.notify(signal, SIGNAL.committed);
};

/** This thread's id in the kernel, from /proc (Linux), so a bench can tell its CPU apart. */
const kernelThreadId = (): number => {
  try {
    return Number(readlinkSync("/proc/thread-self").split("/").pop()) || 0;
  } catch {
    return 0;
  }
};

const pause = new Int32Array(new SharedArrayBuffer(4));

let log: SqliteEventLog | null = null;
let snapshots: EngineSnapshotStore | null = null;
try {
  Atomics.store(signal, SIGNAL.tid, kernelThreadId());
  log = new SqliteEventLog(openDatabase(start.path, { tempInMemory: true }), start.options);
  Atomics.store(signal, SIGNAL.ready, 1);
  Atomics.notify(signal, SIGNAL.committed);
} catch (e) {
  fail(e);
}

process.on("uncaughtException", fail);

parentPort?.on("message", (job: AppendJob | EngineSnapshotJob | "close") => {
  if (job === "close") {
    try {
      log?.db.close();
    } finally {
      Atomics.store(signal, SIGNAL.closed, 1);
      Atomics.notify(signal, SIGNAL.closed);
      parentPort?.close();
    }
    return;
  }
  if (log === null || Atomics.load(signal, SIGNAL.failed) === 1) return;
  try {
    if (start.delayMs > 0) Atomics.wait(pause, 0, 0, start.delayMs);
    if (job.kind === "engine-snapshot") {
      snapshots ??= new EngineSnapshotStore(log.db);
      snapshots.write(job.saveId, job.seq, job.format, job.text, job.keep);
      Atomics.add(signal, SIGNAL.committed, 1);
      Atomics.notify(signal, SIGNAL.committed);
      return;
    }
    const sent = sentEvents(job);
    const { events, payloads } = decodeSent(job.saveId, sent);
    const result = log.appendDecoded(job.saveId, job.expectedSeq, events, payloads);
    if (result.head !== job.expectedSeq + sent.length) {
      throw new Error(
        `save "${job.saveId}": ${sent.length - result.appended.length} of a batch's events were already stored (by id), so its seqs would not be those the run gave them`,
      );
    }
    Atomics.add(signal, SIGNAL.committed, 1);
    Atomics.notify(signal, SIGNAL.committed);
  } catch (e) {
    fail(e);
  }
});
