/**
 * The world definition: the shipped default world decodes, cross-validates and meets
 * the content minimums, its lore is long enough and consistent with it; and every way of
 * breaking a world file yields one WorldError line that names the file and the field —
 * including when the world is split over files in ways nobody wrote by hand.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  decodeWorld,
  parseWorldSource,
  singletonSections,
  validateWorld,
  type World,
  type WorldError,
  type WorldSource,
  worldSections,
} from "@hearsay/core";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const simDir = "simulations/haskerry";
const numRuns = process.env.HEARSAY_DEEP ? 2_000 : 60;

const sources: ReadonlyArray<WorldSource> = readdirSync(join(root, simDir))
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) =>
    Result.getOrThrow(
      parseWorldSource(`${simDir}/${f}`, readFileSync(join(root, simDir, f), "utf8")),
    ),
  );
const decoded = decodeWorld(sources);
const world: World = Result.getOrThrow(decoded);

const failure = (r: Result.Result<World, WorldError>): WorldError => {
  if (Result.isSuccess(r)) throw new Error("expected the world to be refused, it decoded");
  return r.failure;
};

// biome-ignore lint/suspicious/noExplicitAny: mutations poke at raw JSON
type Json = any;
/** The shipped sources with one file's JSON changed by `mutate` (on a deep copy). */
const withChange = (file: string, mutate: (json: Json) => void): Array<WorldSource> =>
  sources.map((s) => {
    if (s.path !== `${simDir}/${file}`) return s;
    const json = structuredClone(s.json) as Json;
    mutate(json);
    return { path: s.path, json };
  });

