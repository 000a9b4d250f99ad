import { type EventType, type GameTime, makeEvent } from "@hearsay/core";
import { describe, expect, it } from "vitest";
import { checkFts, freshStore, newSave } from "./harness.ts";

/** Hand-written events: the fold rules, one by one, with the rows they must leave. */
let n = 0;
const ev = (type: EventType, t: number, payload: object) =>
  makeEvent(type, { id: `e${++n}`, t: t as GameTime, payload } as never);

const setup = () => {
  const { db, log } = freshStore();
  newSave(log, "s");
  const add = (...events: Array<unknown>) => log.append("s", log.head("s"), events);
  const rows = (sql: string) => db.prepare(sql).all();
  const fts = (table: string, q: string) =>
    db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(q);
  return { db, log, add, rows, fts };
};

const npc = (id: string, loc = "square") =>
  ev("NpcRegistered", 0, {
    npcId: id,
    name: id,
    role: "smith",
    factionId: null,
    locationId: loc,
    traits: [],
  } as never);

describe("the projector's fold rules", () => {
  it("world_state follows SimulationStarted, ClockAdvanced, Checkpoint and RunResumed", () => {
    const { add, rows } = setup();
    add(
      ev("SimulationStarted", 0, {
        simulation: "village",
        worldHash: "wh",
        seed: 9,
        campaignId: "campaign-1",
        tickMinutes: 60,
        endDay: 3,
        brain: "scripted",
      }),
      ev("ClockAdvanced", 60, { from: 0, to: 60, mode: "tick" }),
      ev("Checkpoint", 60, { throughSeq: 2, stateHash: "x" }),
      ev("ClockAdvanced", 180, { from: 60, to: 180, mode: "jump" }),
      ev("RunResumed", 180, { seed: 11, brain: "ollama", endDay: 7 }),
    );
    expect(
      rows("SELECT simulation, seed, brain, end_day, t, last_checkpoint_seq FROM world_state"),
    ).toEqual([
      {
        simulation: "village",
        seed: 11,
        brain: "ollama",
        end_day: 7,
        t: 180,
        last_checkpoint_seq: 3,
      },
    ]);
  });

  it("characters: registered, moved; activity upserted; profile stored", () => {
    const { add, rows } = setup();
    add(
      npc("ada"),
      ev("NpcMoved", 5, { npcId: "ada", from: "square", to: "mill" }),
      ev("NpcActivityChanged", 6, {
        npcId: "ada",
        activity: "working",
        locationId: "mill",
        destination: null,
        until: 60,
        taskId: null,
        attendingTo: [],
        holding: ["flour"],
        note: "grinding",
      }),
      ev("NpcActivityChanged", 7, {
        npcId: "ada",
        activity: "idle",
        locationId: "mill",
        destination: null,
        until: null,
        taskId: null,
        attendingTo: [],
        holding: [],
        note: "",
      }),
      ev("ProfileGenerated", 8, {
        npcId: "ada",
        profile: {
          backstory: "b",
          personality: "p",
          speechStyle: "s",
          goals: [],
          fears: [],
          loyalties: [],
          relationshipSeed: "r",
        },
      }),
    );
    expect(rows("SELECT npc_id, location_id, registered_at FROM characters")).toEqual([
      { npc_id: "ada", location_id: "mill", registered_at: 0 },
    ]);
    expect(rows("SELECT activity, until, holding, t FROM npc_activity")).toEqual([
      { activity: "idle", until: null, holding: "[]", t: 7 },
    ]);
    expect(rows("SELECT npc_id, generated_at FROM npc_profiles")).toEqual([
      { npc_id: "ada", generated_at: 8 },
    ]);
  });

  it("knowledge: the earliest fact wins; a memory gives its owner knowledge; expiry is recorded once", () => {
    const { add, rows } = setup();
    add(
      ev("KnowledgeGained", 10, {
        npcId: "ada",
        itemKind: "world_event",
        itemId: "w1",
        via: "rumor",
        fromNpcId: "bram",
        confidence: 0.5,
      }),
      ev("KnowledgeGained", 10, {
        npcId: "ada",
        itemKind: "world_event",
        itemId: "w1",
        via: "told",
        fromNpcId: null,
        confidence: 1,
      }),
      ev("KnowledgeGained", 20, {
        npcId: "ada",
        itemKind: "world_event",
        itemId: "w1",
        via: "witnessed",
        fromNpcId: null,
        confidence: 1,
      }),
      ev("MemoryRecorded", 30, {
        memoryId: "m1",
        ownerNpcId: "ada",
        text: "the bell rang",
        category: "observation",
        importance: 0.5,
        expiresAt: 100,
        locationId: null,
        entities: ["bell"],
        about: { kind: "world_event", id: "w1" },
      }),
      ev("MemoryRecorded", 31, {
        memoryId: "m1",
        ownerNpcId: "bram",
        text: "other",
        category: "observation",
        importance: 1,
        expiresAt: null,
        locationId: null,
        entities: [],
        about: null,
      }),
      ev("MemoryExpired", 40, { memoryId: "m1", ownerNpcId: "ada", reason: "forgotten" }),
      ev("MemoryExpired", 50, { memoryId: "m1", ownerNpcId: "ada", reason: "expired" }),
    );
    expect(
      rows(
        "SELECT npc_id, item_kind, item_id, t, via, from_npc_id, confidence FROM knowledge ORDER BY item_kind",
      ),
    ).toEqual([
      {
        npc_id: "ada",
        item_kind: "memory",
        item_id: "m1",
        t: 30,
        via: "owner",
        from_npc_id: null,
        confidence: 1,
      },
      {
        npc_id: "ada",
        item_kind: "world_event",
        item_id: "w1",
        t: 10,
        via: "rumor",
        from_npc_id: "bram",
        confidence: 0.5,
      },
    ]);
    expect(
      rows(
        "SELECT owner_npc_id, text, expires_at, gone_at, gone_reason, about_kind, about_id FROM memories",
      ),
    ).toEqual([
      {
        owner_npc_id: "ada",
        text: "the bell rang",
        expires_at: 100,
        gone_at: 40,
        gone_reason: "forgotten",
        about_kind: "world_event",
        about_id: "w1",
      },
    ]);
  });

  it("tasks change status; relationships are directed edges", () => {
    const { add, rows } = setup();
    add(
      ev("TaskProposed", 1, {
        taskId: "t1",
        title: "fetch",
        description: "d",
        proposedBy: "ada",
        assignee: "bram",
        locationId: null,
        factionId: null,
        deadline: 500,
      }),
      ev("TaskStatusChanged", 2, {
        taskId: "t1",
        from: "proposed",
        to: "active",
        reason: "agreed",
        by: "bram",
      }),
      ev("RelationshipChanged", 3, {
        fromId: "ada",
        toId: "bram",
        trust: 0.5,
        respect: 0,
        suspicion: -0.5,
        summary: "friend",
        reason: "shared a meal",
      }),
      ev("RelationshipChanged", 4, {
        fromId: "ada",
        toId: "bram",
        trust: -1,
        respect: 1,
        suspicion: 1,
        summary: "betrayed",
        reason: "sold the mill to the watch",
      }),
      ev("RelationshipChanged", 5, {
        fromId: "bram",
        toId: "ada",
        trust: 1,
        respect: 1,
        suspicion: 0,
        summary: "unaware",
        reason: "nothing seen amiss",
      }),
      ev("TaskDeadlineMoved", 6, {
        taskId: "t1",
        from: 500,
        to: 2000,
        askedBy: "bram",
        agreedBy: "ada",
        reason: "the storm",
      }),
    );
    // A moved deadline replaces the old one; the status stays.
    expect(
      rows("SELECT task_id, status, reason, proposed_at, updated_at, deadline FROM tasks"),
    ).toEqual([
      {
        task_id: "t1",
        status: "active",
        reason: "the storm",
        proposed_at: 1,
        updated_at: 6,
        deadline: 2000,
      },
    ]);
    expect(
      rows("SELECT from_id, to_id, trust, summary, updated_at FROM relationships ORDER BY from_id"),
    ).toEqual([
      { from_id: "ada", to_id: "bram", trust: -1, summary: "betrayed", updated_at: 4 },
      { from_id: "bram", to_id: "ada", trust: 1, summary: "unaware", updated_at: 5 },
    ]);
  });

  it("conversations: turns kept, summaries upserted with their FTS entry replaced", () => {
    const { db, add, rows, fts } = setup();
    add(
      ev("ConversationTurn", 1, {
        conversationId: "c1",
        turnIndex: 0,
        speakerId: "ada",
        listenerIds: ["bram"],
        locationId: null,
        text: "hello",
      }),
      ev("ConversationSummarized", 2, {
        conversationId: "c1",
        npcId: "ada",
        partnerId: "bram",
        throughTurn: 0,
        summary: "talked about turnips",
      }),
      ev("ConversationSummarized", 3, {
        conversationId: "c1",
        npcId: "ada",
        partnerId: "bram",
        throughTurn: 1,
        summary: "argued about weather",
      }),
    );
    expect(rows("SELECT turn_index, speaker_id, listener_ids FROM conversation_turns")).toEqual([
      { turn_index: 0, speaker_id: "ada", listener_ids: '["bram"]' },
    ]);
    expect(rows("SELECT through_turn, summary, t FROM conversation_summaries")).toEqual([
      { through_turn: 1, summary: "argued about weather", t: 3 },
    ]);
    expect(fts("conversation_summaries_fts", "turnips")).toEqual([]);
    expect(fts("conversation_summaries_fts", "weather")).toHaveLength(1);
    checkFts(db);
  });

  it("lore: a re-import replaces that source's chunks (and their FTS entries) only", () => {
    const { db, add, rows, fts } = setup();
    const chunk = (id: string, text: string) => ({
      chunkId: id,
      headingPath: ["h"],
      text,
      tags: [],
      entities: [],
    });
    add(
      ev("LoreImported", 1, {
        sourceId: "a",
        path: "lore/a.md",
        contentHash: "1",
        chunks: [chunk("a#1", "ancient dragons"), chunk("a#2", "old mills")],
      }),
      ev("LoreImported", 1, {
        sourceId: "b",
        path: "lore/b.md",
        contentHash: "1",
        chunks: [chunk("b#1", "river gods")],
      }),
      ev("LoreImported", 2, {
        sourceId: "a",
        path: "lore/a.md",
        contentHash: "2",
        chunks: [chunk("a#9", "new harbour")],
      }),
    );
    expect(
      rows(
        "SELECT source_id, content_hash, chunk_count, imported_at FROM lore_sources ORDER BY source_id",
      ),
    ).toEqual([
      { source_id: "a", content_hash: "2", chunk_count: 1, imported_at: 2 },
      { source_id: "b", content_hash: "1", chunk_count: 1, imported_at: 1 },
    ]);
    expect(rows("SELECT chunk_id, ord FROM lore_chunks ORDER BY chunk_id")).toEqual([
      { chunk_id: "a#9", ord: 0 },
      { chunk_id: "b#1", ord: 0 },
    ]);
    expect(fts("lore_chunks_fts", "dragons")).toEqual([]);
    expect(fts("lore_chunks_fts", "harbour")).toHaveLength(1);
    expect(fts("lore_chunks_fts", "river")).toHaveLength(1);
    checkFts(db);
  });

  it("world events, debates, llm calls and warnings are recorded once with their seq", () => {
    const { add, rows, fts } = setup();
    add(
      ev("WorldEventOccurred", 1, {
        worldEventId: "w1",
        kind: "storm",
        text: "a great storm",
        locationId: "square",
        factionId: null,
        visibility: "local",
        importance: 0.9,
        participants: [],
        entities: ["storm"],
        lapsesAt: 600,
      }),
      ev("WorldEventOccurred", 2, {
        worldEventId: "w1",
        kind: "storm",
        text: "a second telling",
        locationId: "square",
        factionId: null,
        visibility: "local",
        importance: 0.1,
        participants: [],
        entities: [],
        lapsesAt: null,
      }),
      ev("DebateHeld", 3, {
        debateId: "d1",
        topic: "taxes",
        participants: ["ada"],
        locationId: null,
        factionId: null,
        summary: "s",
        outcome: "o",
      }),
      ev("LlmCallRecorded", 4, {
        callId: "c1",
        npcId: null,
        purpose: "decide",
        inputHash: "ih",
        brain: "scripted",
        model: "m",
        output: { a: 1 },
        error: null,
        promptTokens: 3,
        outputTokens: 4,
        latencyMs: 1.5,
        rejected: { answers: 1, promptTokens: 10, outputTokens: 20 },
        policy: null,
      }),
      ev("SimulationWarning", 5, { code: "slow", message: "slow model", npcId: null }),
    );
    // The first record wins, its lapse with it.
    expect(rows("SELECT world_event_id, text, importance, lapses_at FROM world_events")).toEqual([
      { world_event_id: "w1", text: "a great storm", importance: 0.9, lapses_at: 600 },
    ]);
    expect(fts("world_events_fts", "storm")).toHaveLength(1);
    expect(fts("background_debates_fts", "taxes")).toHaveLength(1);
    // A call's tokens are all it sent: the refused answers' requests included.
    expect(
      rows(
        "SELECT call_id, seq, input_hash, latency_ms, prompt_tokens, output_tokens FROM llm_calls",
      ),
    ).toEqual([
      {
        call_id: "c1",
        seq: 4,
        input_hash: "ih",
        latency_ms: 1.5,
        prompt_tokens: 13,
        output_tokens: 24,
      },
    ]);
    expect(rows("SELECT seq, code FROM warnings")).toEqual([{ seq: 5, code: "slow" }]);
  });
});
