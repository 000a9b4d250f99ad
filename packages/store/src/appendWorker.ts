/**
 * The thread behind `BackgroundAppends`: it opens the run's database file on a connection
 * of its own and appends each batch it is sent, in the order sent, as `SqliteEventLog`'s
 * `append` does (log rows and read models together), then counts the batches as
 * committed in the shared signal and wakes the run's thread. It never decides anything:
 * the batches come with their seqs fixed by the sender, which vouched for the events it
 * could (`vouched`: each what its schema decodes to itself, and what JSON gives back as it
 * is). The worker takes those as they are (`takeBatch`) and decodes the others, refusing
 * an event that does not decode to exactly itself, since the sender goes on with the
 * events as it sent them. A batch that does not
 * land as sent (another writer moved the head, an id already stored) stops it: the error
 * goes back on the port, the failure flag is raised, and nothing after it is written.
 * An engine snapshot the run hands over is stored in the same order, after the batches
 * sent before it, and counted as one.
 *
 * Consecutive batches of a save are joined and written as one append (one transaction):
 * once `JOIN_BATCHES` batches (a game day's hourly ticks) or `JOIN_EVENTS` events are
 * joined, before a batch that opens with a `Checkpoint` for the store to hash (its hash is
 * read between two appends), and at once whenever the sender asks ("flush", sent by its
 * `settle` — a read of the store that must wait, the run's end — and when it is too far
 * ahead). One append of several batches writes the same rows, keys and digest as the
 * batches one by one (the store's own property), and SQLite's work per append — the SQL
 * fold's statements, each walking the same index leaves and rewriting each NPC's activity
 * row once instead of once a batch, and the commit, which writes every page dirtied — is
 * paid once for them. The run's thread does not wait for a group: it hands the
 * checkpoint's hash to the store, and reads nothing else of it while it runs but what is
 * committed already (`memoryTexts`).
 * Only written batches are counted committed, so a SIGKILL still loses only what was
 * never reported committed. A joined append that fails takes back all its batches (its
 * transaction); a batch that does not decode leaves those joined before it, which land.
 */
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { Event } from "@hearsay/core";
import {
  type AppendJob,
  SIGNAL,
  type WorkerMessage,
  type WorkerStart,
} from "./backgroundProtocol.ts";
import { decodeSent } from "./decodeSent.ts";
import { EngineSnapshotStore } from "./EngineSnapshotStore.ts";
import { opensWithCheckpointToHash } from "./EventAppend.ts";
import { openDatabase } from "./openDatabase.ts";
import { SqliteEventLog } from "./SqliteEventLog.ts";
import { takeBatch } from "./takeBatch.ts";

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

/** Batches, and events, one append may join before it is written without being asked. */
const JOIN_BATCHES = 24;
const JOIN_EVENTS = 32_768;

/** How much lower than the run's thread this thread runs (a nice value, Linux's scale). */
const WORKER_NICE_STEP = 10;

/**
 * Lowers this thread's priority below the run's thread (Linux: a thread's nice value is
 * its own, set through its kernel id). The run's thread has no slack — every tick waits
 * for it — while this one may lag by up to 96 batches, so where the two and V8's helpers
 * contend for a core, the kernel should run the run's thread first. The price: where
 * other programs keep every core busy (and the kernel does not group the run's threads
 * apart, as autogroup does for a terminal's programs), they too go before the worker, and
 * the run waits for it sooner. Without /proc (tid 0) nothing is changed: elsewhere a pid
 * of 0 names the whole process. A failure (a system that refuses) leaves the priority as
 * it was.
 */
const yieldToRunThread = (tid: number): void => {
  if (tid === 0) return;
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + WORKER_NICE_STEP));
  } catch {
    // A priority is a preference: the worker runs the same without it.
  }
};