describe("the default world (haskerry)", () => {
  it("decodes and cross-validates with no problems", () => {
    expect(Result.isSuccess(decoded)).toBe(true);
    expect(validateWorld(world)).toEqual([]);
    expect(world.meta.name).toBe("haskerry");
    expect(world.meta.tickMinutes).toBe(60);
  });

  it("meets the content minimums", () => {
    expect(world.factions.length).toBeGreaterThanOrEqual(3);
    expect(world.locations.length).toBeGreaterThanOrEqual(12);
    expect(world.npcs.length).toBeGreaterThanOrEqual(60);
    expect(world.relationships.length).toBeGreaterThanOrEqual(150);
    expect(world.scheduledEvents.length).toBeGreaterThanOrEqual(20);
    expect(world.debateTopics.length).toBeGreaterThanOrEqual(6);
    expect(world.taskSeeds.length).toBeGreaterThanOrEqual(8);
    expect(world.plannedHappenings.length).toBeGreaterThanOrEqual(3);
    const days = world.scheduledEvents.map((e) => e.day);
    expect(Math.max(...days) - Math.min(...days)).toBeGreaterThanOrEqual(30);
    const visibilities = new Set(world.scheduledEvents.map((e) => e.visibility));
    expect([...visibilities].sort()).toEqual(["faction", "global", "local", "private", "rumor"]);
  });

  it("gives every NPC a full gifted profile, a faction tie or none, and relationships", () => {
    const members = new Map<string, number>(world.factions.map((f) => [f.id, 0]));
    const outgoing = new Map<string, number>();
    const incoming = new Map<string, number>();
    for (const r of world.relationships) {
      outgoing.set(r.from, (outgoing.get(r.from) ?? 0) + 1);
      incoming.set(r.to, (incoming.get(r.to) ?? 0) + 1);
    }
    for (const n of world.npcs) {
      expect(n.background.length, n.id).toBeGreaterThanOrEqual(300);
      expect(n.identity.length, n.id).toBeGreaterThanOrEqual(40);
      expect(n.speechStyle.length, n.id).toBeGreaterThanOrEqual(30);
      expect(n.traits.length, n.id).toBeGreaterThanOrEqual(2);
      expect(n.values.length, n.id).toBeGreaterThanOrEqual(1);
      expect(n.knows.length, n.id).toBeGreaterThanOrEqual(2);
      expect(outgoing.get(n.id) ?? 0, n.id).toBeGreaterThanOrEqual(2);
      expect(incoming.get(n.id) ?? 0, n.id).toBeGreaterThanOrEqual(1);
      if (n.factionId !== null) members.set(n.factionId, (members.get(n.factionId) ?? 0) + 1);
    }
    for (const [faction, count] of members) expect(count, faction).toBeGreaterThanOrEqual(3);
    expect(world.npcs.filter((n) => n.factionId === null).length).toBeGreaterThan(0);
  });

  it("has asymmetric relationships: someone trusts someone who suspects them", () => {
    const edge = new Map(world.relationships.map((r) => [`${r.from}>${r.to}`, r] as const));
    const asymmetric = world.relationships.filter((r) => {
      const back = edge.get(`${r.to}>${r.from}`);
      return r.trust >= 0.3 && back !== undefined && back.suspicion >= 0.5;
    });
    expect(asymmetric.length).toBeGreaterThanOrEqual(5);
    const oneSided = world.relationships.filter((r) => !edge.has(`${r.to}>${r.from}`));
    expect(oneSided.length).toBeGreaterThan(0);
  });

  it("ships lore of at least 4,000 words with a real heading hierarchy, consistent with the world", () => {
    const texts = world.lore.map((p) => readFileSync(join(root, simDir, p), "utf8"));
    const words = texts.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);
    expect(words).toBeGreaterThanOrEqual(4_000);
    expect(texts.length).toBeGreaterThanOrEqual(4);
    for (const [i, t] of texts.entries()) {
      expect(t.match(/^# \S/gm)?.length, world.lore[i]).toBe(1);
      expect(t.match(/^## \S/gm)?.length ?? 0, world.lore[i]).toBeGreaterThanOrEqual(2);
    }
    const lore = texts.join("\n").toLowerCase();
    for (const f of world.factions) expect(lore, f.name).toContain(f.name.toLowerCase());
    for (const l of world.locations)
      expect(lore, l.name).toContain(l.name.replace(/^The /, "").toLowerCase());
    const named = world.npcs.filter((n) => lore.includes(n.name.toLowerCase()));
    expect(named.length).toBeGreaterThanOrEqual(20);
  });

  it("keeps its JSON readable: 2-space indentation, no tabs", () => {
    for (const f of readdirSync(join(root, simDir)).filter((f) => f.endsWith(".json"))) {
      const text = readFileSync(join(root, simDir, f), "utf8");
      expect(text.includes("\t"), f).toBe(false);
      for (const line of text.split("\n")) expect(line.match(/^ */)![0].length % 2, f).toBe(0);
    }
  });

  it("decodes to the same world whatever order its files are given in", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...sources], { minLength: sources.length }), (shuffled) => {
        expect(Result.getOrThrow(decodeWorld(shuffled))).toEqual(world);
      }),
      { numRuns: Math.min(numRuns, 50) },
    );
  });
});

interface Broken {
  readonly name: string;
  readonly file: string;
  readonly mutate: (json: Json) => void;
  /** The whole expected message, or its start after `file: `. */
  readonly starts: string;
}

