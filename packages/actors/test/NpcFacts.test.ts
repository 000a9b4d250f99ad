import {
  concernedNpc,
  emptyNpcFacts,
  foldNpcFacts,
  isOpen,
  type NpcFacts,
  openTasksOf,
  partyTasksOf,
  taskHolder,
} from "@hearsay/actors";
import { type Event, type EventType, ids, makeEvent, type TaskStatus } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const smith = ids.npc("smith");
const baker = ids.npc("baker");
let n = 0;
const ev = <T extends EventType>(type: T, t: number, payload: unknown): Event =>
  makeEvent(type, { id: ids.event(`e${++n}`), t, payload } as never) as Event;

const fold = (events: ReadonlyArray<Event>): NpcFacts => {
  const facts = emptyNpcFacts(smith);
  for (const e of events) if (concernedNpc(e) === smith) foldNpcFacts(facts, e);
  return facts;
};

const memory = (
  memoryId: string,
  owner = smith,
  category = "scene",
  expiresAt: number | null = null,
) =>
  ev("MemoryRecorded", 10, {
    memoryId,
    ownerNpcId: owner,
    text: "x",
    category,
    importance: 0.5,
    expiresAt,
    locationId: null,
    entities: [],
    about: { kind: "task", id: "t1" },
  });

const knows = (npcId: string, itemId: string, confidence: number) =>
  ev("KnowledgeGained", 10, {
    npcId,
    itemKind: "world_event",
    itemId,
    via: "told",
    fromNpcId: null,
    confidence,
  });

