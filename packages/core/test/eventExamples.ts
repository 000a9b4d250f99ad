/**
 * One valid event of every type in the catalogue, for the catalogue's tests: each
 * decodes to itself, and each is the starting point for the refusals those tests check.
 */
import {
  type Event,
  type EventOf,
  type EventType,
  eventTypes,
  gameTime,
  type HappeningId,
  ids,
  makeEvent,
  type SceneId,
  type ThreadId,
} from "@hearsay/core";

/** The time most examples happen at. */
export const t = gameTime(3, 14, 5);
const mara = ids.npc("npc-mara");
const tobias = ids.npc("npc-tobias");
const mill = ids.location("loc-mill");
const ford = ids.location("loc-ford");
const guild = ids.faction("faction-guild");

/** One valid event of every type; the mapped type makes a missing type a compile error. */
export const examples: { readonly [K in EventType]: EventOf<K> } = {
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
  ProfileRevised: makeEvent("ProfileRevised", {
    id: ids.event("ev-3b"),
    t: gameTime(3),
    payload: {
      npcId: mara,
      changes: { goals: ["keep the wheel turning", "see the bridge task through"] },
      triggers: ["task_completed"],
      reason: "finished mending the bridge",
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
      lapsesAt: null,
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
  MemoryReinforced: makeEvent("MemoryReinforced", {
    id: ids.event("ev-10r"),
    t: gameTime(6, 14, 5),
    payload: { ownerNpcId: mara, memories: [{ memoryId: ids.memory("mem-1"), importance: 0.5 }] },
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
    payload: {
      taskId: ids.task("task-7"),
      from: "proposed",
      to: "active",
      reason: "accepted",
      by: mara,
    },
  }),
  TaskDeadlineMoved: makeEvent("TaskDeadlineMoved", {
    id: ids.event("ev-12b"),
    t,
    payload: {
      taskId: ids.task("task-7"),
      from: gameTime(5),
      to: gameTime(7),
      askedBy: mara,
      agreedBy: tobias,
      reason: "The storm set the work back.",
    },
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
      reason: "He told the whole market what I said to him.",
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
      rejected: { answers: 1, promptTokens: 120, outputTokens: 30 },
      policy: { priority: "high", reason: "act is normal, principal NPC" },
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
  MaintenanceRan: makeEvent("MaintenanceRan", {
    id: ids.event("ev-maint-1"),
    t: gameTime(7, 4),
    payload: { job: "daily", day: 7, expired: 3, forgotten: 1, consolidated: 0 },
  }),
  MemoriesConsolidated: makeEvent("MemoriesConsolidated", {
    id: ids.event("ev-maint-2"),
    t: gameTime(7, 4),
    payload: {
      ownerNpcId: mara,
      memoryId: ids.memory("m-41"),
      about: { kind: "npc", id: "npc-oswin" },
      sources: [ids.memory("m-3"), ids.memory("m-9")],
    },
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
  NpcAgendaChanged: makeEvent("NpcAgendaChanged", {
    id: ids.event("ev-agenda-1"),
    t,
    payload: {
      npcId: mara,
      plannedAt: t,
      steps: [
        { action: "move", to: ford, reason: "To see the ford for myself." },
        {
          action: "speak",
          to: tobias,
          text: "The ford is holding.",
          memories: [
            {
              text: "I told Tobias the ford holds.",
              category: "conversation",
              importance: 0.3,
              lifetime: "1d",
            },
          ],
        },
        { action: "rest", hours: 2 },
      ],
    },
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

/** The examples, in catalogue order. */
export const allExamples: ReadonlyArray<Event> = eventTypes.map((type) => examples[type]);