const broken: ReadonlyArray<Broken> = [
  {
    name: "missing field",
    file: "npcs-carters.json",
    mutate: (j) => delete j.npcs[3].home,
    starts: "npcs[3].home: expected string, got nothing (the field is required) — add the field",
  },
  {
    name: "wrong type",
    file: "npcs-townsfolk.json",
    mutate: (j) => {
      j.npcs[0].wakeHour = "seven";
    },
    starts: 'npcs[0].wakeHour: expected number, got "seven"',
  },
  {
    name: "hour out of range",
    file: "npcs-townsfolk.json",
    mutate: (j) => {
      j.npcs[4].sleepHour = 24;
    },
    starts: "npcs[4].sleepHour: expected a value between 0 and 23, got 24",
  },
  {
    name: "unknown location id",
    file: "npcs-saltwardens.json",
    mutate: (j) => {
      j.npcs[12].home = "docks2";
    },
    starts:
      'npcs[12].home: expected a known location id, got "docks2" — fix the id or add the location',
  },
  {
    name: "duplicate NPC id",
    file: "npcs-syndicate.json",
    mutate: (j) => {
      j.npcs[1].id = "ivo-pentreath";
    },
    starts: 'npcs[1].id: expected a unique NPC id, got "ivo-pentreath" again',
  },
  {
    name: "reserved NPC id",
    file: "npcs-carters.json",
    mutate: (j) => {
      j.npcs.push({ ...j.npcs[0], id: "player", knows: [] });
    },
    starts: 'npcs[13].id: expected an NPC id other than "player"',
  },
  {
    name: "unknown neighbour",
    file: "world.json",
    mutate: (j) => {
      j.locations[2].neighbours[0].to = "nowhere";
    },
    starts: 'locations[2].neighbours[0].to: expected a known location id, got "nowhere"',
  },
  {
    name: "asymmetric neighbour",
    file: "world.json",
    mutate: (j) => {
      j.locations[2].neighbours.splice(1, 1);
    },
    starts:
      'locations[1].neighbours[1].to: expected "harbour" to list "gannet-and-oar" as a neighbour too',
  },
  {
    name: "unequal travel times",
    file: "world.json",
    mutate: (j) => {
      j.locations[0].neighbours[0].travelMinutes = 4;
    },
    starts:
      'locations[0].neighbours[0].travelMinutes: expected the same travel time both ways, got 4 here and 3 back from "gannet-and-oar"',
  },
  {
    name: "unreachable location",
    file: "world.json",
    mutate: (j) => {
      j.locations[12].neighbours = [];
      j.locations[10].neighbours.pop();
    },
    starts:
      'locations[12]: expected a place reachable from "cross-square", but no way leads to "fennick-landing"',
  },
  {
    name: "relationship out of range",
    file: "relationships.json",
    mutate: (j) => {
      j.relationships[5].trust = 1.5;
    },
    starts: "relationships[5].trust: expected a value between -1 and 1, got 1.5",
  },
  {
    name: "relationship to an unknown NPC",
    file: "relationships.json",
    mutate: (j) => {
      j.relationships[7].to = "nobody";
    },
    starts: 'relationships[7].to: expected a known NPC id, got "nobody"',
  },
  {
    name: "duplicate relationship",
    file: "relationships.json",
    mutate: (j) => {
      j.relationships.push({ ...j.relationships[0] });
    },
    starts:
      'relationships[268]: expected one relationship from "aldous-penhallow" to "isolde-penhallow", got a second',
  },
  {
    name: "faction event without a faction",
    file: "events.json",
    mutate: (j) => {
      j.scheduledEvents[3].factionId = null;
    },
    starts: 'scheduledEvents[3].factionId: expected a faction id for a "faction" event, got null',
  },
  {
    name: "event before the start",
    file: "events.json",
    mutate: (j) => {
      j.scheduledEvents[0].hour = 2;
    },
    starts:
      "scheduledEvents[0].day: expected a time at or after the start (day 0, 06:00), got day 0, 02:00",
  },
  {
    name: "wrong visibility",
    file: "events.json",
    mutate: (j) => {
      j.scheduledEvents[1].visibility = "public";
    },
    starts:
      'scheduledEvents[1].visibility: expected "private" | "local" | "faction" | "global" | "rumor", got "public"',
  },
  {
    name: "unknown precondition task",
    file: "events.json",
    mutate: (j) => {
      j.plannedHappenings[2].preconditions[0].taskId = "no-such-task";
    },
    starts:
      'plannedHappenings[2].preconditions[0].taskId: expected a known task id, got "no-such-task"',
  },
  {
    name: "malformed precondition",
    file: "events.json",
    mutate: (j) => {
      j.plannedHappenings[0].preconditions[0] = { type: "moonIsFull" };
    },
    starts: "plannedHappenings[0].preconditions[0]: expected a precondition",
  },
  {
    name: "debater in two positions",
    file: "debates.json",
    mutate: (j) => {
      j.debateTopics[0].positions[1].heldBy.push("ivo-pentreath");
    },
    starts:
      'debateTopics[0].positions[1].heldBy[5]: expected each NPC in one position, got "ivo-pentreath" in two',
  },
  {
    name: "acquaintance unknown",
    file: "npcs-lampkeepers.json",
    mutate: (j) => {
      j.npcs[2].knows[1].npcId = "ghost";
    },
    starts: 'npcs[2].knows[1].npcId: expected a known NPC id, got "ghost"',
  },
  {
    name: "misspelt field",
    file: "npcs-lampkeepers.json",
    mutate: (j) => {
      j.npcs[2].hoem = "tide-chapel";
    },
    starts:
      'npcs[2].hoem: expected no field named "hoem" here — did you mean `home`? (else remove it)',
  },
  {
    name: "unknown section",
    file: "tasks.json",
    mutate: (j) => {
      j.taskseeds = [];
    },
    starts: "taskseeds: expected a world section (meta, scenario",
  },
  {
    name: "uneven tick length",
    file: "world.json",
    mutate: (j) => {
      j.meta.tickMinutes = 7;
    },
    starts:
      "meta.tickMinutes: expected a whole number of minutes that divides a day (1440) evenly, got 7",
  },
  {
    name: "thread between unknown NPCs",
    file: "threads.json",
    mutate: (j) => {
      j.threads[2].knownBy[1] = "tobias";
    },
    starts: 'threads[2].knownBy[1]: expected a known NPC id, got "tobias"',
  },
  {
    name: "thread of an unknown kind",
    file: "threads.json",
    mutate: (j) => {
      j.threads[0].kind = "grudge";
    },
    starts:
      'threads[0].kind: expected "promise" | "feud" | "debt" | "question" | "secret", got "grudge"',
  },
  {
    name: "thread id used twice",
    file: "threads.json",
    mutate: (j) => {
      j.threads[3].id = j.threads[1].id;
    },
    starts: 'threads[3].id: expected a unique thread id, got "late-red-flag" again',
  },
  {
    name: "task seed for an unknown assignee",
    file: "tasks.json",
    mutate: (j) => {
      j.taskSeeds[4].assignee = "perrin";
    },
    starts: 'taskSeeds[4].assignee: expected a known NPC id, got "perrin"',
  },
];

