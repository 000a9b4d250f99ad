/**
 * Nearness to the player or the camera: the places within N travel hops agree with
 * hop distances from a plain reference (Floyd–Warshall over unit edges) on random
 * graphs; NPCs there are named near, the player's focus first.
 */
import type { LocationId, NpcId, World } from "@hearsay/core";
import { locationsWithin, nearnessOf } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });

type Edge = readonly [number, number];

const worldOf = (n: number, edges: ReadonlyArray<Edge>): World =>
  ({
    locations: Array.from({ length: n }, (_, i) => ({
      id: `p${i}` as LocationId,
      name: `Place ${i}`,
      neighbours: edges
        .filter(([a, b]) => a === i && b < n)
        .map(([, b]) => ({ to: `p${b}` as LocationId, travelMinutes: 7 })),
    })),
  }) as unknown as World;

const hopsFrom = (n: number, edges: ReadonlyArray<Edge>, from: number): Array<number> => {
  const d = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (i === j ? 0 : Number.POSITIVE_INFINITY)),
  );
  for (const [a, b] of edges) if (a < n && b < n && a !== b) d[a]![b] = 1;
  for (let k = 0; k < n; k++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) d[i]![j] = Math.min(d[i]![j]!, d[i]![k]! + d[k]![j]!);
  return d[from]!;
};

describe("nearness", () => {
  it("finds exactly the places within N moves of the focus", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.tuple(fc.nat({ max: 8 }), fc.nat({ max: 8 })), { maxLength: 20 }),
        fc.nat({ max: 8 }),
        fc.nat({ max: 4 }),
        (n, edges, from, hops) => {
          const start = from % n;
          const got = locationsWithin(worldOf(n, edges), `p${start}` as LocationId, hops);
          const want = hopsFrom(n, edges, start).flatMap((d, i) => (d <= hops ? [`p${i}`] : []));
          expect([...got].sort()).toEqual(want.sort());
        },
      ),
      runs(200),
    );
  });

  it("names the NPCs near the player or the camera, the player first", () => {
    const world = worldOf(4, [
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    const at = new Map([
      ["ana" as NpcId, "p0" as LocationId],
      ["bo" as NpcId, "p1" as LocationId],
      ["cy" as NpcId, "p3" as LocationId],
    ]);
    const near = nearnessOf(
      world,
      at,
      [
        { who: "camera", locationId: "p1" as LocationId },
        { who: "player", locationId: "p0" as LocationId },
      ],
      1,
    );
    expect(Object.fromEntries(near)).toEqual({
      ana: "near the player at Place 0",
      bo: "near the player at Place 0",
    });
    expect(nearnessOf(world, at, [{ who: "camera", locationId: "p3" as LocationId }], 0)).toEqual(
      new Map([["cy", "near the camera at Place 3"]]),
    );
  });
});
