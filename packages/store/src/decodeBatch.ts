/**
 * Decoding an append batch before anything is written: each event through core's
 * `Event` schema, failing at the first that does not decode with an `InvalidEvent` that
 * names its index, its type and what is wrong, in one line.
 */
import { decodeEvent, type Event, eventTypes } from "@hearsay/core";
import { InvalidEvent } from "./StoreError.ts";

const knownTypes = new Set<string>(eventTypes);

/** Decodes every event of a batch, refusing the batch at the first one that fails. */
export const decodeBatch = (saveId: string, events: ReadonlyArray<unknown>): ReadonlyArray<Event> =>
  events.map((raw, index) => decodeOne(saveId, raw, index));

/** Decodes the batch's event at `index`, or refuses the batch naming it. */
export const decodeOne = (saveId: string, raw: unknown, index: number): Event => {
  try {
    return decodeEvent(raw);
  } catch (e) {
    const type =
      typeof raw === "object" && raw !== null && "type" in raw && typeof raw.type === "string"
        ? raw.type
        : null;
    const detail =
      type !== null && !knownTypes.has(type)
        ? `unknown event type "${type}"`
        : type === null
          ? "missing a string `type`"
          : (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, " ");
    throw new InvalidEvent({ saveId, index, eventType: type, detail });
  }
};