describe("a broken world file", () => {
  it.each(broken)("$name: one line naming the file and the field", ({ file, mutate, starts }) => {
    const error = failure(decodeWorld(withChange(file, mutate)));
    expect(error._tag).toBe("WorldError");
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(error.file).toBe(`${simDir}/${file}`);
    expect(error.message.startsWith(`${simDir}/${file}: ${starts}`), error.message).toBe(true);
  });

  it("a section defined twice names both files", () => {
    const error = failure(
      decodeWorld(
        withChange("debates.json", (j) => {
          j.meta = { name: "x", title: "X", description: "d", start: { hour: 0 } };
        }),
      ),
    );
    expect(error.message).toBe(
      `${simDir}/world.json: meta: expected one "meta" section in the world, got a second (the first is in ${simDir}/debates.json) — keep only one of them`,
    );
  });

  it("a missing required section names the folder", () => {
    const error = failure(decodeWorld(withChange("world.json", (j) => delete j.meta)));
    expect(
      error.message.startsWith(
        `${simDir}: meta: expected the section "meta" in one of the world's files`,
      ),
    ).toBe(true);
  });

  it("bad JSON text names the file", () => {
    const r = parseWorldSource(`${simDir}/world.json`, '{ "meta": ');
    expect(
      Result.isFailure(r) &&
        r.failure.message.startsWith(`${simDir}/world.json: expected valid JSON`),
    ).toBe(true);
  });

  it("no files at all is refused", () => {
    expect(failure(decodeWorld([])).message).toContain("expected at least one world file");
  });

  it("counts the problems after the first", () => {
    const error = failure(
      decodeWorld(
        withChange("relationships.json", (j) => {
          j.relationships[0].to = "x";
          j.relationships[1].to = "y";
        }),
      ),
    );
    expect(error.more).toBe(1);
    expect(error.message.endsWith("(and 1 more problem)")).toBe(true);
  });
});

