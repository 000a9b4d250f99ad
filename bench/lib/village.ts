/**
 * A seeded village for benchmarks: NPCs living through game days, one batch of events per
 * tick (game hour) with a realistic mix — clock, moves, activities, memories, talk with
 * its model calls, relationships, world events and their witnesses' knowledge, expiries,
 * tasks, a daily debate and checkpoint, and some lore at the start. Deterministic: the
 * same size gives the same events.
 */
import { type Event, type EventType, type GameTime, ids, makeEvent, Prng } from "@hearsay/core";

const LOCATIONS = 12;
/** The village's PRNG seed. */
export const VILLAGE_SEED = 2026;

const words =
  "storm mill harvest coin dragon oath bread bell river smith guard market tax feud well".split(
    " ",
  );

/** Builds the village's life as one batch of events per tick. */
/** Village size: NPCs and game days (one tick per game hour). */
export interface VillageSize {
  readonly npcs: number;
  readonly days: number;
}

/** The seeded village's events, one batch per tick. */
export const village = ({
  npcs: NPCS,
  days: DAYS,
}: VillageSize): ReadonlyArray<ReadonlyArray<Event>> => {
  let n = 0;
  const ticks: Array<Array<Event>> = [];
  let batch: Array<Event> = [];
  let t = 0;
  const push = (type: EventType, payload: object) => {
    batch.push(makeEvent(type, { id: ids.event(`e${++n}`), t: t as GameTime, payload } as never));
  };
  const rng = Prng.derive(VILLAGE_SEED, "eventlog-bench");
  const text = () => `${rng.pick(words)} ${rng.pick(words)} ${rng.pick(words)} ${rng.pick(words)}`;
  const npc = (i: number) => `npc-${i}`;
  const loc = (i: number) => `loc-${i}`;
  const where = Array.from({ length: NPCS }, (_, i) => i % LOCATIONS);
  const memories: Array<string> = [];
  const tasks: Array<{ id: string; status: "proposed" | "active" }> = [];

  push("SimulationStarted", {
    simulation: "bench-village",
    worldHash: "bench",
    seed: VILLAGE_SEED,
    campaignId: "bench",
    tickMinutes: 60,
    endDay: DAYS,
    brain: "scripted",
  });
  for (let i = 0; i < NPCS; i++) {
    push("NpcRegistered", {
      npcId: npc(i),
      name: `Villager ${i}`,
      role: rng.pick(["smith", "farmer", "guard", "miller"]),
      factionId: i % 4 === 0 ? null : `faction-${i % 3}`,
      locationId: loc(where[i]!),
      traits: [rng.pick(words)],
    });
  }
  for (let s = 0; s < 10; s++) {
    push("LoreImported", {
      sourceId: `lore-${s}`,
      path: `lore/${s}.md`,
      contentHash: `h${s}`,
      chunks: Array.from({ length: 10 }, (_, k) => ({
        chunkId: `lore-${s}#${k}`,
        headingPath: [`Part ${s}`],
        text: `${text()} ${text()}`,
        tags: [],
        entities: [rng.pick(words)],
      })),
    });
  }
  ticks.push(batch);

  for (let day = 0; day < DAYS; day++) {
    for (let hour = 0; hour < 24; hour++) {
      batch = [];
      const from = t;
      t += 60;
      push("ClockAdvanced", { from, to: t, mode: "tick" });
      for (let i = 0; i < NPCS; i++) {
        const r = rng.float();
        if (r < 0.04) {
          const to = (where[i]! + 1 + rng.int(0, LOCATIONS - 2)) % LOCATIONS;
          push("NpcMoved", { npcId: npc(i), from: loc(where[i]!), to: loc(to) });
          where[i] = to;
        } else if (r < 0.12) {
          push("NpcActivityChanged", {
            npcId: npc(i),
            activity: rng.pick(["idle", "working", "conversing", "asleep"]),
            locationId: loc(where[i]!),
            destination: null,
            until: t + 60 * rng.int(1, 4),
            taskId: null,
            attendingTo: [],
            holding: [],
            note: rng.pick(words),
          });
        } else if (r < 0.2) {
          const id = `m${n + 1}`;
          memories.push(id);
          push("MemoryRecorded", {
            memoryId: id,
            ownerNpcId: npc(i),
            text: text(),
            category: "observation",
            importance: rng.float(),
            expiresAt: rng.chance(0.5) ? t + 1440 * rng.int(1, 7) : null,
            locationId: loc(where[i]!),
            entities: [rng.pick(words)],
            about: null,
          });
        } else if (r < 0.24) {
          const other = rng.int(0, NPCS - 1);
          push("ConversationTurn", {
            conversationId: `c-${day}-${hour}-${i}`,
            turnIndex: 0,
            speakerId: npc(i),
            listenerIds: [npc(other)],
            locationId: loc(where[i]!),
            text: text(),
          });
          push("LlmCallRecorded", {
            callId: `call-${n + 1}`,
            npcId: npc(i),
            purpose: "decide",
            inputHash: `in-${n}`,
            brain: "scripted",
            model: "none",
            output: { say: text() },
            error: null,
            promptTokens: 400,
            outputTokens: 40,
            latencyMs: 0,
          });
          if (rng.chance(0.3)) {
            push("RelationshipChanged", {
              fromId: npc(i),
              toId: npc(other),
              trust: rng.float() * 2 - 1,
              respect: rng.float() * 2 - 1,
              suspicion: rng.float() * 2 - 1,
              summary: rng.pick(words),
            });
          }
        }
      }
      // A few happenings; everyone at the place witnesses each.
      for (let w = 0; w < 3; w++) {
        const at = rng.int(0, LOCATIONS - 1);
        const id = `we-${n + 1}`;
        push("WorldEventOccurred", {
          worldEventId: id,
          kind: rng.pick(["market", "storm", "theft", "feud"]),
          text: text(),
          locationId: loc(at),
          factionId: null,
          visibility: "local",
          importance: rng.float(),
          participants: [],
          entities: [rng.pick(words)],
        });
        for (let i = 0; i < NPCS; i++) {
          if (where[i] === at) {
            push("KnowledgeGained", {
              npcId: npc(i),
              itemKind: "world_event",
              itemId: id,
              via: "witnessed",
              fromNpcId: null,
              confidence: 1,
            });
          }
        }
      }
      if (memories.length > 50 && rng.chance(0.5)) {
        push("MemoryExpired", {
          memoryId: rng.pick(memories),
          ownerNpcId: npc(0),
          reason: "expired",
        });
      }
      if (rng.chance(0.2)) {
        const id = `task-${n + 1}`;
        tasks.push({ id, status: "proposed" });
        push("TaskProposed", {
          taskId: id,
          title: rng.pick(words),
          description: text(),
          proposedBy: npc(rng.int(0, NPCS - 1)),
          assignee: npc(rng.int(0, NPCS - 1)),
          locationId: null,
          factionId: null,
          deadline: t + 2880,
        });
      }
      const open = tasks.find((k) => k.status === "proposed");
      if (open && rng.chance(0.2)) {
        open.status = "active";
        push("TaskStatusChanged", { taskId: open.id, from: "proposed", to: "active", reason: "" });
      }
      ticks.push(batch);
    }
    // The day's debate and checkpoint close its last tick.
    const debate = `debate-${day}`;
    push("DebateHeld", {
      debateId: debate,
      topic: rng.pick(words),
      participants: [npc(1), npc(2), npc(3)],
      locationId: loc(0),
      factionId: null,
      summary: text(),
      outcome: text(),
    });
    push("Checkpoint", { throughSeq: n, stateHash: `day-${day}` });
  }
  return ticks;
};
