/**
 * The checks a Schema cannot make on its own, run after decoding: every id a world
 * refers to exists, no id is used twice, the travel graph is symmetric (or says why an
 * edge is one-way) and connected, visibilities have what they need (a faction event
 * names its faction), and nothing is scheduled before the clock starts. Pure; problems
 * come back in a fixed order (section by section, item by item) so the first one
 * reported is always the same.
 */
import { formatGameTime, gameTime } from "./GameTime.ts";
import { PLAYER_ID } from "./ids.ts";
import { validateTravelGraph } from "./validateTravelGraph.ts";
import type { World } from "./World.ts";
import type { WorldPath, WorldProblem } from "./WorldError.ts";
import { showValue } from "./WorldError.ts";

/** Every cross-reference problem in a decoded world, in section order; empty when sound. */
export const validateWorld = (world: World): ReadonlyArray<WorldProblem> => {
  const problems: Array<WorldProblem> = [];
  const add = (path: WorldPath, problem: string, fix: string) =>
    problems.push({ path, problem, fix });

  /** Collects a section's ids, reporting any used twice. */
  const idsOf = (section: string, label: string, items: ReadonlyArray<{ readonly id: string }>) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item.id))
        add(
          [section, i, "id"],
          `expected a unique ${label} id, got ${showValue(item.id)} again`,
          "rename one of the two",
        );
      seen.add(item.id);
    });
    return seen;
  };
  const ref = (path: WorldPath, id: string | null, known: Set<string>, label: string) => {
    if (id !== null && !known.has(id))
      add(
        path,
        `expected a known ${label} id, got ${showValue(id)}`,
        `fix the id or add the ${label}`,
      );
  };
  const start = gameTime(world.meta.start.day, world.meta.start.hour);
  const notBeforeStart = (path: WorldPath, day: number, hour: number) => {
    const t = gameTime(day, hour);
    if (t < start)
      add(
        path,
        `expected a time at or after the start (${formatGameTime(start)}), got ${formatGameTime(t)}`,
        "move it later or start the world earlier",
      );
  };

  const factions = idsOf("factions", "faction", world.factions);
  const locations = idsOf("locations", "location", world.locations);
  const npcs = idsOf("npcs", "NPC", world.npcs);
  const events = idsOf("scheduledEvents", "scheduled event", world.scheduledEvents);
  idsOf("debateTopics", "debate topic", world.debateTopics);
  const tasks = idsOf("taskSeeds", "task", world.taskSeeds);
  idsOf("plannedHappenings", "happening", world.plannedHappenings);
  idsOf("threads", "thread", world.threads ?? []);

  problems.push(...validateTravelGraph(world));
  world.locations.forEach((l, i) => {
    ref(["locations", i, "factionId"], l.factionId, factions, "faction");
  });

  world.npcs.forEach((n, i) => {
    const at = (...rest: WorldPath) => ["npcs", i, ...rest];
    if (n.id === PLAYER_ID)
      add(
        at("id"),
        `expected an NPC id other than "${PLAYER_ID}" (the player's)`,
        "rename the NPC",
      );
    ref(at("factionId"), n.factionId, factions, "faction");
    ref(at("home"), n.home, locations, "location");
    ref(at("workplace"), n.workplace, locations, "location");
    if (n.sleepHour === n.wakeHour)
      add(
        at("sleepHour"),
        `expected a sleep hour other than the wake hour, got ${n.sleepHour} for both`,
        "give the NPC some hours awake",
      );
    const known = new Set<string>();
    n.knows.forEach((k, j) => {
      ref(at("knows", j, "npcId"), k.npcId, npcs, "NPC");
      if (k.npcId === n.id)
        add(
          at("knows", j, "npcId"),
          "expected another NPC, got the NPC itself",
          "remove the entry",
        );
      else if (known.has(k.npcId))
        add(
          at("knows", j, "npcId"),
          `expected each acquaintance once, got ${showValue(k.npcId)} twice`,
          "merge the two views",
        );
      known.add(k.npcId);
    });
  });

  const pairs = new Set<string>();
  world.relationships.forEach((r, i) => {
    ref(["relationships", i, "from"], r.from, npcs, "NPC");
    ref(["relationships", i, "to"], r.to, npcs, "NPC");
    const pair = `${r.from}\u0000${r.to}`;
    if (r.from === r.to)
      add(
        ["relationships", i, "to"],
        `expected someone other than ${showValue(r.from)}`,
        "remove the self-relationship",
      );
    else if (pairs.has(pair))
      add(
        ["relationships", i],
        `expected one relationship from ${showValue(r.from)} to ${showValue(r.to)}, got a second`,
        "merge the two",
      );
    pairs.add(pair);
  });

  world.scheduledEvents.forEach((e, i) => {
    const at = (...rest: WorldPath) => ["scheduledEvents", i, ...rest];
    ref(at("locationId"), e.locationId, locations, "location");
    ref(at("factionId"), e.factionId, factions, "faction");
    e.participants.forEach((p, j) => {
      ref(at("participants", j), p, npcs, "NPC");
    });
    notBeforeStart(at("day"), e.day, e.hour);
    if (e.visibility === "faction" && e.factionId === null)
      add(
        at("factionId"),
        'expected a faction id for a "faction" event, got null',
        "name the faction or change the visibility",
      );
    if (e.visibility === "local" && e.locationId === null)
      add(
        at("locationId"),
        'expected a location id for a "local" event, got null',
        "name the location or change the visibility",
      );
    if (e.visibility === "private" && e.participants.length === 0)
      add(
        at("participants"),
        'expected at least one participant for a "private" event, got none',
        "list who takes part or change the visibility",
      );
    if (e.visibility === "rumor" && e.locationId === null && e.participants.length === 0)
      add(
        at("locationId"),
        'expected a location or participants for a "rumor" event to start from, got neither',
        "name where it starts or who knows it",
      );
  });

  world.debateTopics.forEach((d, i) => {
    const at = (...rest: WorldPath) => ["debateTopics", i, ...rest];
    ref(at("factionId"), d.factionId, factions, "faction");
    ref(at("locationId"), d.locationId, locations, "location");
    notBeforeStart(at("firstDay"), d.firstDay, d.hour);
    const holders = new Set<string>();
    d.positions.forEach((p, j) => {
      p.heldBy.forEach((n, k) => {
        ref(at("positions", j, "heldBy", k), n, npcs, "NPC");
        if (holders.has(n))
          add(
            at("positions", j, "heldBy", k),
            `expected each NPC in one position, got ${showValue(n)} in two`,
            "keep it in one",
          );
        holders.add(n);
      });
    });
  });

  world.taskSeeds.forEach((t, i) => {
    const at = (...rest: WorldPath) => ["taskSeeds", i, ...rest];
    ref(at("proposedBy"), t.proposedBy, npcs, "NPC");
    ref(at("assignee"), t.assignee, npcs, "NPC");
    ref(at("factionId"), t.factionId, factions, "faction");
    ref(at("locationId"), t.locationId, locations, "location");
    notBeforeStart(at("day"), t.day, t.hour);
  });

  world.plannedHappenings.forEach((h, i) => {
    const at = (...rest: WorldPath) => ["plannedHappenings", i, ...rest];
    ref(at("locationId"), h.locationId, locations, "location");
    ref(at("factionId"), h.factionId, factions, "faction");
    ref(at("hostId"), h.hostId, npcs, "NPC");
    notBeforeStart(at("day"), h.day, h.hour);
    const due = gameTime(h.day, h.hour);
    const props = new Set<string>();
    h.props.forEach((p, j) => {
      if (props.has(p.id))
        add(
          at("props", j, "id"),
          `expected a unique prop id, got ${showValue(p.id)} again`,
          "rename one of the two",
        );
      props.add(p.id);
    });
    h.preconditions.forEach((c, j) => {
      const path = at("preconditions", j);
      if (c.type === "npcPresent") ref([...path, "npcId"], c.npcId, npcs, "NPC");
      if (c.type === "taskCompleted") {
        ref([...path, "taskId"], c.taskId, tasks, "task");
        const seed = world.taskSeeds.find((t) => t.id === c.taskId);
        if (seed !== undefined && gameTime(seed.day, seed.hour) >= due)
          add(
            [...path, "taskId"],
            `expected a task proposed before the happening (${formatGameTime(due)}), got one proposed on ${formatGameTime(gameTime(seed.day, seed.hour))}`,
            "seed the task earlier or the happening later",
          );
      }
      if (c.type === "eventOccurred") {
        ref([...path, "worldEventId"], c.worldEventId, events, "scheduled event");
        const e = world.scheduledEvents.find((s) => s.id === c.worldEventId);
        if (e !== undefined && gameTime(e.day, e.hour) >= due)
          add(
            [...path, "worldEventId"],
            `expected an event scheduled before the happening (${formatGameTime(due)}), got one on ${formatGameTime(gameTime(e.day, e.hour))}`,
            "schedule it earlier or drop the precondition",
          );
      }
    });
  });

  (world.threads ?? []).forEach((th, i) => {
    th.npcIds.forEach((id, j) => {
      ref(["threads", i, "npcIds", j], id, npcs, "NPC");
    });
    th.knownBy.forEach((id, j) => {
      ref(["threads", i, "knownBy", j], id, npcs, "NPC");
    });
  });

  const lore = new Set<string>();
  world.lore.forEach((p, i) => {
    if (lore.has(p))
      add(
        ["lore", i],
        `expected each lore file once, got ${showValue(p)} twice`,
        "remove the repeat",
      );
    lore.add(p);
  });
  return problems;
};