/** Cuts each list section into contiguous runs over `k` files, keeping item order. */
const arbSplit = fc.integer({ min: 1, max: 5 }).chain((k) =>
  fc
    .record(
      Object.fromEntries(
        worldSections.map((s) => {
          const size = singletonSections.includes(s)
            ? 1
            : (world[s] as ReadonlyArray<unknown>).length;
          return [
            s,
            fc
              .array(fc.integer({ min: 0, max: k - 1 }), { minLength: size, maxLength: size })
              .map((a) => a.sort()),
          ];
        }),
      ) as Record<(typeof worldSections)[number], fc.Arbitrary<Array<number>>>,
    )
    .map((cuts) => {
      const files = Array.from({ length: k }, () => ({}) as Record<string, unknown>);
      const origin = new Map<string, { file: number; index: number }>();
      for (const s of worldSections) {
        if (singletonSections.includes(s)) {
          files[cuts[s][0]!]![s] = world[s];
          continue;
        }
        (world[s] as ReadonlyArray<unknown>).forEach((item, i) => {
          const f = files[cuts[s][i]!]!;
          const list = (f[s] as Array<unknown> | undefined) ?? [];
          f[s] = list;
          origin.set(`${s}:${i}`, { file: cuts[s][i]!, index: list.length });
          list.push(item);
        });
      }
      const parts = files.map((json, i) => ({ path: `sim/part-${i}.json`, json }));
      return { parts, origin };
    }),
);

describe("a world split over files", () => {
  it("decodes to the same world however its lists are split", () => {
    fc.assert(
      fc.property(arbSplit, ({ parts }) => {
        expect(Result.getOrThrow(decodeWorld(parts))).toEqual(world);
      }),
      { numRuns },
    );
  });

  it("reports a bad reference in the file and at the index it is written at", () => {
    const locations = new Set(world.locations.map((l) => l.id as string));
    const arbBadId = fc.stringMatching(/^[a-z][a-z0-9-]{0,24}$/).filter((s) => !locations.has(s));
    fc.assert(
      fc.property(
        arbSplit,
        fc.nat(world.npcs.length - 1),
        arbBadId,
        ({ parts, origin }, npc, bad) => {
          const at = origin.get(`npcs:${npc}`)!;
          const changed = parts.map((p, i) => {
            if (i !== at.file) return p;
            const json = structuredClone(p.json) as Json;
            json.npcs[at.index].home = bad;
            return { path: p.path, json };
          });
          const error = failure(decodeWorld(changed));
          expect(
            error.message.startsWith(
              `sim/part-${at.file}.json: npcs[${at.index}].home: expected a known location id, got "${bad}"`,
            ),
            error.message,
          ).toBe(true);
        },
      ),
      { numRuns },
    );
  });

  it("never throws on arbitrary JSON, and names the file and entry it is in", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(3), (junk, at) => {
        const changed = withChange("npcs-townsfolk.json", (j) => {
          j.npcs[at] = junk;
        });
        const error = failure(decodeWorld(changed));
        expect(error.message).not.toMatch(/[\r\n]/);
        expect(
          error.message.startsWith(`${simDir}/npcs-townsfolk.json: npcs[${at}]`),
          error.message,
        ).toBe(true);
      }),
      { numRuns },
    );
  });
});
