/**
 * The event catalogue: every type has a valid example that decodes to itself, and what
 * does not fit is refused with a message naming the bad field, so a bad line in an
 * import or an old database can be found and fixed.
 */
import {
  decodeEvent,
  decodeEventExit,
  type Event,
  type EventOf,
  type EventType,
  eventTypes,
  gameTime,
  type HappeningId,
  ItemKind,
  ids,
  MemoryCategory,
  makeEvent,
  type SceneId,
  type ThreadId,
  Via,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

const t = gameTime(3, 14, 5);
const mara = ids.npc("npc-mara");
const tobias = ids.npc("npc-tobias");
const mill = ids.location("loc-mill");
const ford = ids.location("loc-ford");
const guild = ids.faction("faction-guild");

/** One valid event of every type; the mapped type makes a missing type a compile error. */
const examples: { readonly [K in EventType]: EventOf<K> } = {
  SimulationStarted: makeEvent("SimulationStarted", {
    id: ids.event("ev-1"),
    t: gameTime(0),
    payload: {
      simulation: "eastford",
      worldHash: "a".repeat(64),
      seed: 42,
      campaignId: ids.campaign("camp-1"),
      tickMinutes: 15,
      endDay: 7,
      brain: "scripted",
    },
  }),
  NpcRegistered: makeEvent("NpcRegistered", {
    id: ids.event("ev-2"),
    t: gameTime(0),
    payload: {
      npcId: mara,
      name: "Mara",
      role: "miller",
      factionId: guild,
      locationId: mill,
      traits: ["patient", "stubborn"],
    },
  }),
  ProfileGenerated: makeEvent("ProfileGenerated", {
    id: ids.event("ev-3"),
    t: gameTime(0, 1),
    payload: {
      npcId: mara,
      profile: {
        backstory: "Kept the mill since her grandmother died.",
        personality: "patient, proud",
        speechStyle: "short sentences",
        goals: ["keep the wheel turning"],
        fears: ["the spring flood"],
        loyalties: ["the guild"],
        relationshipSeed: "wary of gossips",
      },
    },
  }),
  ClockAdvanced: makeEvent("ClockAdvanced", {
    id: ids.event("ev-4"),
    t,
    payload: { from: gameTime(3, 14), to: t, mode: "tick" },
  }),
  NpcMoved: makeEvent("NpcMoved", {
    id: ids.event("ev-5"),
    t,
    payload: { npcId: mara, from: mill, to: ford },
  }),
  NpcActivityChanged: makeEvent("NpcActivityChanged", {
    id: ids.event("ev-6"),
    t,
    payload: {
      npcId: mara,
      activity: "travelling",
      locationId: mill,
      destination: ford,
      until: gameTime(3, 15),
      taskId: ids.task("task-7"),
      attendingTo: [],
      holding: ["sack of flour"],
      note: "off to the ford",
    },
  }),
  WorldEventOccurred: makeEvent("WorldEventOccurred", {
    id: ids.event("ev-7"),
    t,
    payload: {
      worldEventId: ids.worldEvent("we-1"),
      kind: "storm",
      text: "A storm washed the bridge away.",
      locationId: ford,
      factionId: null,
      visibility: "local",
      importance: 0.8,
      participants: [tobias],
      entities: ["bridge"],
    },
  }),
  KnowledgeGained: makeEvent("KnowledgeGained", {
    id: ids.event("ev-8"),
    t,
    payload: {
      npcId: mara,
      itemKind: "world_event",
      itemId: "we-1",
      via: "rumor",
      fromNpcId: tobias,
      confidence: 0.6,
    },
  }),
  MemoryRecorded: makeEvent("MemoryRecorded", {
    id: ids.event("ev-9"),
    t,
    payload: {
      memoryId: ids.memory("mem-1"),
      ownerNpcId: mara,
      text: "Tobias says the bridge is gone.",
      category: "observation",
      importance: 0.5,
      expiresAt: gameTime(6, 14, 5),
      locationId: mill,
      entities: ["Tobias", "bridge"],
      about: { kind: "world_event", id: "we-1" },
    },
  }),
  MemoryExpired: makeEvent("MemoryExpired", {
    id: ids.event("ev-10"),
    t: gameTime(6, 14, 5),
    payload: { memoryId: ids.memory("mem-1"), ownerNpcId: mara, reason: "expired" },
  }),
  TaskProposed: makeEvent("TaskProposed", {
    id: ids.event("ev-11"),
    t,
    payload: {
      taskId: ids.task("task-7"),
      title: "Repair the sluice",
      description: "The sluice gate is jammed with debris from the storm.",
      proposedBy: tobias,
      assignee: mara,
      locationId: mill,
      factionId: null,
      deadline: gameTime(5),
    },
  }),
  TaskStatusChanged: makeEvent("TaskStatusChanged", {
    id: ids.event("ev-12"),
    t,
    payload: { taskId: ids.task("task-7"), from: "proposed", to: "active", reason: "accepted" },
  }),
  DebateHeld: makeEvent("DebateHeld", {
    id: ids.event("ev-13"),
    t,
    payload: {
      debateId: ids.debate("deb-1"),
      topic: "Who pays for the bridge?",
      participants: [mara, tobias],
      locationId: mill,
      factionId: guild,
      summary: "They argued about the toll.",
      outcome: "The guild pays half.",
    },
  }),
  ConversationTurn: makeEvent("ConversationTurn", {
    id: ids.event("ev-14"),
    t,
    payload: {
      conversationId: ids.conversation("conv-1"),
      turnIndex: 0,
      speakerId: tobias,
      listenerIds: [mara],
      locationId: mill,
      text: "Did you hear about the bridge?",
    },
  }),
  ConversationSummarized: makeEvent("ConversationSummarized", {
    id: ids.event("ev-15"),
    t,
    payload: {
      conversationId: ids.conversation("conv-1"),
      npcId: mara,
      partnerId: tobias,
      throughTurn: 3,
      summary: "Tobias gossiped about the bridge.",
    },
  }),
  RelationshipChanged: makeEvent("RelationshipChanged", {
    id: ids.event("ev-16"),
    t,
    payload: {
      fromId: mara,
      toId: tobias,
      trust: 0.2,
      respect: -0.1,
      suspicion: 0.4,
      summary: "He talks too much.",
    },
  }),
  LlmCallRecorded: makeEvent("LlmCallRecorded", {
    id: ids.event("ev-17"),
    t,
    payload: {
      callId: ids.llmCall("call-1"),
      npcId: mara,
      purpose: "decide",
      inputHash: "b".repeat(64),
      brain: "ollama",
      model: "llama3.2:3b",
      output: { action: "say", text: "Hm.", nested: [1, null, true] },
      error: null,
      promptTokens: 812,
      outputTokens: 24,
      latencyMs: 431.5,
    },
  }),
  LoreImported: makeEvent("LoreImported", {
    id: ids.event("ev-18"),
    t: gameTime(0),
    payload: {
      sourceId: ids.loreSource("lore-eastford"),
      path: "lore/eastford.md",
      contentHash: "c".repeat(64),
      chunks: [
        {
          chunkId: ids.loreChunk("lore-eastford#1"),
          headingPath: ["Eastford", "The mill"],
          text: "The mill has stood for three generations.",
          tags: ["place"],
          entities: ["Eastford"],
        },
      ],
    },
  }),
  Checkpoint: makeEvent("Checkpoint", {
    id: ids.event("ev-19"),
    t,
    payload: { throughSeq: 118, stateHash: "d".repeat(64) },
  }),
  RunResumed: makeEvent("RunResumed", {
    id: ids.event("ev-21"),
    t: gameTime(7),
    payload: { seed: 43, brain: "ollama", endDay: 14 },
  }),
  PlayerInput: makeEvent("PlayerInput", {
    id: ids.event("ev-22"),
    t,
    payload: {
      input: {
        kind: "turn",
        npcId: mara,
        conversationId: null,
        message: "I promise I'll defend the ford.",
        scene: "rain at the ford",
        end: false,
      },
      talk: {
        brain: "scripted",
        recorded: false,
        playerName: "the player",
        digestEvery: 4,
        recentTurns: 6,
        checkpointEveryTicks: 24,
      },
      events: 5,
    },
  }),
  SceneOpened: makeEvent("SceneOpened", {
    id: ids.event("ev-scene-1"),
    t,
    payload: {
      sceneId: "scene-1" as SceneId,
      locationId: mill,
      participants: [mara, tobias],
      cause: "conversation",
    },
  }),
  SceneClosed: makeEvent("SceneClosed", {
    id: ids.event("ev-scene-2"),
    t,
    payload: {
      sceneId: "scene-1" as SceneId,
      locationId: mill,
      participants: [mara, tobias],
      leavers: [tobias],
      reason: "left",
      fromSeq: 10,
      throughSeq: 14,
    },
  }),
  SummaryCursorAdvanced: makeEvent("SummaryCursorAdvanced", {
    id: ids.event("ev-scene-3"),
    t,
    payload: { scope: "npc", scopeId: mara, throughSeq: 14 },
  }),
  ThreadOpened: makeEvent("ThreadOpened", {
    id: ids.event("ev-thread-1"),
    t,
    payload: {
      threadId: "thread-ford-promise" as ThreadId,
      kind: "promise",
      text: "Mara promised Tobias she would defend the ford.",
      npcIds: [mara, tobias],
      source: { kind: "conversation", id: "conv-1" },
    },
  }),
  ThreadClosed: makeEvent("ThreadClosed", {
    id: ids.event("ev-thread-2"),
    t,
    payload: {
      threadId: "thread-ford-promise" as ThreadId,
      outcome: "dropped",
      reason: "not mentioned for 21 days",
    },
  }),
  HappeningPlanned: makeEvent("HappeningPlanned", {
    id: ids.event("ev-happening-1"),
    t: gameTime(0),
    payload: {
      happeningId: "harvest-feast" as HappeningId,
      name: "The Harvest Feast",
      kind: "feast",
      description: "Long tables at the mill.",
      locationId: mill,
      factionId: guild,
      hostId: mara,
      visibility: "local",
      startsAt: gameTime(3, 18),
      endsAt: gameTime(3, 22),
    },
  }),
  HappeningStatusChanged: makeEvent("HappeningStatusChanged", {
    id: ids.event("ev-happening-2"),
    t,
    payload: {
      happeningId: "harvest-feast" as HappeningId,
      from: "planned",
      to: "active",
      reason: "everyone it needs is there",
      attendees: [mara, tobias],
    },
  }),
  PropIntroduced: makeEvent("PropIntroduced", {
    id: ids.event("ev-happening-3"),
    t,
    payload: {
      happeningId: "harvest-feast" as HappeningId,
      propId: "roast-boar",
      name: "the roast boar",
      description: "A whole boar on a spit.",
      acquirable: false,
    },
  }),
  PropAcquired: makeEvent("PropAcquired", {
    id: ids.event("ev-happening-4"),
    t,
    payload: { happeningId: "harvest-feast" as HappeningId, propId: "roast-boar", npcId: tobias },
  }),
  SimulationWarning: makeEvent("SimulationWarning", {
    id: ids.event("ev-20"),
    t,
    payload: {
      code: "brain_fallback",
      message: "ollama timed out; scripted answered",
      npcId: mara,
    },
  }),
};

const allExamples: ReadonlyArray<Event> = eventTypes.map((type) => examples[type]);

/** Stands for "no such field" in `withField`. */
const absent = Symbol("absent");

/** A deep copy of `e` with the field at `path` set to `value`, or removed when it is `absent`. */
const withField = (e: Event, path: ReadonlyArray<string | number>, value: unknown): unknown => {
  const copy = structuredClone(e) as unknown as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === absent) delete at[last];
  else at[last] = value;
  return copy;
};

