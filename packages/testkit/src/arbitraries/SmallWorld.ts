/**
 * A small world for generated event sequences: a handful of NPCs, locations and
 * factions, small enough that random events collide (the same NPC learns the same item
 * twice, two NPCs share a place) — which is where fold bugs live.
 */
import { type CampaignId, type FactionId, ids, type LocationId, type NpcId } from "@hearsay/core";
import fc from "fast-check";

/** One NPC of a small world as it is registered. */
export interface SmallNpc {
  readonly id: NpcId;
  readonly name: string;
  readonly role: string;
  readonly factionId: FactionId | null;
  readonly locationId: LocationId;
}

/** The cast and places a generated sequence is about. */
export interface SmallWorld {
  readonly campaignId: CampaignId;
  readonly npcs: ReadonlyArray<SmallNpc>;
  readonly locations: ReadonlyArray<LocationId>;
  readonly factions: ReadonlyArray<FactionId>;
}

const names = ["Ada", "Bram", "Cora", "Dov", "Edda", "Fenn", "Gala", "Hob"];
const roles = ["smith", "miller", "guard", "priest", "merchant", "farmer"];

/** A fixed small world with `npcCount` NPCs (1–8), 3 locations and 2 factions. */
export const smallWorld = (npcCount = 4, campaign = "campaign-1"): SmallWorld => {
  const n = Math.max(1, Math.min(names.length, Math.trunc(npcCount)));
  const locations = ["square", "mill", "chapel"].map(ids.location);
  const factions = ["guild", "temple"].map(ids.faction);
  return {
    campaignId: ids.campaign(campaign),
    locations,
    factions,
    npcs: names.slice(0, n).map((name, i) => ({
      id: ids.npc(`npc-${name.toLowerCase()}`),
      name,
      role: roles[i % roles.length]!,
      factionId: i % 3 === 2 ? null : factions[i % factions.length]!,
      locationId: locations[i % locations.length]!,
    })),
  };
};

/** A small world with 2–6 NPCs. */
export const arbSmallWorld = (campaign = "campaign-1"): fc.Arbitrary<SmallWorld> =>
  fc.integer({ min: 2, max: 6 }).map((n) => smallWorld(n, campaign));
