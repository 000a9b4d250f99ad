/**
 * Where the game's attention is: the player's place (the NPC they talk with) and the
 * camera's (given by `serve`'s world tick). NPCs within the brain policy's `nearHops`
 * travel hops of either rank one class higher for the model budget; the reason is
 * recorded with each call. Hops count moves along the world's neighbour graph, not
 * minutes: "the next room" whatever the distance.
 */
import type { LocationId, NpcId, World } from "@hearsay/core";
import type { Nearness } from "@hearsay/mind";

export interface Focus {
  readonly who: "player" | "camera";
  readonly locationId: LocationId;
}

/** The locations within `hops` moves of `from` (itself included), breadth first. */
export const locationsWithin = (
  world: World,
  from: LocationId,
  hops: number,
): ReadonlySet<LocationId> => {
  const byId = new Map(world.locations.map((l) => [l.id, l]));
  const seen = new Set<LocationId>(byId.has(from) ? [from] : []);
  let frontier = [...seen];
  for (let h = 0; h < hops && frontier.length > 0; h++) {
    const next: Array<LocationId> = [];
    for (const at of frontier)
      for (const n of byId.get(at)?.neighbours ?? [])
        if (byId.has(n.to) && !seen.has(n.to)) {
          seen.add(n.to);
          next.push(n.to);
        }
    frontier = next;
  }
  return seen;
};

/**
 * Who is near a focus: each NPC at a place within `hops` of one, with why ("near the
 * camera at the Market"); the player's focus is named first when both apply.
 */
export const nearnessOf = (
  world: World,
  whereIs: ReadonlyMap<NpcId, LocationId>,
  focus: ReadonlyArray<Focus>,
  hops: number,
): Nearness => {
  const near = new Map<string, string>();
  const ordered = [...focus].sort((a, b) => (a.who === b.who ? 0 : a.who === "player" ? -1 : 1));
  for (const f of ordered) {
    const within = locationsWithin(world, f.locationId, hops);
    const name = world.locations.find((l) => l.id === f.locationId)?.name ?? f.locationId;
    for (const [npcId, at] of whereIs)
      if (within.has(at) && !near.has(npcId)) near.set(npcId, `near the ${f.who} at ${name}`);
  }
  return near;
};
