/**
 * How replay verification compares a produced event with the recorded one: by the
 * canonical JSON (RFC 8785) of everything the event holds — `type`, `version`, `id`,
 * `t` and the whole `payload`. Only the envelope the store adds is left out: `saveId`
 * and `campaignId` name the save that holds the event, not the fact (verification runs
 * in a scratch save), and `seq` is compared by position. Nothing in a payload is
 * ignored: latencies and token counts of brain calls come back from the recording, so
 * they are equal too.
 */
import { canonicalJson, type Event, type StoredEvent } from "@hearsay/core";

/** The compared part of an event. */
export const comparable = (e: Event | StoredEvent): Event =>
  ({ type: e.type, version: e.version, id: e.id, t: e.t, payload: e.payload }) as Event;

/** True when the two events hold the same fact. */
export const sameEvent = (a: Event | StoredEvent, b: Event | StoredEvent): boolean => {
  const x = comparable(a);
  const y = comparable(b);
  // The same code path builds both, so plain JSON usually agrees; canonical JSON decides.
  return JSON.stringify(x) === JSON.stringify(y) || canonicalJson(x) === canonicalJson(y);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** Dotted paths where two JSON values differ (at most `max`, shallowest first). */
export const differingPaths = (a: unknown, b: unknown, max = 4): ReadonlyArray<string> => {
  const out: Array<string> = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= max) return;
    if (isObject(x) && isObject(y) && Array.isArray(x) === Array.isArray(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
      for (const k of keys) {
        const p = path === "" ? k : Array.isArray(x) ? `${path}[${k}]` : `${path}.${k}`;
        walk(x[k], y[k], p);
      }
      return;
    }
    if (x === undefined && y === undefined) return;
    if (x === undefined || y === undefined || canonicalJson(x) !== canonicalJson(y)) {
      out.push(path === "" ? "(the whole value)" : path);
    }
  };
  walk(a, b, "");
  return out;
};

/** The event as one line of canonical JSON, cut to `max` characters. */
export const compactEvent = (e: Event | StoredEvent | undefined, max = 400): string => {
  if (e === undefined) return "(none)";
  const text = canonicalJson(comparable(e));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
};
