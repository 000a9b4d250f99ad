/**
 * What the run's thread and the append worker share: the slots of the signal (an
 * Int32Array over a SharedArrayBuffer) and the messages between them.
 */
import type { MessagePort } from "node:worker_threads";
import type { EventLogOptions } from "./SqliteEventLog.ts";

/** Slots of the shared signal. */
export const SIGNAL = {
  /** Jobs committed so far (the worker adds a transaction's when it commits, and wakes the sender). */
  committed: 0,
  /** 1 once the worker has opened the file. */
  ready: 1,
  /** 1 once a batch failed: the error waits on the port, nothing after it is written. */
  failed: 2,
  /** The worker's thread id in the kernel (0 where /proc is not there), for CPU figures. */
  tid: 3,
  /** 1 once the worker has closed its connection (after "close"): the file is the sender's alone. */
  closed: 4,
  /** Transactions the worker has committed. */
  commits: 5,
} as const;

export const SIGNAL_SLOTS = 6;

/** What the worker starts with. */
export interface WorkerStart {
  readonly path: string;
  readonly options: EventLogOptions;
  readonly signal: SharedArrayBuffer;
  readonly port: MessagePort;
  /** Wait this long before each batch (tests: a worker that lags the run). */
  readonly delayMs: number;
}

/** An event as sent: its id, time, type, version and payload as JSON (a string is cheap to send). */
export type SentEvent = readonly [string, number, string, number, string];

/**
 * An engine snapshot to store once the batches sent before it are committed
 * (`EngineSnapshotStore.write`): the run's thread hands it over rather than waiting.
 */
export interface EngineSnapshotJob {
  readonly kind: "engine-snapshot";
  readonly saveId: string;
  readonly seq: number;
  readonly format: string;
  readonly text: string;
  /** Snapshots the save keeps (older ones are deleted). */
  readonly keep: number;
}

/**
 * The messages the worker takes: a batch, an engine snapshot, "flush" (commit the open
 * transaction now: the sender waits) and "close".
 */
export type WorkerMessage = AppendJob | EngineSnapshotJob | "flush" | "close";

/** One batch: events whose seqs start at `expectedSeq + 1`. */
export interface AppendJob {
  readonly kind?: undefined;
  readonly saveId: string;
  readonly expectedSeq: number;
  readonly events: ReadonlyArray<SentEvent>;
}
