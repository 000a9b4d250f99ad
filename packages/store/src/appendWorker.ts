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
 */
import { readlinkSync } from "node:fs";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { type AppendJob, SIGNAL, type WorkerStart } from "./backgroundProtocol.ts";
import { decodeSent } from "./decodeSent.ts";
import { openDatabase } from "./openDatabase.ts";
import { digestTally, withDigest } from "./ProjectionDigest.ts";
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
try {
  Atomics.store(signal, SIGNAL.tid, kernelThreadId());
  log = new SqliteEventLog(openDatabase(start.path, { tempInMemory: true }), start.options);
  Atomics.store(signal, SIGNAL.ready, 1);
  Atomics.notify(signal, SIGNAL.committed);
} catch (e) {
  fail(e);
}

process.on("uncaughtException", fail);

/** Appends one batch as sent (in the transaction it is called in); throws if it does not land so. */
const appendOne = (log: SqliteEventLog, job: AppendJob): void => {
  const { events, payloads } = decodeSent(job.saveId, job.events);
  const result = log.appendDecoded(job.saveId, job.expectedSeq, events, payloads);
  if (result.head !== job.expectedSeq + job.events.length) {
    throw new Error(
      `save "${job.saveId}": ${job.events.length - result.appended.length} of a batch's events were already stored (by id), so its seqs would not be those the run gave them`,
    );
  }
};

/**
 * Appends `jobs` in one transaction, each under a savepoint of its own. The first that
 * does not land is rolled back, with its digest deltas, and nothing after it is tried;
 * those before it are committed.
 */
const appendAll = (
  log: SqliteEventLog,
  jobs: ReadonlyArray<AppendJob>,
): { readonly landed: number; readonly failure?: { readonly error: unknown } } => {
  const { db } = log;
  const tally = digestTally(db);
  let landed = 0;
  let failure: { readonly error: unknown } | undefined;
  withDigest(
    db,
    () => {
      for (const job of jobs) {
        db.exec("SAVEPOINT batch");
        try {
          appendOne(log, job);
          tally.flush();
          db.exec("RELEASE batch");
          landed += 1;
        } catch (error) {
          tally.discard();
          db.exec("ROLLBACK TO batch");
          db.exec("RELEASE batch");
          failure = { error };
          return;
        }
      }
    },
    true,
  );
  return failure === undefined ? { landed } : { landed, failure };
};

const close = (): void => {
  try {
    log?.db.close();
  } finally {
    Atomics.store(signal, SIGNAL.closed, 1);
    Atomics.notify(signal, SIGNAL.closed);
    parentPort?.close();
  }
};

const committed = (batches: number): void => {
  Atomics.add(signal, SIGNAL.commits, 1);
  Atomics.add(signal, SIGNAL.committed, batches);
  Atomics.notify(signal, SIGNAL.committed);
};

parentPort?.on("message", (job: AppendJob | "close") => {
  if (job === "close") return close();
  if (log === null || Atomics.load(signal, SIGNAL.failed) === 1) return;
  if (start.delayMs > 0) Atomics.wait(pause, 0, 0, start.delayMs);
  // The batches sent while the last ones were written wait on the port: they are
  // committed together, each whole, so a page two ticks change is written once, not twice
  // (a worker that keeps up takes one at a time).
  const jobs = [job];
  let closing = false;
  for (;;) {
    const next = parentPort === null ? undefined : receiveMessageOnPort(parentPort);
    if (next === undefined) break;
    if (next.message === "close") {
      closing = true;
      break;
    }
    jobs.push(next.message as AppendJob);
  }
  try {
    if (jobs.length === 1) {
      appendOne(log, job);
      committed(1);
    } else {
      const { landed, failure } = appendAll(log, jobs);
      if (landed > 0) committed(landed);
      if (failure !== undefined) fail(failure.error);
    }
  } catch (e) {
    fail(e);
  }
  if (closing) close();
});
