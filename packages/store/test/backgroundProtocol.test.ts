/**
 * The batch packing between the run's thread and the append worker. The worker takes a
 * packed batch (`takeBatch`, after a structured clone as postMessage makes) as exactly
 * what its decode of the batch's tuples gives — the same fields, payloads and log JSON,
 * or the same refusal, naming the same index — though it decodes only the events the run's
 * thread did not vouch for. The run's thread vouches for the valid events of every type
 * but the uncovered one, and for no event that JSON or its schema would change
 * (undefined, -0, NaN, a Date, a class instance, a key the schema does not name or out of
 * its order, an older version). A batch with an event whose envelope packing would not
 * keep (an id that is not a string, …) is not packed at all.
 */
import { type Event, type GameTime, ids, makeEvent } from "@hearsay/core";
import { arbEventSequence } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AppendJob,
  PACKED_FIELDS,
  packEvents,
  type Sendable,
  sentOf,
} from "../src/backgroundProtocol.ts";
import { decodeSent, sendableTypes, vouched } from "../src/decodeSent.ts";
import { storedOf } from "../src/EventAppend.ts";
import type { SaveInfo } from "../src/EventHistory.ts";
import { InvalidEvent } from "../src/StoreError.ts";
import { takeBatch } from "../src/takeBatch.ts";
import { runs } from "./harness.ts";

const saveId = ids.save("s");

/** An event's fields as plain data (a lazy payload read). */
const fields = (e: Event) => ({
  type: e.type,
  version: e.version,
  id: e.id,
  t: e.t,
  payload: e.payload,
});

class Box {
  constructor(readonly to: string) {}
}

/** A class whose instances JSON writes as something else than their own keys. */
class Odd {
  toJSON(): string {
    return "odd";
  }
}

/** Values JSON would not give back as they are. */
const unstable: ReadonlyArray<() => unknown> = [
  () => undefined,
  () => -0,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => new Date(0),
  () => new Box("x"),
  () => Object.assign(Object.create({ inherited: 1 }), { a: 1 }),
  // biome-ignore lint/suspicious/noSparseArray: a hole is the point
  () => [, "x"],
];

/** Every place in a value: the containers and keys (or indexes) below it. */
const places = (v: unknown, out: Array<[Record<string, unknown>, string]> = []) => {
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      out.push([o, k]);
      places(o[k], out);
    }
  }
  return out;
};

/**
 * A copy of a value's plain objects and arrays (holes kept); anything else is shared as it
 * is. Not `structuredClone`: an earlier change may have put a function in the payload.
 */
const copied = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(copied)
    : typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copied(x)]))
      : v;

/** The event with one value somewhere in its payload replaced by one JSON would change. */
const deep =
  (which: number) =>
  (e: Sendable): Sendable => {
    const payload = copied(e.payload);
    const at = places(payload);
    if (at.length === 0) return { ...e, payload: unstable[which % unstable.length]!() };
    const [o, k] = at[which % at.length]!;
    o[k] = unstable[Math.floor(which / at.length) % unstable.length]!();
    return { ...e, payload };
  };

/** Changes an event so that JSON, or its schema, would not give it back as it is. */
const unvouchable: ReadonlyArray<(e: Sendable) => Sendable> = [
  ...Array.from({ length: 40 }, (_, i) => deep(i * 7 + 3)),
  (e) => ({ ...e, id: 7 }),
  (e) => ({ ...e, t: "0" }),
  (e) => ({ ...e, type: null }),
  (e) => ({ ...e, version: (e.version as number) + 1 }),
  (e) => ({ ...e, payload: undefined }),
  (e) => ({ ...e, payload: { ...(e.payload as object), extra: 1 } }),
  (e) => ({ ...e, payload: Object.assign(new Box("x"), e.payload as object) }),
  (e) => ({ ...e, payload: { ...(e.payload as object), toJSON: () => ({}) } }),
  (e) => {
    // The first key moved to the end: the same fields in another order.
    const p = { ...(e.payload as Record<string, unknown>) };
    const [first] = Object.keys(p);
    if (first === undefined) return { ...e, payload: [] };
    const v = p[first];
    delete p[first];
    p[first] = v;
    return { ...e, payload: p };
  },
  (e) => ({ ...e, t: -0 }),
  (e) => ({ ...e, t: Number.NaN }),
  (e) => ({ ...e, payload: new Date(0) }),
  (e) => ({ ...e, payload: Object.setPrototypeOf(structuredClone(e.payload), Odd.prototype) }),
];

