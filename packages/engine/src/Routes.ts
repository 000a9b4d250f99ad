/**
 * Travel times between every pair of locations: shortest paths over the world's
 * neighbour graph, computed once per run (Dijkstra from each location; worlds have tens
 * of places, not thousands). The NPC machines ask it how long a journey takes.
 */
import type { Routes as RoutesPort } from "@hearsay/actors";
import type { LocationId, World } from "@hearsay/core";

export class Routes implements RoutesPort {
  private readonly minutes = new Map<string, number>();

  constructor(world: World) {
    const ids = world.locations.map((l) => l.id).sort();
    const edges = new Map<LocationId, Array<{ to: LocationId; minutes: number }>>();
    for (const loc of world.locations) {
      edges.set(
        loc.id,
        loc.neighbours.map((n) => ({ to: n.to, minutes: n.travelMinutes })),
      );
    }
    for (const from of ids) {
      const dist = new Map<LocationId, number>([[from, 0]]);
      const open = new Set<LocationId>([from]);
      while (open.size > 0) {
        let best: LocationId | null = null;
        for (const id of open) if (best === null || dist.get(id)! < dist.get(best)!) best = id;
        open.delete(best!);
        for (const e of edges.get(best!) ?? []) {
          const d = dist.get(best!)! + e.minutes;
          if (d < (dist.get(e.to) ?? Number.POSITIVE_INFINITY)) {
            dist.set(e.to, d);
            open.add(e.to);
          }
        }
      }
      for (const [to, d] of dist) this.minutes.set(`${from}|${to}`, d);
    }
  }

  travelMinutes(from: LocationId, to: LocationId): number | null {
    return this.minutes.get(`${from}|${to}`) ?? null;
  }

  /** Locations reachable from `from` in one move, nearest first, then by id. */
  reachableFrom(from: LocationId, all: ReadonlyArray<LocationId>): ReadonlyArray<LocationId> {
    return all
      .filter((to) => to !== from && this.travelMinutes(from, to) !== null)
      .sort(
        (a, b) => this.travelMinutes(from, a)! - this.travelMinutes(from, b)! || (a < b ? -1 : 1),
      );
  }
}
