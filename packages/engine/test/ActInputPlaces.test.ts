/**
 * What an NPC's turn is told of the map — the place it stands in and where it can go from
 * there — is the world file's, worked out once per NPC and place: every turn of a run
 * still gets exactly what a fresh reading of the world gives for where the NPC stands.
 */
import type { LocationId, NpcId } from "@hearsay/core";
import { loadSimulation, Routes } from "@hearsay/engine";
import { type ActInput, ScriptedBrain, type SyncBrain } from "@hearsay/mind";
import { describe, expect, it } from "vitest";
import { freshLog, run } from "./harness.ts";

describe("a turn's places", () => {
  it("are the world's neighbours, home and workplace that a route reaches, in id order", async () => {
    // The bundled world: its NPCs take turns at home, at work and out.
    const world = loadSimulation().world;
    const routes = new Routes(world);
    const byId = new Map(world.locations.map((l) => [l.id, l]));
    const npcs = new Map(world.npcs.map((n) => [n.id, n]));
    const place = (id: LocationId) => {
      const l = byId.get(id)!;
      return { id: l.id, name: l.name, tags: [l.kind] };
    };
    /** A fresh reading of the world for an NPC at `here`. */
    const expected = (npc: NpcId, here: LocationId) => {
      const def = npcs.get(npc)!;
      const near = new Set(byId.get(here)!.neighbours.map((n) => n.to));
      near.add(def.home);
      if (def.workplace) near.add(def.workplace);
      near.delete(here);
      const reachable = [...near]
        .filter((to) => routes.travelMinutes(here, to) !== null)
        .sort()
        .map(place);
      return { location: place(here), reachable };
    };
    const inputs: Array<[NpcId, ActInput]> = [];
    const scripted = ScriptedBrain.make();
    const brain: SyncBrain = {
      ...scripted,
      decideSync: (request) => {
        const npc = request.npcId ?? null;
        if (request.purpose === "act" && npc !== null)
          inputs.push([npc, request.input as ActInput]);
        return scripted.decideSync(request);
      },
    };
    await run(freshLog(), { world, days: 2, brain });
    // Turns were taken at more than one place per NPC, so a view kept from one place
    // would show at another.
    const placesPerNpc = new Map<NpcId, Set<string>>();
    for (const [npc, input] of inputs) {
      const seen = placesPerNpc.get(npc) ?? new Set();
      seen.add(input.location.id);
      placesPerNpc.set(npc, seen);
    }
    expect([...placesPerNpc.values()].some((s) => s.size > 1)).toBe(true);
    for (const [npc, input] of inputs)
      expect(
        { location: input.location, reachable: input.reachable },
        `${npc} at ${input.location.id}`,
      ).toEqual(expected(npc, input.location.id as LocationId));
  });
});
