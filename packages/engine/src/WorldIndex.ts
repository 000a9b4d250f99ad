/**
 * The world definition indexed by id, built once per run so the hot loop never scans
 * the world's arrays.
 */
import type { FactionId, LocationId, NpcId, World } from "@hearsay/core";

type WorldNpc = World["npcs"][number];
type WorldLocation = World["locations"][number];
type WorldFaction = World["factions"][number];

export class WorldIndex {
  private readonly npcs = new Map<NpcId, WorldNpc>();
  private readonly locations = new Map<LocationId, WorldLocation>();
  private readonly factions = new Map<FactionId, WorldFaction>();
  readonly locationIds: ReadonlyArray<LocationId>;

  constructor(readonly world: World) {
    for (const n of world.npcs) this.npcs.set(n.id, n);
    for (const l of world.locations) this.locations.set(l.id, l);
    for (const f of world.factions) this.factions.set(f.id, f);
    this.locationIds = [...this.locations.keys()].sort();
  }

  npc(id: NpcId): WorldNpc | undefined {
    return this.npcs.get(id);
  }

  location(id: LocationId): WorldLocation | undefined {
    return this.locations.get(id);
  }

  locationName(id: LocationId): string {
    return this.locations.get(id)?.name ?? id;
  }

  factionName(id: FactionId | null): string | null {
    return id === null ? null : (this.factions.get(id)?.name ?? id);
  }

  npcName(id: NpcId): string {
    return this.npcs.get(id)?.name ?? id;
  }
}
