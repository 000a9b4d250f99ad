/**
 * A packed batch as the append worker takes it. The run's thread marks each event it
 * vouched for (`vouched`, decodeSent.ts): one that is, field by field, what its schema
 * decodes to itself, and what its JSON parses back to. The worker does not decode those
 * again: each keeps its payload as the JSON sent, parsed the first time something reads
 * it. An append reads few: the SQL fold reads the JSON in SQLite, the markers fold into
 * nothing, and only the events the projector folds one by one, and a Checkpoint to hash,
 * are parsed. The events not vouched for are decoded (`decodeSent`), as is a batch sent
 * unpacked.
 */
import type { Event, StoredEvent } from "@hearsay/core";
import { PACKED_FIELDS, type PackedEvents, type SentEvent } from "./backgroundProtocol.ts";
import { decodeSent } from "./decodeSent.ts";
import { InvalidEvent } from "./StoreError.ts";

const UNREAD: unique symbol = Symbol("unread");

/** An event of a vouched batch: its payload parsed from the JSON sent when first read. */
export class VouchedEvent {
  readonly #json: string;
  #payload: unknown = UNREAD;

  constructor(
    readonly type: string,
    readonly version: number,
    readonly id: string,
    readonly t: number,
    json: string,
  ) {
    this.#json = json;
  }

  get payload(): unknown {
    if (this.#payload === UNREAD) this.#payload = JSON.parse(this.#json);
    return this.#payload;
  }

  /** The event as the log stores it at `seq` of a save: its payload still read when first asked. */
  stored(seq: number, saveId: string, campaignId: string): StoredEvent {
    return new VouchedStoredEvent(this, seq, saveId, campaignId) as unknown as StoredEvent;
  }

  /** The event as JSON writes a decoded one (the payload read). */
  toJSON(): {
    readonly type: string;
    readonly version: number;
    readonly id: string;
    readonly t: number;
    readonly payload: unknown;
  } {
    return {
      type: this.type,
      version: this.version,
      id: this.id,
      t: this.t,
      payload: this.payload,
    };
  }
}

/** A vouched event as stored: the same fields, and the payload of the event it was. */
class VouchedStoredEvent {
  readonly type: string;
  readonly version: number;
  readonly id: string;
  readonly t: number;
  readonly #of: VouchedEvent;

  constructor(
    of: VouchedEvent,
    readonly seq: number,
    readonly saveId: string,
    readonly campaignId: string,
  ) {
    this.type = of.type;
    this.version = of.version;
    this.id = of.id;
    this.t = of.t;
    this.#of = of;
  }

  get payload(): unknown {
    return this.#of.payload;
  }

  toJSON(): unknown {
    return {
      ...this.#of.toJSON(),
      seq: this.seq,
      saveId: this.saveId,
      campaignId: this.campaignId,
    };
  }
}

/**
 * A packed batch's events, each with its payload's JSON as the log row holds it: those
 * the run's thread vouched for as they are, the others decoded (`decodeSent`), refused as
 * `decodeSent` refuses them, by their index in the batch.
 *
 * @throws InvalidEvent for the first event that does not decode, else the first that
 *   decodes to something other than what was sent
 */
export const takeBatch = (
  saveId: string,
  packed: PackedEvents,
): { readonly events: ReadonlyArray<Event>; readonly payloads: ReadonlyArray<string> } => {
  const { ids, types, json, meta } = packed;
  const events = new Array<Event>(json.length);
  /** The events to decode, and where each is in the batch. */
  const sent: Array<SentEvent> = [];
  const at: Array<number> = [];
  let from = 0;
  for (let i = 0, m = 0; i < events.length; i++, m += PACKED_FIELDS) {
    const to = from + meta[m + 3]!;
    const id = ids.slice(from, to);
    const t = meta[m]!;
    const type = types[meta[m + 2]!]!;
    const version = meta[m + 1]!;
    from = to;
    if (meta[m + 4] === 1) {
      events[i] = new VouchedEvent(type, version, id, t, json[i]!) as unknown as Event;
    } else {
      sent.push([id, t, type, version, json[i]!]);
      at.push(i);
    }
  }
  if (sent.length === 0) return { events, payloads: json };
  let decoded: ReturnType<typeof decodeSent>;
  try {
    decoded = decodeSent(saveId, sent);
  } catch (e) {
    if (!(e instanceof InvalidEvent)) throw e;
    throw new InvalidEvent({
      saveId: e.saveId,
      index: at[e.index]!,
      eventType: e.eventType,
      detail: e.detail,
    });
  }
  const payloads = [...json];
  for (let k = 0; k < at.length; k++) {
    events[at[k]!] = decoded.events[k]!;
    payloads[at[k]!] = decoded.payloads[k]!;
  }
  return { events, payloads };
};
