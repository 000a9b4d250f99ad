/**
 * The visibility rule for world events: who comes to know a happening when it occurs,
 * and how. The engine turns each answer into KnowledgeGained facts in the log, so replay
 * and tests check facts, not re-derived guesses.
 *
 * - participants always know it (`participant`);
 * - `local` and `rumor`: everyone present at its location (`witnessed`);
 * - `faction`: every member of its faction, wherever they are (`faction`), and those present;
 * - `global`: everyone (`broadcast`);
 * - `private`: participants only.
 * An NPC is listed once, by the most direct way it learnt (participant, witnessed,
 * faction, broadcast), in id order.
 */
import type { FactionId, LocationId, NpcId } from "./ids.ts";
import type { Via, Visibility } from "./Visibility.ts";

export interface Happening {
  readonly visibility: Visibility;
  readonly locationId: LocationId | null;
  readonly factionId: FactionId | null;
  readonly participants: ReadonlyArray<NpcId>;
}

/** What the rule needs to know about the world at that moment. */
export interface Population {
  /** Awake or not, the NPCs at a location. */
  presentAt(location: LocationId): ReadonlyArray<NpcId>;
  membersOf(faction: FactionId): ReadonlyArray<NpcId>;
  everyone(): ReadonlyArray<NpcId>;
}

const rank: Record<Exclude<Via, "told" | "rumor">, number> = {
  participant: 0,
  witnessed: 1,
  faction: 2,
  broadcast: 3,
};

export const witnessesOf = (
  h: Happening,
  world: Population,
): ReadonlyArray<{ readonly npcId: NpcId; readonly via: Via }> => {
  const found = new Map<NpcId, keyof typeof rank>();
  const add = (ids: ReadonlyArray<NpcId>, via: keyof typeof rank) => {
    for (const id of ids) {
      const prior = found.get(id);
      if (prior === undefined || rank[via] < rank[prior]) found.set(id, via);
    }
  };
  add(h.participants, "participant");
  const local = h.locationId !== null && h.visibility !== "private" && h.visibility !== "global";
  if (local && h.locationId !== null) add(world.presentAt(h.locationId), "witnessed");
  if (h.visibility === "faction" && h.factionId !== null)
    add(world.membersOf(h.factionId), "faction");
  if (h.visibility === "global") add(world.everyone(), "broadcast");
  return [...found.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([npcId, via]) => ({ npcId, via }));
};
