/**
 * The travel graph's rules: every neighbour is a known place, listed once, not the place
 * itself; every way is walkable both ways in the same time unless it says (`oneWay`) why
 * not; and every place reaches every other. Problems come in that order, so a mistyped
 * id is reported before the asymmetry it seems to cause.
 */
import type { World } from "./World.ts";
import type { WorldPath, WorldProblem } from "./WorldError.ts";
import { showValue } from "./WorldError.ts";

/**
 * Neighbours must exist, not loop or repeat, be listed from both ends with the same
 * travel time (unless `oneWay` says why not), and every place must reach every other.
 */
export const validateTravelGraph = (world: World): ReadonlyArray<WorldProblem> => {
  const problems: Array<WorldProblem> = [];
  const add = (path: WorldPath, problem: string, fix: string) =>
    problems.push({ path, problem, fix });
  const locations = new Set<string>(world.locations.map((l) => l.id));
  const edges = new Map<string, Map<string, number>>();
  for (const l of world.locations) {
    const out = edges.get(l.id) ?? new Map<string, number>();
    for (const n of l.neighbours) if (!out.has(n.to)) out.set(n.to, n.travelMinutes);
    edges.set(l.id, out);
  }
  const order = new Map<string, number>(world.locations.map((l, i) => [l.id, i] as const));
  // Bad references first: a wrong id is the cause of any asymmetry it seems to create.
  world.locations.forEach((l, i) => {
    const seen = new Set<string>();
    l.neighbours.forEach((n, j) => {
      const path = ["locations", i, "neighbours", j, "to"];
      if (!locations.has(n.to))
        add(
          path,
          `expected a known location id, got ${showValue(n.to)}`,
          "fix the id or add the location",
        );
      else if (n.to === l.id)
        add(
          path,
          `expected another location, got ${showValue(n.to)} itself`,
          "remove the self-loop",
        );
      else if (seen.has(n.to))
        add(
          path,
          `expected each neighbour once, got ${showValue(n.to)} twice`,
          "merge the two ways",
        );
      seen.add(n.to);
    });
  });
  world.locations.forEach((l, i) => {
    l.neighbours.forEach((n, j) => {
      if (!locations.has(n.to) || n.to === l.id || n.oneWay !== undefined) return;
      const back = edges.get(n.to)?.get(l.id);
      if (back === undefined)
        add(
          ["locations", i, "neighbours", j, "to"],
          `expected ${showValue(n.to)} to list ${showValue(l.id)} as a neighbour too (ways are two-way), it does not`,
          `add the way back to ${showValue(n.to)} or give this way a "oneWay" reason`,
        );
      else if (back !== n.travelMinutes && (order.get(n.to) ?? 0) > i)
        add(
          ["locations", i, "neighbours", j, "travelMinutes"],
          `expected the same travel time both ways, got ${n.travelMinutes} here and ${back} back from ${showValue(n.to)}`,
          "make the two times equal",
        );
    });
  });
  const first = world.locations[0];
  if (first === undefined) return problems;
  const reach = (next: (id: string) => Iterable<string>) => {
    const seen = new Set<string>([first.id]);
    const queue: Array<string> = [first.id];
    for (let id = queue.shift(); id !== undefined; id = queue.shift())
      for (const to of next(id))
        if (locations.has(to) && !seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
    return seen;
  };
  const reverse = new Map<string, Array<string>>();
  for (const [from, out] of edges)
    for (const to of out.keys()) reverse.set(to, [...(reverse.get(to) ?? []), from]);
  const forward = reach((id) => edges.get(id)?.keys() ?? []);
  const backward = reach((id) => reverse.get(id) ?? []);
  world.locations.forEach((l, i) => {
    if (!forward.has(l.id))
      add(
        ["locations", i],
        `expected a place reachable from ${showValue(first.id)}, but no way leads to ${showValue(l.id)}`,
        "add a neighbour way to it",
      );
    else if (!backward.has(l.id))
      add(
        ["locations", i],
        `expected a way from ${showValue(l.id)} back to ${showValue(first.id)}, found none`,
        "add a neighbour way out of it",
      );
  });
  return problems;
};
