/**
 * Each NPC's own facts (profile, memories, rumours, regard, tasks) are held by its actor alone:
 * the engine's state has no per-NPC copy, no fact rests outside an actor while the run's
 * actors are up, and what the actors hold at the end of a run — interrupted and resumed
 * or not — is exactly a refold of the log.
 */
import { EngineState, NpcActors } from "@hearsay/engine";
import { describe, expect, it } from "vitest";
import { freshLog, logHash, MAIN, ofType, run } from "./harness.ts";

type NpcRuntime = EngineState["npcs"] extends Map<unknown, infer R> ? R : never;
/** `true` only when `T` has none of the keys `K`: a compile error otherwise. */
type Lacks<T, K extends PropertyKey> = [Extract<keyof T, K>] extends [never] ? true : false;

// The NPC's facts are not in the engine's state: these lines stop compiling if they return.
const stateLacks: Lacks<
  EngineState,
  | "edges"
  | "edge"
  | "memoryOwners"
  | "expiries"
  | "memories"
  | "profiles"
  | "tasks"
  | "openTasks"
  | "deadlines"
> = true;
const npcLacks: Lacks<
  NpcRuntime,
  "memories" | "rumours" | "hasProfile" | "concerns" | "profile" | "tasks"
> = true;

/** What a run's routing needs to know of an NPC: who it is, where, doing what. */
const npcRoutingKeys = [
  "activity",
  "attendingTo",
  "destination",
  "factionId",
  "holding",
  "id",
  "locationId",
  "name",
  "note",
  "role",
  "since",
  "taskId",
  "traits",
  "until",
];

const refold = (log: ReturnType<typeof freshLog>) => {
  const actors = new NpcActors();
  for (const e of log.read(MAIN)) actors.apply(e);
  return actors.allFacts();
};

describe("NPC actors own their facts", () => {
  it("the engine state holds no per-NPC memory, task, profile, rumour or regard", async () => {
    expect([stateLacks, npcLacks]).toEqual([true, true]);
    const log = freshLog();
    await run(log, { days: 1 });
    // The state a run ends with is the fold of its log (what a resume builds).
    const state = new EngineState();
    for (const e of log.read(MAIN)) state.apply(e, e.seq);
    expect(state.npcs.size).toBeGreaterThan(0);
    for (const npc of state.npcs.values()) expect(Object.keys(npc).sort()).toEqual(npcRoutingKeys);
    const keys = Object.keys(state);
    for (const banned of ["edges", "memoryOwners", "expiries", "tasks", "openTasks", "deadlines"])
      expect(keys).not.toContain(banned);
  });

  it("no fact rests outside an actor while the run's actors are up", async () => {
    const log = freshLog();
    let actors: NpcActors | null = null;
    const seen: Array<[number, number]> = [];
    await run(log, {
      days: 2,
      onActors: (a) => {
        actors = a;
      },
      onProgress: () => seen.push([actors!.running, actors!.resters]),
    });
    expect(seen.length).toBeGreaterThan(0);
    const npcs = seen[0]![0];
    expect(npcs).toBeGreaterThan(0);
    for (const s of seen) expect(s).toEqual([npcs, 0]);
  });

  it("what the actors hold at the end of a run equals a refold of its log, resumed or not", async () => {
    // A low cap and four days, so memories both expire and are capped, live and resumed.
    const spec = { days: 4, config: { memoryCap: 8 } };
    const whole = freshLog();
    let live: NpcActors | null = null;
    await run(whole, {
      ...spec,
      onActors: (a) => {
        live = a;
      },
    });
    const held = live!.allFacts();
    // The run did build up facts worth comparing.
    expect(held.some((f) => f.profile !== null)).toBe(true);
    expect(held.some((f) => f.rumours.size > 0)).toBe(true);
    expect(held.some((f) => f.regard.size > 0)).toBe(true);
    expect(held.some((f) => [...f.tasks.values()].some((t) => t.sessions > 0))).toBe(true);
    expect(held.every((f) => f.memories.size > 0)).toBe(true);
    const reasons = new Set(ofType(whole, "MemoryExpired").map((e) => e.payload.reason));
    expect([...reasons].sort()).toEqual(["capped", "expired"]);
    expect(held).toEqual(refold(whole));

    // Interrupted mid-run: the resumed actors are rebuilt by the same fold, then go on
    // deciding what to forget exactly as the uninterrupted ones did.
    const split = freshLog();
    await run(split, { ...spec, maxTicks: 50 });
    let resumed: NpcActors | null = null;
    await run(split, {
      ...spec,
      resume: true,
      onActors: (a) => {
        resumed = a;
      },
    });
    expect(logHash(split)).toBe(logHash(whole));
    expect(resumed!.allFacts()).toEqual(refold(split));
    expect(resumed!.allFacts()).toEqual(held);
  });
});