/** The message `decodeEvent` throws for `input`, or undefined when it decodes. */
const rejection = (input: unknown): string | undefined => {
  try {
    decodeEvent(input);
    return undefined;
  } catch (e) {
    return String((e as Error).message);
  }
};

describe("event catalogue", () => {
  it("lists each event type once, and the examples cover exactly the catalogue", () => {
    expect(new Set(eventTypes).size).toBe(eventTypes.length);
    expect(eventTypes.length).toBeGreaterThan(0);
    expect(Object.keys(examples).sort()).toEqual([...eventTypes].sort());
  });

  it.each(eventTypes)("a %s example decodes to itself, also after a JSON round trip", (type) => {
    const e = examples[type];
    expect(e.type).toBe(type);
    expect(e.version).toBe(1);
    expect(decodeEvent(e)).toEqual(e);
    expect(decodeEvent(JSON.parse(JSON.stringify(e)))).toEqual(e);
    expect(decodeEventExit(e)._tag).toBe("Success");
  });
});

describe("decodeEvent refuses what does not fit, naming the field", () => {
  /**
   * For every event type and every defect `cases` makes of its example, the ones that were
   * accepted or whose message does not name `path`, as "Type: defect → message".
   */
  const misses = (
    cases: (e: Event) => ReadonlyArray<readonly [defect: string, input: unknown, path: string]>,
  ): Array<string> =>
    allExamples.flatMap((e) =>
      cases(e).flatMap(([defect, input, path]) => {
        const msg = rejection(input);
        return msg?.includes(path)
          ? []
          : [`${e.type}: ${defect} → ${msg?.slice(0, 60) ?? "accepted"}`];
      }),
    );

  it("an unknown type tag is refused, naming `type`", () => {
    expect(
      misses((e) => [
        ["typo", withField(e, ["type"], `${e.type}Typo`), '["type"]'],
        ["lower case", withField(e, ["type"], e.type.toLowerCase()), '["type"]'],
        ["missing", withField(e, ["type"], absent), '["type"]'],
      ]),
    ).toEqual([]);
    expect(decodeEventExit(withField(examples.NpcMoved, ["type"], "Nope"))._tag).toBe("Failure");
  });

  it("another version is refused, naming `version`", () => {
    expect(
      misses((e) =>
        [0, 2, "1", null].map(
          (v) =>
            [`version ${JSON.stringify(v)}`, withField(e, ["version"], v), '["version"]'] as const,
        ),
      ),
    ).toEqual([]);
    expect(decodeEventExit(withField(examples.NpcMoved, ["version"], 2))._tag).toBe("Failure");
  });

  it("a missing payload field is refused, naming `payload.<field>`, for every field of every type", () => {
    for (const e of allExamples) expect(Object.keys(e.payload).length, e.type).toBeGreaterThan(0);
    expect(
      misses((e) =>
        Object.keys(e.payload).map(
          (field) =>
            [
              `no ${field}`,
              withField(e, ["payload", field], absent),
              `["payload"]["${field}"]`,
            ] as const,
        ),
      ),
    ).toEqual([]);
  });

  it("an empty id is refused, naming `id`", () => {
    expect(misses((e) => [["empty id", withField(e, ["id"], ""), '["id"]']])).toEqual([]);
  });

  it("a negative, fractional or non-numeric time is refused, naming `t`", () => {
    expect(
      misses((e) =>
        [-1, -1440, 0.5, Number.NaN, "10"].map(
          (bad) => [`t ${String(bad)}`, withField(e, ["t"], bad), '["t"]'] as const,
        ),
      ),
    ).toEqual([]);
  });

  it("missing envelope fields are named", () => {
    for (const field of ["id", "t", "payload"]) {
      const msg = rejection(withField(examples.NpcMoved, [field], absent));
      expect(msg, field).toBeDefined();
      expect(msg, field).toContain(`["${field}"]`);
    }
  });

  it("non-objects are refused", () => {
    for (const bad of [null, undefined, 3, "NpcMoved", [examples.NpcMoved]]) {
      expect(rejection(bad), String(bad)).toBeDefined();
    }
  });

  it("a nested field is named by its full path", () => {
    const msg = rejection(withField(examples.LoreImported, ["payload", "chunks", 0, "text"], 7));
    expect(msg).toContain('["payload"]["chunks"][0]["text"]');
    const long = rejection(
      withField(examples.MemoryRecorded, ["payload", "text"], "x".repeat(20_001)),
    );
    expect(long).toContain('["payload"]["text"]');
  });

  /** Every 0..1 field in the catalogue: importance and confidence. */
  const unitFields: ReadonlyArray<readonly [EventType, string]> = [
    ["WorldEventOccurred", "importance"],
    ["MemoryRecorded", "importance"],
    ["KnowledgeGained", "confidence"],
  ];

  it.each(unitFields)("property: %s.%s decodes exactly when it is within 0..1", (type, field) => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double(),
          fc.double({ min: -0.5, max: 1.5 }),
          fc.constantFrom(0, 1, -0, 1 + 2 ** -52),
        ),
        (x) => {
          const msg = rejection(withField(examples[type], ["payload", field], x));
          if (x >= 0 && x <= 1) expect(msg).toBeUndefined();
          else expect(msg).toContain(`["payload"]["${field}"]`);
        },
      ),
      runs(150),
    );
  });

  it("relationship levels must stay within -1..1", () => {
    for (const field of ["trust", "respect", "suspicion"]) {
      for (const [x, ok] of [
        [-1, true],
        [1, true],
        [-1.01, false],
        [1.01, false],
      ] as const) {
        const msg = rejection(withField(examples.RelationshipChanged, ["payload", field], x));
        if (ok) expect(msg, `${field}=${x}`).toBeUndefined();
        else expect(msg, `${field}=${x}`).toContain(`["payload"]["${field}"]`);
      }
    }
  });
});

