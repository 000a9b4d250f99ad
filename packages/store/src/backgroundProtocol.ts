/**
 * What the run's thread and the append worker share: the slots of the signal (an
 * Int32Array over a SharedArrayBuffer) and the messages between them.
 */
import type { MessagePort } from "node:worker_threads";
import { vouched } from "./decodeSent.ts";
import type { EventLogOptions } from "./SqliteEventLog.ts";

/** Slots of the shared signal. */
export const SIGNAL = {
  /** Jobs committed so far (the worker adds an append's batches when it writes them, and wakes the sender). */
  committed: 0,
  /** 1 once the worker has opened the file. */
  ready: 1,
  /** 1 once a batch failed: the error waits on the port, nothing after it is written. */
  failed: 2,
  /** The worker's thread id in the kernel (0 where /proc is not there), for CPU figures. */
  tid: 3,
  /** 1 once the worker has closed its connection (after "close"): the file is the sender's alone. */
  closed: 4,
  /** Appends (transactions) the worker has committed: joined batches, or a snapshot. */
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
 * A batch's events packed for the trip: the ids back to back in one string, the payloads'
 * JSON in one array, and per event (`PACKED_FIELDS` numbers in `meta`) its time, version,
 * type (an index into `types`), the length of its id, and 1 when the run's thread vouched
 * for it (`vouched`), else 0. postMessage clones an array of tuples value by value, on the
 * sender's thread and again on the worker's; this is a few strings and one typed array.
 * (The JSON stays one string per event: joined, one payload with a character past
 * Latin-1 makes the whole batch two bytes a character.)
 */
export interface PackedEvents {
  readonly ids: string;
  readonly types: ReadonlyArray<string>;
  readonly json: ReadonlyArray<string>;
  readonly meta: Float64Array;
}

export const PACKED_FIELDS = 5;

/** What `packEvents` reads of an event (an event the engine emitted, not yet decoded). */
export interface Sendable {
  readonly id: unknown;
  readonly t: unknown;
  readonly type: unknown;
  readonly version: unknown;
  readonly payload: unknown;
}

/** An event as a tuple, as it is sent when its batch cannot be packed. */
export const sentOf = (e: Sendable): SentEvent =>
  [e.id, e.t, e.type, e.version, JSON.stringify(e.payload)] as unknown as SentEvent;

/**
 * The events packed, or null when one of them holds what the packing would not keep as
 * it is — an id or type that is not a string, a time or version that is not a number, a
 * payload without JSON: a batch with such an event goes as tuples (`sentOf`), so the
 * worker decodes what was there and refuses it. Each event the run's thread vouches for
 * (`vouched`: every field what its schema decodes to itself, and what its JSON gives back
 * as it is) is marked so: the worker takes those as they are, and decodes the others
 * (`takeBatch`).
 */
export const packEvents = (events: ReadonlyArray<Sendable>): PackedEvents | null => {
  const meta = new Float64Array(events.length * PACKED_FIELDS);
  const types: Array<string> = [];
  const typeAt = new Map<string, number>();
  // Pushed, not preallocated: postMessage clones a holey array as a sparse one, key by key.
  const json: Array<string> = [];
  let ids = "";
  for (let i = 0, m = 0; i < events.length; i++, m += PACKED_FIELDS) {
    const e = events[i]!;
    const { id, t, type, version } = e;
    const payload = JSON.stringify(e.payload) as string | undefined;
    if (
      typeof id !== "string" ||
      typeof t !== "number" ||
      typeof type !== "string" ||
      typeof version !== "number" ||
      typeof payload !== "string"
    ) {
      return null;
    }
    let k = typeAt.get(type);
    if (k === undefined) {
      k = types.length;
      types.push(type);
      typeAt.set(type, k);
    }
    ids += id;
    json.push(payload);
    meta[m] = t;
    meta[m + 1] = version;
    meta[m + 2] = k;
    meta[m + 3] = id.length;
    meta[m + 4] = vouched(e) ? 1 : 0;
  }
  return { ids, types, json, meta };
};

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
 * The messages the worker takes: a batch, an engine snapshot, "flush" (write the batches
 * it holds now: the sender waits, or soon will) and "close".
 */
export type WorkerMessage = AppendJob | EngineSnapshotJob | "flush" | "close";

/** One batch: events whose seqs start at `expectedSeq + 1`. */
export interface AppendJob {
  readonly kind?: undefined;
  readonly saveId: string;
  readonly expectedSeq: number;
  /** Packed (`packEvents`), or as tuples when the batch could not be. */
  readonly events: PackedEvents | ReadonlyArray<SentEvent>;
}