/** What the worker makes of a batch: its events and payloads as JSON, or its refusal. */
const outcome = (take: () => ReturnType<typeof decodeSent>): string => {
  try {
    const { events, payloads } = take();
    return JSON.stringify({ events: events.map(fields), payloads });
  } catch (e) {
    return `refused: ${e instanceof InvalidEvent ? `${e.index} ${e.eventType} ${e.detail}` : String(e)}`;
  }
};

/** The batch through packing, a structured clone and the worker's take. */
const taken = (events: ReadonlyArray<Sendable>): ReturnType<typeof decodeSent> => {
  const packed = packEvents(events);
  if (packed === null) throw new Error("not packed");
  const job: AppendJob = { saveId, expectedSeq: 0, events: structuredClone(packed) };
  if (!("json" in job.events)) throw new Error("not packed");
  return takeBatch(saveId, job.events);
};

describe("packEvents and takeBatch", () => {
  it("property: the valid events of every type but the uncovered ones are vouched for", () => {
    expect(sendableTypes.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(arbEventSequence({ maxSteps: 30 }), (events) => {
        for (const e of events) expect(vouched(e)).toBe(sendableTypes.includes(e.type));
      }),
      { numRuns: runs(20) },
    );
  });

  it("property: the worker takes a packed batch as its decode of the tuples gives it", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 30 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
        (events, changes) => {
          const sent: Array<Sendable> = [...events];
          for (const [at, how] of changes) {
            if (sent.length === 0) break;
            const i = at % sent.length;
            sent[i] = unvouchable[how % unvouchable.length]!(sent[i]!);
          }
          const packed = packEvents(sent);
          if (packed === null) return;
          const vouchedFor = sent.filter((_, i) => packed.meta[i * PACKED_FIELDS + 4] === 1);
          expect(vouchedFor.length).toBe(sent.filter((e) => vouched(e)).length);
          const expected = outcome(() => decodeSent(saveId, sent.map(sentOf)));
          seen.add(expected.startsWith("refused") ? "refused" : "taken");
          expect(outcome(() => taken(sent))).toBe(expected);
          if (expected.startsWith("refused")) return;
          // Stored, as an append stores them: the same JSON as the decoded events stored.
          const save = { saveId, campaignId: "c" } as unknown as SaveInfo;
          const stored = (es: ReadonlyArray<Event>) =>
            JSON.stringify(es.map((e, i) => storedOf(e, i + 1, save)));
          expect(stored(taken(sent).events)).toBe(
            stored(decodeSent(saveId, sent.map(sentOf)).events),
          );
        },
      ),
      { numRuns: runs(100) },
    );
    expect([...seen].sort()).toEqual(["refused", "taken"]);
  });

  it("property: no event JSON or its schema would change is vouched for", () => {
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 10 }).filter((es) => es.length > 0),
        fc.nat(),
        fc.nat(),
        (events, at, how) => {
          const e = unvouchable[how % unvouchable.length]!(events[at % events.length]!);
          expect(vouched(e)).toBe(false);
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("vouches for an optional key left out, not for one set to undefined", () => {
    const agenda = (step: Record<string, unknown>): Sendable =>
      makeEvent("NpcAgendaChanged", {
        id: ids.event("e1"),
        t: 60 as GameTime,
        payload: {
          npcId: ids.npc("n"),
          steps: [{ action: "speak", to: ids.npc("m"), text: "Morning.", ...step }],
          plannedAt: 60 as GameTime,
        } as never,
      });
    expect(vouched(agenda({}))).toBe(true);
    expect(vouched(agenda({ ends: true }))).toBe(true);
    expect(vouched(agenda({ ends: undefined }))).toBe(false);
    expect(outcome(() => taken([agenda({ ends: undefined })]))).toBe(
      outcome(() => decodeSent(saveId, [sentOf(agenda({ ends: undefined }))])),
    );
  });

  it("leaves a batch whose envelope packing would not keep to the tuples", () => {
    const [e] = fc.sample(arbEventSequence({ maxSteps: 3 }), 1)[0]!;
    expect(packEvents([e!])).not.toBeNull();
    expect(packEvents([e!, { ...e!, id: 7 }])).toBeNull();
    expect(packEvents([{ ...e!, payload: undefined }])).toBeNull();
  });
});
