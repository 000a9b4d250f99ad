/**
 * Scaling a world for benchmarks keeps its density: exactly the NPCs asked for, unique
 * ids, every local event copied per district, and the island-wide and faction-wide
 * events held once — so each NPC learns as many of those as in the original, not one
 * copy per district.
 */
import type { World } from "@hearsay/core";
import { scaleWorld } from "@hearsay/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });

const visibilities = ["global", "faction", "local", "private", "rumor"] as const;

const base = (): World =>
  ({
    meta: { name: "w", title: "W", description: "", tickMinutes: 60, start: { day: 0, hour: 6 } },
    locations: [
      { id: "hall", name: "Hall", kind: "hall", neighbours: [{ to: "yard", travelMinutes: 10 }] },
      { id: "yard", name: "Yard", kind: "yard", neighbours: [{ to: "hall", travelMinutes: 10 }] },
    ],
    npcs: ["ana", "bo", "cy"].map((id) => ({
      id,
      name: id,
      home: "hall",
      workplace: "yard",
      knows: [{ npcId: id === "ana" ? "bo" : "ana" }],
    })),
    relationships: [{ from: "ana", to: "bo", trust: 0.5, respect: 0.5, suspicion: 0, summary: "" }],
    scheduledEvents: visibilities.map((visibility, i) => ({
      id: `e-${visibility}`,
      day: i,
      hour: 9,
      visibility,
      locationId: visibility === "global" ? null : "hall",
      participants: ["ana"],
    })),
    debateTopics: [],
    taskSeeds: [],
    factions: [],
    plannedHappenings: [],
  }) as unknown as World;

describe("scaleWorld", () => {
  it("property: keeps the density of a world, whatever its size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), (npcs) => {
        const world = scaleWorld(base(), npcs);
        const districts = Math.ceil(npcs / 3);
        expect(world.npcs).toHaveLength(npcs);
        expect(new Set(world.npcs.map((n) => n.id)).size).toBe(npcs);
        expect(new Set(world.scheduledEvents.map((e) => e.id)).size).toBe(
          world.scheduledEvents.length,
        );
        const count = (v: string) => world.scheduledEvents.filter((e) => e.visibility === v).length;
        expect(count("global")).toBe(1);
        expect(count("faction")).toBe(1);
        for (const v of ["local", "private", "rumor"]) expect(count(v)).toBe(districts);
        const places = new Set(world.locations.map((l) => l.id));
        for (const n of world.npcs) expect(places.has(n.home)).toBe(true);
        for (const e of world.scheduledEvents)
          if (e.locationId !== null) expect(places.has(e.locationId)).toBe(true);
      }),
      runs(40),
    );
  });
});
