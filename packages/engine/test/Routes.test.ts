/**
 * Travel times: the lazily computed shortest paths agree with a plain all-pairs
 * reference (Floyd–Warshall) on random graphs, whatever order rows are asked in, and
 * unreachable places say null.
 */
import type { LocationId, World } from "@hearsay/core";
import { Routes } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });

type Edge = readonly [number, number, number];

const worldOf = (n: number, edges: ReadonlyArray<Edge>): World => {
  const locations = Array.from({ length: n }, (_, i) => ({
    id: `p${i}` as LocationId,
    neighbours: edges
      .filter(([a, b]) => a === i && b < n)
      .map(([, b, minutes]) => ({ to: `p${b}` as LocationId, travelMinutes: minutes })),
  }));
  return { locations } as unknown as World;
};

/** Floyd–Warshall over the same directed graph. */
const reference = (n: number, edges: ReadonlyArray<Edge>): Array<Array<number>> => {
  const d = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (i === j ? 0 : Number.POSITIVE_INFINITY)),
  );
  for (const [a, b, m] of edges) if (a < n && b < n && m < d[a]![b]!) d[a]![b] = m;
  for (let k = 0; k < n; k++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++)
        if (d[i]![k]! + d[k]![j]! < d[i]![j]!) d[i]![j] = d[i]![k]! + d[k]![j]!;
  return d;
};

describe("Routes", () => {
  it("property: agrees with all-pairs shortest paths, rows asked in any order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(
          fc.tuple(fc.nat({ max: 11 }), fc.nat({ max: 11 }), fc.integer({ min: 1, max: 240 })),
          { maxLength: 40 },
        ),
        fc.array(fc.tuple(fc.nat({ max: 11 }), fc.nat({ max: 11 })), { maxLength: 60 }),
        (n, edges, asks) => {
          const routes = new Routes(worldOf(n, edges));
          const d = reference(n, edges);
          const id = (i: number) => `p${i}` as LocationId;
          for (const [a, b] of asks) {
            if (a >= n || b >= n) continue;
            const want = d[a]![b]!;
            expect(routes.travelMinutes(id(a), id(b))).toBe(
              want === Number.POSITIVE_INFINITY ? null : want,
            );
          }
          for (let a = 0; a < n; a++)
            for (let b = 0; b < n; b++) {
              const want = d[a]![b]!;
              expect(routes.travelMinutes(id(a), id(b))).toBe(
                want === Number.POSITIVE_INFINITY ? null : want,
              );
            }
        },
      ),
      runs(200),
    );
  });

  it("knows nothing of places outside the world", () => {
    const routes = new Routes(worldOf(2, [[0, 1, 30]]));
    expect(routes.travelMinutes("p0" as LocationId, "nowhere" as LocationId)).toBeNull();
    expect(routes.travelMinutes("nowhere" as LocationId, "p0" as LocationId)).toBeNull();
    expect(routes.travelMinutes("p1" as LocationId, "p0" as LocationId)).toBeNull();
    expect(routes.travelMinutes("p0" as LocationId, "p1" as LocationId)).toBe(30);
  });
});
