import { decodeEvent, eventTypes } from "@hearsay/core";
import {
  arbEventBatches,
  arbEventSequence,
  arbInterleaving,
  arbSmallWorld,
  splitBatches,
} from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => (process.env.HEARSAY_DEEP ? n * 20 : n);

describe("event-sequence arbitraries", () => {
  it("build valid, time-ordered sequences with unique ids covering every event type", () => {
    fc.assert(
      fc.property(
        arbSmallWorld().chain((world) => arbEventSequence({ world })),
        (events) => {
          for (const e of events) expect(decodeEvent(e)).toEqual(e);
          for (let i = 1; i < events.length; i++)
            expect(events[i]!.t).toBeGreaterThanOrEqual(events[i - 1]!.t);
          expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
          expect(new Set(events.map((e) => e.type))).toEqual(new Set(eventTypes));
          expect(events[0]!.type).toBe("SimulationStarted");
        },
      ),
      { numRuns: runs(50) },
    );
  });

  it("without everyType, leave out what the steps did not make", () => {
    const samples = fc.sample(arbEventSequence({ everyType: false, maxSteps: 0 }), 5);
    for (const s of samples)
      expect(new Set(s.map((e) => e.type))).toEqual(
        new Set(["SimulationStarted", "NpcRegistered"]),
      );
  });

  it("batches and interleavings keep every item once, in order", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        expect(batches.every((b) => b.length > 0)).toBe(true);
        const flat = batches.flat();
        expect(flat.map((e) => e.id)).toEqual(flat.map((_, i) => `ev-${i + 1}`));
      }),
      { numRuns: runs(30) },
    );
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.array(fc.string(), { maxLength: 10 }),
        (left, right) => {
          const [order] = fc.sample(arbInterleaving(left, right), 1);
          expect(order!.filter((o) => o.side === 0).map((o) => o.item)).toEqual(left);
          expect(order!.filter((o) => o.side === 1).map((o) => o.item)).toEqual(right);
        },
      ),
      { numRuns: runs(30) },
    );
    expect(splitBatches([1, 2, 3, 4], [2, 2, 0, 9])).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});
