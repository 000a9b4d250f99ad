import { emptyNpcFacts, eventTriggers, foldNpcFacts, type NpcFacts } from "@hearsay/actors";
import { type Event, type EventType, ids, makeEvent, type NpcProfile } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const smith = ids.npc("smith");
const baker = ids.npc("baker");
let n = 0;
const ev = <T extends EventType>(type: T, t: number, payload: unknown): Event =>
  makeEvent(type, { id: ids.event(`s${++n}`), t, payload } as never) as Event;

const profile: NpcProfile = {
  backstory: "Born at the forge.",
  personality: "gruff",
  speechStyle: "short",
  goals: ["pay the guild"],
  fears: ["fire"],
  loyalties: ["the guild", "Baker"],
  relationshipSeed: "trusts the baker",
};

const task = (id: string, assignee: string | null, proposedBy: string | null = null) =>
  ev("TaskProposed", 5, {
    taskId: id,
    title: `Task ${id}`,
    description: "",
    proposedBy,
    assignee,
    locationId: null,
    factionId: null,
    deadline: null,
  });
const moved = (id: string, from: string, to: string) =>
  ev("TaskStatusChanged", 6, { taskId: id, from, to, reason: "", by: null });

/** Folds as the NPC actors route: every event given is one the smith holds or is in. */
const fold = (events: ReadonlyArray<Event>): NpcFacts => {
  const facts = emptyNpcFacts(smith);
  for (const e of events) foldNpcFacts(facts, e);
  return facts;
};

describe("what happened since the profile last changed", () => {
  it("counts tasks the NPC saw through and promises it broke, not tasks it only proposed", () => {
    const facts = fold([
      ev("ProfileGenerated", 1, { npcId: smith, profile }),
      task("a", smith),
      moved("a", "proposed", "active"),
      moved("a", "active", "completed"),
      task("b", smith),
      moved("b", "proposed", "expired"),
      task("c", smith),
      moved("c", "proposed", "active"),
      moved("c", "active", "expired"),
      task("d", null, smith),
      moved("d", "proposed", "active"),
      moved("d", "active", "completed"),
    ]);
    expect(facts.sinceProfile).toEqual({
      at: 1,
      completed: ["Task a"],
      broken: ["Task c"],
      feuds: [],
      memories: 0,
    });
    expect(eventTriggers(facts.sinceProfile)).toEqual(["task_completed", "promise_broken"]);
  });

  it("a feud names the other; a revision lays its changes over the profile and starts afresh", () => {
    const feud = ev("ThreadOpened", 7, {
      threadId: "th-1",
      kind: "feud",
      text: "x",
      npcIds: [baker, smith],
      source: null,
    });
    const promise = ev("ThreadOpened", 7, {
      threadId: "th-2",
      kind: "promise",
      text: "x",
      npcIds: [baker, smith],
      source: null,
    });
    const facts = fold([ev("ProfileGenerated", 1, { npcId: smith, profile }), feud, promise]);
    expect(facts.sinceProfile.feuds).toEqual([baker]);
    foldNpcFacts(
      facts,
      ev("ProfileRevised", 900, {
        npcId: smith,
        changes: { loyalties: ["the guild"] },
        triggers: ["feud"],
        reason: "Fell out with the baker.",
      }),
    );
    expect(facts.profile).toEqual({ ...profile, loyalties: ["the guild"] });
    expect(facts.sinceProfile).toEqual({
      at: 900,
      completed: [],
      broken: [],
      feuds: [],
      memories: 0,
    });
  });

  it("keeps only the newest few of each kind, however many happen", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), (k) => {
        const events: Array<Event> = [ev("ProfileGenerated", 1, { npcId: smith, profile })];
        for (let i = 0; i < k; i++)
          events.push(task(`t${i}`, smith), moved(`t${i}`, "active", "completed"));
        const done = fold(events).sinceProfile.completed;
        expect(done.length).toBe(Math.min(k, 4));
        if (k > 0) expect(done[done.length - 1]).toBe(`Task t${k - 1}`);
      }),
      { numRuns: 30 },
    );
  });
});
