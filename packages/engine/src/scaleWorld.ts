/**
 * Grows a world to any number of NPCs, for stress runs (`hearsay run --scale N`) and
 * benchmarks: the world is copied into
 * "districts" — each a copy of every location, NPC, relationship, local scheduled event,
 * debate topic and task seed, with ids suffixed `~k` — joined into one travel graph, and
 * cut to exactly `npcs` NPCs. Factions, lore and the global and faction-wide scheduled
 * events are shared (held once). The result keeps the original's density (NPCs per
 * place, events each NPC learns), so time per NPC-day stays comparable.
 */
import {
  type LocationId,
  type NpcId,
  stateHash,
  type TaskId,
  type World,
  type WorldEventId,
} from "@hearsay/core";
import type { LoadedSimulation } from "./loadSimulation.ts";

const tag = <S extends string>(id: S, k: number): S => (k === 0 ? id : (`${id}~${k}` as S));

export const scaleWorld = (world: World, npcs: number): World => {
  const base = world.npcs.length;
  if (npcs <= 0 || base === 0) throw new RangeError("scaleWorld: need at least one NPC");
  const districts = Math.ceil(npcs / base);
  const kept = new Set<NpcId>();
  for (let k = 0; k < districts; k++) {
    for (const n of world.npcs) if (kept.size < npcs) kept.add(tag(n.id, k));
  }
  const has = (id: NpcId | null, k: number) => id !== null && kept.has(tag(id, k));
  const hub = [...world.locations].sort((a, b) => (a.id < b.id ? -1 : 1))[0]!.id;
  const out: {
    locations: Array<World["locations"][number]>;
    npcs: Array<World["npcs"][number]>;
    relationships: Array<World["relationships"][number]>;
    scheduledEvents: Array<World["scheduledEvents"][number]>;
    debateTopics: Array<World["debateTopics"][number]>;
    taskSeeds: Array<World["taskSeeds"][number]>;
  } = {
    locations: [],
    npcs: [],
    relationships: [],
    scheduledEvents: [],
    debateTopics: [],
    taskSeeds: [],
  };

  for (let k = 0; k < districts; k++) {
    const loc = (id: LocationId) => tag(id, k);
    for (const l of world.locations) {
      const links = l.neighbours.map((n) => ({ ...n, to: loc(n.to) }));
      if (l.id === hub && k > 0) links.push({ to: tag(hub, k - 1), travelMinutes: 60 });
      if (l.id === hub && k + 1 < districts) links.push({ to: tag(hub, k + 1), travelMinutes: 60 });
      out.locations.push({
        ...l,
        id: loc(l.id),
        name: k === 0 ? l.name : `${l.name} (${k})`,
        neighbours: links,
      });
    }
    for (const n of world.npcs) {
      if (!has(n.id, k)) continue;
      out.npcs.push({
        ...n,
        id: tag(n.id, k),
        home: loc(n.home),
        workplace: n.workplace === null ? null : loc(n.workplace),
        knows: n.knows
          .filter((x) => has(x.npcId, k))
          .map((x) => ({ ...x, npcId: tag(x.npcId, k) })),
      });
    }
    for (const r of world.relationships) {
      if (has(r.from, k) && has(r.to, k))
        out.relationships.push({ ...r, from: tag(r.from, k), to: tag(r.to, k) });
    }
    if (!world.npcs.some((n) => has(n.id, k))) continue;
    for (const e of world.scheduledEvents) {
      // An island-wide or faction-wide event reaches every district at once: copied per
      // district, n/60 copies would each reach all n NPCs and every NPC would learn n/60
      // times what it learns in the original. Those happen once, in the first district.
      if (k > 0 && (e.visibility === "global" || e.visibility === "faction")) continue;
      out.scheduledEvents.push({
        ...e,
        id: tag(e.id, k) as WorldEventId,
        locationId: e.locationId === null ? null : loc(e.locationId),
        participants: e.participants.filter((p) => has(p, k)).map((p) => tag(p, k)),
      });
    }
    for (const d of world.debateTopics) {
      out.debateTopics.push({
        ...d,
        id: tag(d.id, k),
        locationId: loc(d.locationId),
        positions: d.positions.map((p) => ({
          ...p,
          heldBy: p.heldBy.filter((h) => has(h, k)).map((h) => tag(h, k)),
        })),
      });
    }
    for (const s of world.taskSeeds) {
      out.taskSeeds.push({
        ...s,
        id: tag(s.id, k) as TaskId,
        locationId: loc(s.locationId),
        proposedBy: has(s.proposedBy, k) ? tag(s.proposedBy!, k) : null,
        assignee: has(s.assignee, k) ? tag(s.assignee!, k) : null,
      });
    }
  }
  return {
    ...world,
    meta: { ...world.meta, name: `${world.meta.name}-x${npcs}` },
    ...out,
    plannedHappenings: [],
  };
};

/**
 * A loaded simulation with its world scaled to `npcs` NPCs and its hash taken again, so a
 * resumed or replayed scaled run must be scaled the same way.
 */
export const scaleSimulation = (sim: LoadedSimulation, npcs: number): LoadedSimulation => {
  const world = scaleWorld(sim.world, npcs);
  return {
    ...sim,
    world,
    worldHash: stateHash({ world, lore: sim.lore.map((l) => l.contentHash) }),
  };
};