describe("an NPC's facts", () => {
  it("hold its memories from recorded to expired, and nobody else's", () => {
    const facts = fold([
      memory("m1", smith, "identity"),
      memory("m2", smith, "scene", 70),
      memory("m3", baker),
      ev("MemoryExpired", 20, { memoryId: "m1x", ownerNpcId: smith, reason: "expired" }),
    ]);
    expect([...facts.memories.keys()]).toEqual(["m1", "m2"]);
    expect(facts.memories.get(ids.memory("m1"))).toMatchObject({ pinned: true, recordedAt: 10 });
    expect(facts.memories.get(ids.memory("m2"))).toMatchObject({
      pinned: false,
      category: "scene",
      importance: 0.5,
      expiresAt: 70,
      about: { kind: "task", id: "t1" },
    });
    const after = fold([
      memory("m1"),
      memory("m2"),
      ev("MemoryExpired", 20, { memoryId: "m1", ownerNpcId: smith, reason: "capped" }),
    ]);
    expect([...after.memories.keys()]).toEqual(["m2"]);
  });

  it("count what it learnt until its activity changes, and keep the best confidence of a rumour", () => {
    const facts = fold([knows(smith, "w1", 0.4), knows(smith, "w1", 0.8), knows(smith, "w2", 1)]);
    expect(facts.concerns).toBe(3);
    expect([...facts.rumours]).toEqual([
      ["w1", 0.8],
      ["w2", 1],
    ]);
    const calmed = fold([
      knows(smith, "w1", 0.9),
      knows(smith, "w1", 0.5),
      ev("NpcActivityChanged", 20, {
        npcId: smith,
        activity: "idle",
        locationId: ids.location("home"),
        destination: null,
        until: 80,
        taskId: null,
        attendingTo: [],
        holding: [],
        note: "",
      }),
    ]);
    expect(calmed.concerns).toBe(0);
    expect(calmed.rumours.get("w1" as never)).toBe(0.9);
  });

  it("hold its profile once generated, and its own regard for others (not theirs for it)", () => {
    const edge = (fromId: string, toId: string, trust: number) =>
      ev("RelationshipChanged", 10, {
        fromId,
        toId,
        trust,
        respect: 0,
        suspicion: 0,
        summary: "s",
        reason: "r",
      });
    const facts = fold([edge(smith, baker, 0.2), edge(baker, smith, -1), edge(smith, baker, 0.5)]);
    expect([...facts.regard]).toEqual([
      [baker, { trust: 0.5, respect: 0, suspicion: 0, summary: "s" }],
    ]);
    expect(facts.profile).toBeNull();
    const profile = { backstory: "b" };
    expect(fold([ev("ProfileGenerated", 10, { npcId: smith, profile })]).profile).toBe(profile);
  });

  it("hold the tasks assigned to it, counting a work session each time it stops working", () => {
    const proposed = ev("TaskProposed", 10, {
      taskId: "t1",
      title: "Fix the roof",
      description: "d",
      proposedBy: baker,
      assignee: smith,
      locationId: ids.location("home"),
      factionId: null,
      deadline: 500,
    });
    const activity = (activity: string, taskId: string | null) =>
      ev("NpcActivityChanged", 20, {
        npcId: smith,
        activity,
        locationId: ids.location("home"),
        destination: null,
        until: 80,
        taskId,
        attendingTo: [],
        holding: [],
        note: "",
      });
    const facts = emptyNpcFacts(smith);
    const events = [
      proposed,
      activity("working", "t1"),
      activity("idle", null),
      activity("working", null),
      activity("working", "t1"),
      activity("asleep", null),
      ev("TaskStatusChanged", 30, {
        taskId: "t1",
        from: "proposed",
        to: "active",
        reason: "r",
        by: null,
      }),
    ];
    for (const e of events)
      if (e.type.startsWith("Task") || concernedNpc(e) === smith) foldNpcFacts(facts, e);
    expect(facts.tasks.get("t1" as never)).toMatchObject({
      status: "active",
      sessions: 2,
      deadline: 500,
    });
    expect(facts.workingOn).toBeNull();
  });

  it("a task is held by its assignee if an NPC, else by the NPC who proposed it, else by none", () => {
    const npcs = new Set<string>([smith, baker]);
    const isNpc = (id: string) => npcs.has(id);
    const proposal = (proposedBy: string | null, assignee: string | null) =>
      ev("TaskProposed", 10, {
        taskId: "t",
        title: "x",
        description: "d",
        proposedBy,
        assignee,
        locationId: null,
        factionId: null,
        deadline: null,
      }) as Extract<Event, { type: "TaskProposed" }>;
    expect(taskHolder(proposal(baker, smith), isNpc)).toBe(smith);
    expect(taskHolder(proposal(baker, "player"), isNpc)).toBe(baker);
    expect(taskHolder(proposal(null, "player"), isNpc)).toBeNull();
    expect(taskHolder(proposal(null, null), isNpc)).toBeNull();
  });

  it("index exactly their open tasks, the very objects they hold, whatever the tasks' events", () => {
    const statuses: ReadonlyArray<TaskStatus> = [
      "proposed",
      "active",
      "completed",
      "failed",
      "expired",
      "cancelled",
      "rejected",
    ];
    const taskIds = ["t1", "t2", "t3", "t4"];
    const people = [smith, baker, null, "player"];
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("propose" as const),
        task: fc.constantFrom(...taskIds),
        by: fc.constantFrom(...people),
        to: fc.constantFrom(...people),
      }),
      fc.record({
        kind: fc.constant("status" as const),
        task: fc.constantFrom(...taskIds, "t9"),
        to: fc.constantFrom(...statuses),
      }),
      fc.record({ kind: fc.constant("move" as const), task: fc.constantFrom(...taskIds, "t9") }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const facts = emptyNpcFacts(smith);
        steps.forEach((s, i) => {
          const t = 10 + i;
          if (s.kind === "propose")
            foldNpcFacts(
              facts,
              ev("TaskProposed", t, {
                taskId: s.task,
                title: s.task,
                description: "d",
                proposedBy: s.by,
                assignee: s.to,
                locationId: null,
                factionId: null,
                deadline: 500,
              }),
            );
          else if (s.kind === "status")
            foldNpcFacts(
              facts,
              ev("TaskStatusChanged", t, {
                taskId: s.task,
                from: facts.tasks.get(s.task as never)?.status ?? "proposed",
                to: s.to,
                reason: "r",
                by: null,
              }),
            );
          else
            foldNpcFacts(
              facts,
              ev("TaskDeadlineMoved", t, {
                taskId: s.task,
                from: 500,
                to: 600 + t,
                askedBy: smith,
                agreedBy: baker,
                reason: "r",
              }),
            );
        });
        const open = [...facts.tasks.values()].filter((k) => isOpen(k.status));
        const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
        expect([...facts.open.values()].sort(byId)).toEqual(open.sort(byId));
        for (const [id, k] of facts.open) expect(facts.tasks.get(id)).toBe(k);
        expect(openTasksOf(facts)).toEqual(open.filter((k) => k.assignee === smith));
        expect(partyTasksOf(facts)).toEqual(
          open.filter((k) => k.assignee === smith || k.proposedBy === smith),
        );
      }),
    );
  });
});
