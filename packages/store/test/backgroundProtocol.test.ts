/**
 * The batch packing between the run's thread and the append worker: a packed batch
 * unpacks to exactly the tuples its events would have been sent as (every string, every
 * number — -0 and NaN too — and each payload's JSON), and a batch holding an event the
 * packing could not keep as it is (an id or type that is not a string, a time or version
 * that is not a number, a payload with no JSON) is not packed at all.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AppendJob,
  packEvents,
  type Sendable,
  sentEvents,
  sentOf,
  unpackEvents,
} from "../src/backgroundProtocol.ts";
import { runs } from "./harness.ts";

const arbEvent: fc.Arbitrary<Sendable> = fc.record({
  id: fc.string({ unit: "binary" }),
  t: fc.double(),
  type: fc.constantFrom("NpcMoved", "MemoryRecorded", "KnowledgeGained", "x", ""),
  version: fc.oneof(fc.integer(), fc.double()),
  payload: fc.jsonValue(),
});

describe("packEvents", () => {
  it("property: unpacks to the tuples the events would be sent as", () => {
    fc.assert(
      fc.property(fc.array(arbEvent, { maxLength: 40 }), (events) => {
        const packed = packEvents(events);
        expect(packed).not.toBeNull();
        // Through a structured clone, as postMessage sends it.
        const job: AppendJob = { saveId: "s", expectedSeq: 0, events: structuredClone(packed!) };
        expect(sentEvents(job)).toEqual(events.map(sentOf));
        expect(unpackEvents(packed!)).toEqual(events.map(sentOf));
      }),
      { numRuns: runs(200) },
    );
  });

  it("property: a batch with an event it cannot keep as it is is left to the tuples", () => {
    const odd = fc.oneof(
      fc.record({ id: fc.integer() }),
      fc.record({ type: fc.constant(null) }),
      fc.record({ t: fc.string() }),
      fc.record({ version: fc.constant("1") }),
      fc.record({ payload: fc.constantFrom(undefined, () => 1) }),
    );
    fc.assert(
      fc.property(
        fc.array(arbEvent, { maxLength: 10 }),
        fc.nat(),
        arbEvent,
        odd,
        (events, at, base, change) => {
          const all = [...events];
          all.splice(at % (events.length + 1), 0, { ...base, ...change });
          expect(packEvents(all)).toBeNull();
        },
      ),
      { numRuns: runs(100) },
    );
  });
});
