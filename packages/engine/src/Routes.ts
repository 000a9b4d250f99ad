/**
 * Travel times between locations: shortest paths over the world's neighbour graph. A
 * source's distances are computed the first time anyone travels from it (Dijkstra with a
 * binary heap) and kept in a typed row, so a world of thousands of places (a scaled
 * bench world) costs only the rows its NPCs use, never an all-pairs pass up front.
 * Shortest distances are unique, so when a row is computed changes nothing a run writes.
 * The NPC machines ask it how long a journey takes.
 */
import type { Routes as RoutesPort } from "@hearsay/actors";
import type { LocationId, World } from "@hearsay/core";

const UNREACHABLE = -1;

export class Routes implements RoutesPort {
  private readonly index = new Map<LocationId, number>();
  /** Per location index: neighbour indexes and minutes, flattened. */
  private readonly edgeTo: ReadonlyArray<Int32Array>;
  private readonly edgeMinutes: ReadonlyArray<Float64Array>;
  private readonly rows = new Map<number, Float64Array>();

  constructor(world: World) {
    const ids = world.locations.map((l) => l.id).sort();
    for (const [i, id] of ids.entries()) this.index.set(id, i);
    const byId = new Map(world.locations.map((l) => [l.id, l]));
    const to: Array<Int32Array> = [];
    const minutes: Array<Float64Array> = [];
    for (const id of ids) {
      const links = (byId.get(id)?.neighbours ?? []).filter((n) => this.index.has(n.to));
      to.push(Int32Array.from(links, (n) => this.index.get(n.to)!));
      minutes.push(Float64Array.from(links, (n) => n.travelMinutes));
    }
    this.edgeTo = to;
    this.edgeMinutes = minutes;
  }

  travelMinutes(from: LocationId, to: LocationId): number | null {
    const a = this.index.get(from);
    const b = this.index.get(to);
    if (a === undefined || b === undefined) return null;
    const d = this.row(a)[b]!;
    return d === UNREACHABLE ? null : d;
  }

  /** Locations reachable from `from` in one move, nearest first, then by id. */
  reachableFrom(from: LocationId, all: ReadonlyArray<LocationId>): ReadonlyArray<LocationId> {
    return all
      .filter((to) => to !== from && this.travelMinutes(from, to) !== null)
      .sort(
        (a, b) => this.travelMinutes(from, a)! - this.travelMinutes(from, b)! || (a < b ? -1 : 1),
      );
  }

  /** Distances from one source to every location (UNREACHABLE where there is no path). */
  private row(source: number): Float64Array {
    let dist = this.rows.get(source);
    if (dist !== undefined) return dist;
    dist = new Float64Array(this.edgeTo.length).fill(UNREACHABLE);
    dist[source] = 0;
    const heap = new MinHeap();
    heap.push(0, source);
    const done = new Uint8Array(this.edgeTo.length);
    while (heap.size > 0) {
      const [d, at] = heap.pop();
      if (done[at] === 1) continue;
      done[at] = 1;
      const to = this.edgeTo[at]!;
      const minutes = this.edgeMinutes[at]!;
      for (let i = 0; i < to.length; i++) {
        const next = to[i]!;
        const nd = d + minutes[i]!;
        const known = dist[next]!;
        if (known === UNREACHABLE || nd < known) {
          dist[next] = nd;
          heap.push(nd, next);
        }
      }
    }
    this.rows.set(source, dist);
    return dist;
  }
}

/** A binary min-heap of (distance, node) pairs, for Dijkstra. */
class MinHeap {
  private readonly keys: Array<number> = [];
  private readonly values: Array<number> = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, value: number): void {
    const { keys, values } = this;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (keys[up]! <= key) break;
      keys[i] = keys[up]!;
      values[i] = values[up]!;
      i = up;
    }
    keys[i] = key;
    values[i] = value;
  }

  pop(): [number, number] {
    const { keys, values } = this;
    const top: [number, number] = [keys[0]!, values[0]!];
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && keys[r]! < keys[l]! ? r : l;
        if (keys[c]! >= lastKey) break;
        keys[i] = keys[c]!;
        values[i] = values[c]!;
        i = c;
      }
      keys[i] = lastKey;
      values[i] = lastValue;
    }
    return top;
  }
}
