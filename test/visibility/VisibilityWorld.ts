/**
 * The random worlds the visibility suite plays in: 2–4 NPCs, 2–3 places, 1–2 factions
 * (some NPCs in none), each NPC somewhere. Small on purpose: NPCs keep meeting, events
 * keep landing where someone is, and every rule gets exercised in a few steps.
 */
import { type FactionId, ids, type LocationId, type NpcId } from "@hearsay/core";
import fc from "fast-check";

export interface VisibilityNpc {
  readonly id: NpcId;
  readonly name: string;
  readonly factionId: FactionId | null;
  readonly home: LocationId;
}

export interface VisibilityWorld {
  readonly npcs: ReadonlyArray<VisibilityNpc>;
  readonly locations: ReadonlyArray<LocationId>;
  readonly factions: ReadonlyArray<FactionId>;
}

const names = ["Ada", "Bram", "Cora", "Dov"];

/** A random small world. */
export const arbVisibilityWorld: fc.Arbitrary<VisibilityWorld> = fc
  .record({
    npcCount: fc.integer({ min: 2, max: 4 }),
    locationCount: fc.integer({ min: 2, max: 3 }),
    factionCount: fc.integer({ min: 1, max: 2 }),
    picks: fc.array(fc.tuple(fc.nat({ max: 2 }), fc.nat({ max: 2 })), {
      minLength: 4,
      maxLength: 4,
    }),
  })
  .map(({ npcCount, locationCount, factionCount, picks }) => {
    const locations = ["green", "mill", "ford"].slice(0, locationCount).map(ids.location);
    const factions = ["millers", "watch"].slice(0, factionCount).map(ids.faction);
    return {
      locations,
      factions,
      npcs: names.slice(0, npcCount).map((name, i) => {
        const [f, l] = picks[i]!;
        return {
          id: ids.npc(name.toLowerCase()),
          name,
          // One pick in three (or more, with one faction) leaves the NPC in no faction.
          factionId: f < factions.length ? factions[f]! : null,
          home: locations[l % locations.length]!,
        };
      }),
    };
  });
