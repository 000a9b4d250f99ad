/**
 * A run's appends, written by a worker thread (`appendWorker.ts`) on a connection of its
 * own, so that folding a tick's events into the read models (their rows, FTS entries and
 * digest, in the one transaction an append always was) runs beside the next tick instead
 * of before it. The sender fixes every batch's seqs and the worker decodes it, holding
 * each event to be exactly what its schema decodes it to (the engine emits events in that
 * form, and its own state was built from them), so what the sender gets back is what an
 * append would have returned; the worker writes the batches in the order
 * sent, joining a few into one append (written when it fills, and whenever this side
 * settles), so the file holds whole batches, in order, and a SIGKILL loses only batches
 * not yet committed.
 *
 * Nothing reads past a batch still on its way: `SqliteEventLog` settles (waits until
 * every batch sent is committed) before each of its reads and writes, and a retrieval
 * view's reads go through its `caughtUp`. A failure in the worker is raised on the
 * sender's thread at its next send or settle, as the store error it was.
 */
import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type WorkerOptions,
} from "node:worker_threads";
import type { Event, StoredEvent } from "@hearsay/core";
import {
  type AppendJob,
  type EngineSnapshotJob,
  packEvents,
  SIGNAL,
  SIGNAL_SLOTS,
  sentOf,
  type WorkerMessage,
  type WorkerStart,
} from "./backgroundProtocol.ts";
import { type AppendResult, storedOf } from "./EventAppend.ts";
import type { EventHistory, SaveInfo } from "./EventHistory.ts";
import type { EventLogOptions } from "./SqliteEventLog.ts";
import * as StoreErrors from "./StoreError.ts";

/** How long a settle waits for a worker that shows no sign of life before giving up. */
const WORKER_SILENT_MS = 120_000;
/** How long a close waits for a worker still starting (it loads the store's modules). */
const WORKER_START_MS = 30_000;
/**
 * Jobs sent and not yet committed beyond which `append` waits for the worker: a few of
 * its joined appends (`JOIN_BATCHES`), so it never waits on a worker keeping up.
 */
const MAX_IN_FLIGHT = 96;

/**
 * The worker's module beside this one: `.js` when built (the package's dist, or the CLI's
 * bundle, which emits the worker as its own entry beside its chunks); `.ts` when the store
 * runs from its sources (a checkout's tests and benches), loaded through tsx's loader with
 * the source condition, as the sender's own modules were.
 */