let log: SqliteEventLog | null = null;
let snapshots: EngineSnapshotStore | null = null;
try {
  const tid = kernelThreadId();
  Atomics.store(signal, SIGNAL.tid, tid);
  yieldToRunThread(tid);
  log = new SqliteEventLog(openDatabase(start.path, { tempInMemory: true }), start.options);
  Atomics.store(signal, SIGNAL.ready, 1);
  Atomics.notify(signal, SIGNAL.committed);
} catch (e) {
  fail(e);
}

/**
 * Batches decoded and not yet written: consecutive ones of one save, written as one
 * append. Not while the store takes read-model snapshots every so many events: those are
 * taken at a batch's end, so each batch is written on its own.
 */
interface Joined {
  readonly saveId: string;
  readonly expectedSeq: number;
  readonly events: Array<Event>;
  readonly payloads: Array<string>;
  jobs: number;
}
let joined: Joined | null = null;
const joins = (start.options.snapshotEvery ?? 0) <= 0;

const counted = (jobs: number): void => {
  Atomics.add(signal, SIGNAL.committed, jobs);
  Atomics.add(signal, SIGNAL.commits, 1);
  Atomics.notify(signal, SIGNAL.committed);
};

/** Writes the joined batches as one append (one transaction) and counts them committed. */
const write = (to: SqliteEventLog): void => {
  const j = joined;
  if (j === null) return;
  joined = null;
  const result = to.appendDecoded(j.saveId, j.expectedSeq, j.events, j.payloads);
  if (result.head !== j.expectedSeq + j.events.length) {
    throw new Error(
      `save "${j.saveId}": ${j.events.length - result.appended.length} of the batches' events were already stored (by id), so their seqs would not be those the run gave them`,
    );
  }
  counted(j.jobs);
};

const join = (to: SqliteEventLog, job: AppendJob): void => {
  const { events, payloads } =
    "json" in job.events ? takeBatch(job.saveId, job.events) : decodeSent(job.saveId, job.events);
  const j = joined;
  if (
    j !== null &&
    (j.saveId !== job.saveId ||
      j.expectedSeq + j.events.length !== job.expectedSeq ||
      opensWithCheckpointToHash(events))
  )
    write(to);
  if (joined === null) {
    joined = {
      saveId: job.saveId,
      expectedSeq: job.expectedSeq,
      events: [],
      payloads: [],
      jobs: 0,
    };
  }
  const into = joined;
  for (let i = 0; i < events.length; i++) {
    into.events.push(events[i]!);
    into.payloads.push(payloads[i]!);
  }
  into.jobs += 1;
  if (!joins || into.jobs >= JOIN_BATCHES || into.events.length >= JOIN_EVENTS) write(to);
};

process.on("uncaughtException", fail);

parentPort?.on("message", (job: WorkerMessage) => {
  if (job === "close") {
    try {
      if (log !== null && Atomics.load(signal, SIGNAL.failed) === 0) write(log);
    } catch (e) {
      fail(e);
    } finally {
      try {
        log?.db.close();
      } finally {
        Atomics.store(signal, SIGNAL.closed, 1);
        Atomics.notify(signal, SIGNAL.closed);
        parentPort?.close();
      }
    }
    return;
  }
  if (log === null || Atomics.load(signal, SIGNAL.failed) === 1) return;
  try {
    if (job === "flush") {
      write(log);
      return;
    }
    if (start.delayMs > 0) Atomics.wait(pause, 0, 0, start.delayMs);
    if (job.kind === "engine-snapshot") {
      write(log);
      snapshots ??= new EngineSnapshotStore(log.db);
      snapshots.write(job.saveId, job.seq, job.format, job.text, job.keep);
      counted(1);
      return;
    }
    join(log, job);
  } catch (e) {
    // A batch that did not decode leaves those joined before it, which are good: they
    // land. A failed write took its own batches back (its transaction), and no others.
    try {
      write(log);
    } catch {}
    joined = null;
    fail(e);
  }
});