describe("makeEvent", () => {
  it("stamps the type and the current version", () => {
    const e = makeEvent("NpcMoved", { id: ids.event("x"), t, payload: examples.NpcMoved.payload });
    expect(e.type).toBe("NpcMoved");
    expect(e.version).toBe(1);
  });

  const arbId = fc.string({ minLength: 1, maxLength: 40 });
  const arbT = fc.integer({ min: 0, max: 10_000_000 });
  const arbUnit = fc.double({ min: 0, max: 1, noNaN: true });

  it("property: KnowledgeGained built by makeEvent decodes to itself", () => {
    fc.assert(
      fc.property(
        fc.record({
          id: arbId,
          t: arbT,
          npcId: arbId,
          itemKind: fc.constantFrom(...ItemKind.literals),
          itemId: fc.string({ maxLength: 40 }),
          via: fc.constantFrom(...Via.literals),
          fromNpcId: fc.option(arbId, { nil: null }),
          confidence: arbUnit,
        }),
        (r) => {
          const e = makeEvent("KnowledgeGained", {
            id: ids.event(r.id),
            t: r.t as typeof t,
            payload: {
              npcId: ids.npc(r.npcId),
              itemKind: r.itemKind,
              itemId: r.itemId,
              via: r.via,
              fromNpcId: r.fromNpcId === null ? null : ids.npc(r.fromNpcId),
              confidence: r.confidence,
            },
          });
          expect(decodeEvent(e)).toEqual(e);
        },
      ),
      runs(150),
    );
  });

  it("property: MemoryRecorded built by makeEvent decodes to itself", () => {
    fc.assert(
      fc.property(
        fc.record({
          id: arbId,
          t: arbT,
          memoryId: arbId,
          owner: arbId,
          text: fc.string({ maxLength: 200 }),
          category: fc.constantFrom(...MemoryCategory.literals),
          importance: arbUnit,
          expiresAt: fc.option(arbT, { nil: null }),
          locationId: fc.option(arbId, { nil: null }),
          entities: fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 }),
          about: fc.option(fc.record({ kind: fc.string(), id: fc.string() }), { nil: null }),
        }),
        (r) => {
          const e = makeEvent("MemoryRecorded", {
            id: ids.event(r.id),
            t: r.t as typeof t,
            payload: {
              memoryId: ids.memory(r.memoryId),
              ownerNpcId: ids.npc(r.owner),
              text: r.text,
              category: r.category,
              importance: r.importance,
              expiresAt: r.expiresAt === null ? null : (r.expiresAt as typeof t),
              locationId: r.locationId === null ? null : ids.location(r.locationId),
              entities: r.entities,
              about: r.about,
            },
          });
          expect(decodeEvent(e)).toEqual(e);
        },
      ),
      runs(150),
    );
  });

  it("property: every example rebuilt by makeEvent with a random id and time decodes", () => {
    fc.assert(
      fc.property(fc.constantFrom(...eventTypes), arbId, arbT, (type, id, at) => {
        const { payload } = examples[type];
        const e = makeEvent(type, { id: ids.event(id), t: at as typeof t, payload } as never);
        expect(decodeEvent(e)).toEqual(e);
      }),
      runs(150),
    );
  });
});