const startWorker = (options: WorkerOptions): Worker => {
  if (!import.meta.url.endsWith(".ts")) {
    return new Worker(new URL("./appendWorker.js", import.meta.url), options);
  }
  const tsx = import.meta.resolve("tsx/esm/api");
  const worker = new URL("./appendWorker.ts", import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); });`;
  return new Worker(code, {
    ...options,
    eval: true,
    execArgv: [...(options.execArgv ?? []), "--conditions=@hearsay/source"],
  });
};

/** A store error sent back from the worker, as the error it was (else a `StoreFailure`). */
const revive = (sent: Record<string, unknown> | undefined): unknown => {
  const detail = typeof sent?.message === "string" ? sent.message : "the append worker stopped";
  const tag = sent?._tag;
  const Cls = typeof tag === "string" ? (StoreErrors as Record<string, unknown>)[tag] : undefined;
  if (typeof Cls === "function") {
    const { _tag, message, name, stack, ...fields } = sent ?? {};
    try {
      return new (Cls as new (fields: unknown) => unknown)(fields);
    } catch {
      // A field that did not survive the trip: the message still says what happened.
    }
  }
  return new StoreErrors.StoreFailure({ operation: "append (on the append worker)", detail });
};

export class BackgroundAppends {
  private readonly signal: Int32Array;
  private readonly errors: MessageChannel;
  private readonly worker: Worker;
  private sent = 0;
  /** `sent` when the worker was last asked to write what it holds. */
  private flushed = 0;
  private failure: unknown = undefined;
  private closed = false;
  /** Per save appended to: its head once every batch sent is committed, and the save. */
  private readonly heads = new Map<string, { head: number; readonly save: SaveInfo }>();
  /** Milliseconds the sender spent waiting for the worker (what the overlap did not hide). */
  waitedMs = 0;

  constructor(
    path: string,
    options: EventLogOptions,
    private readonly history: EventHistory,
    delayMs = 0,
  ) {
    this.signal = new Int32Array(new SharedArrayBuffer(SIGNAL_SLOTS * 4));
    this.errors = new MessageChannel();
    const start: WorkerStart = {
      path,
      options,
      signal: this.signal.buffer as SharedArrayBuffer,
      port: this.errors.port2,
      delayMs,
    };
    this.worker = startWorker({ workerData: start, transferList: [this.errors.port2] });
    // The run's thread never waits on the worker's events; it must not keep a process alive.
    this.worker.unref();
  }

  /**
   * A batch to the worker, with the seqs, the dedup within the batch and the result
   * `append` would give (no snapshot: the worker takes those the options ask for). Each
   * event this thread can vouch for (`packEvents`) the worker takes as it is; it decodes
   * the others: an event that does not decode, or not to itself, an id the save already
   * holds, fail it there, raised here at the next call.
   *
   * @throws StaleSeq when `expectedSeq` is not the head the batches sent lead to
   * @throws the worker's failure, when it had one
   */
  append(saveId: string, expectedSeq: number, events: ReadonlyArray<unknown>): AppendResult {
    this.check();
    let at = this.heads.get(saveId);
    if (at === undefined) {
      this.settle();
      const save = this.history.get(saveId);
      at = { head: save.head, save };
      this.heads.set(saveId, at);
    }
    if (at.head !== expectedSeq) {
      throw new StoreErrors.StaleSeq({ saveId, expectedSeq, headSeq: at.head });
    }
    const decoded = events as ReadonlyArray<Event>;
    const appended: Array<StoredEvent> = [];
    const ids = new Set<string>();
    for (const e of decoded) {
      if (ids.has(e.id)) continue;
      ids.add(e.id);
      appended.push(storedOf(e, at.head + appended.length + 1, at.save));
    }
    if (appended.length > 0) {
      const events = packEvents(appended) ?? appended.map(sentOf);
      const job: AppendJob = { saveId, expectedSeq, events };
      this.post(job);
      this.sent += 1;
      at.head += appended.length;
      this.keepUp();
    }
    return { head: at.head, appended, skipped: decoded.length - appended.length, snapshot: null };
  }

  /**
   * An engine snapshot for the worker to store after the batches sent before it: the
   * run's thread goes on meanwhile, and a snapshot is never in the file ahead of the log
   * it was taken at. @throws the worker's failure, when it had one
   */
  writeEngineSnapshot(job: EngineSnapshotJob): void {
    this.check();
    this.post(job);
    this.sent += 1;
  }

  /** Appends the worker has committed (it joins a few batches into one, until asked). */
  get commits(): number {
    return Atomics.load(this.signal, SIGNAL.commits);
  }

  /** The worker's thread id in the kernel, once it has started (0: not known). */
  get threadId(): number {
    return Atomics.load(this.signal, SIGNAL.tid);
  }

  /** The head the batches sent to a save lead to (undefined: none sent since the last write here). */
  sentHead(saveId: string): number | undefined {
    return this.heads.get(saveId)?.head;
  }

  /** After a write on the sender's connection: each save's head is read again at its next batch. */
  forgetHeads(): void {
    this.heads.clear();
  }

  /**
   * Asks the worker to write the batches it holds now, without waiting for it: a read
   * that will wait for them is coming, and the worker can be done by then.
   */
  flushSoon(): void {
    if (this.flushed < this.sent) this.post("flush");
    this.flushed = this.sent;
  }

  /**
   * Waits until every batch sent is committed (none sent: returns at once, even while the
   * worker is still starting). @throws the worker's failure
   */
  settle(): void {
    this.flushSoon();
    this.waitFor(this.sent);
  }

  /**
   * Waits until at most `MAX_IN_FLIGHT` jobs sent are not yet committed: a run faster
   * than its worker must not pile batches up in memory without end.
   */
  private keepUp(): void {
    if (this.sent - Atomics.load(this.signal, SIGNAL.committed) <= MAX_IN_FLIGHT) return;
    this.flushSoon();
    this.waitFor(this.sent - MAX_IN_FLIGHT);
  }

  /** Waits until `jobs` jobs are committed. @throws the worker's failure */
  private waitFor(jobs: number): void {
    let seen = Atomics.load(this.signal, SIGNAL.committed);
    let since = performance.now();
    while (seen < jobs) {
      this.check();
      const t0 = performance.now();
      Atomics.wait(this.signal, SIGNAL.committed, seen, 1000);
      const t1 = performance.now();
      this.waitedMs += t1 - t0;
      const now = Atomics.load(this.signal, SIGNAL.committed);
      if (now !== seen) {
        seen = now;
        since = t1;
      } else if (t1 - since > WORKER_SILENT_MS && Atomics.load(this.signal, SIGNAL.ready) === 0) {
        this.failure ??= new StoreErrors.StoreFailure({
          operation: "append (on the append worker)",
          detail: `the worker did not open the database within ${WORKER_SILENT_MS / 1000} s`,
        });
      }
    }
    this.check();
  }

  /**
   * Settles, then lets the worker go once it has closed its connection (its last close
   * may fold the WAL into the file: the file is then as the sender alone would leave it).
   * A failed worker's error is thrown after.
   */
  close(): void {
    if (this.closed) return;
    try {
      this.settle();
    } finally {
      this.closed = true;
      this.post("close");
      // A worker that never started (its module did not load) never answers: not forever.
      const started = performance.now();
      while (Atomics.load(this.signal, SIGNAL.closed) === 0) {
        const waited = performance.now() - started;
        const ready = Atomics.load(this.signal, SIGNAL.ready) === 1;
        if (waited > (ready ? WORKER_SILENT_MS : WORKER_START_MS)) break;
        Atomics.wait(this.signal, SIGNAL.closed, 0, 1000);
      }
      this.errors.port1.close();
    }
  }

  private post(message: WorkerMessage): void {
    this.worker.postMessage(message);
  }

  private check(): void {
    if (this.failure === undefined && Atomics.load(this.signal, SIGNAL.failed) === 1) {
      const got = receiveMessageOnPort(this.errors.port1);
      this.failure = revive(got?.message as Record<string, unknown> | undefined);
    }
    if (this.failure !== undefined) throw this.failure;
  }
}
