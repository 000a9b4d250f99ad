/**
 * Test worlds written through the store's event log (the log is the truth; nothing in
 * these tests writes a projection directly): a save, NPCs, memories with texts drawn
 * from a few topics, world events, knowledge facts.
 */
import { type EventType, type GameTime, ids, makeEvent, Prng, type SaveId } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import type { SaveView } from "../src/SaveView.ts";
import type { TurnList } from "../src/TurnRows.ts";

export const topics = [
  ["grain", "mill", "harvest", "flour", "cellar", "sacks"],
  ["storm", "river", "bridge", "flood", "rain", "boats"],
  ["sword", "forge", "iron", "anvil", "blade", "smith"],
  ["wedding", "feast", "bride", "song", "wine", "dance"],
  ["wolf", "sheep", "hills", "hunt", "bow", "tracks"],
];

let counter = 0;

/** An event with a fresh id. */
export const ev = <T extends EventType>(type: T, t: number, payload: Record<string, unknown>) =>
  makeEvent(type, { id: ids.event(`e${++counter}`), t: t as GameTime, payload } as never);

/** A sentence about one topic. */
/** A global rumour everyone may come to know, of middling importance, lapsing at `lapsesAt`. */
export const globalRumour = (id: string, t: number, text: string, lapsesAt: number | null = null) =>
  ev("WorldEventOccurred", t, {
    worldEventId: id,
    kind: "rumour",
    text,
    locationId: null,
    factionId: null,
    visibility: "global",
    importance: 0.5,
    participants: [],
    entities: [],
    lapsesAt,
  });

export const sentence = (p: Prng, topic: number): string => {
  const words = topics[topic % topics.length]!;
  const pick = () => words[p.int(0, words.length - 1)]!;
  return `The ${pick()} and the ${pick()} near the ${pick()} after the ${pick()}.`;
};

export interface TestWorld {
  readonly db: ReturnType<typeof openDatabase>;
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  append(events: ReadonlyArray<unknown>): void;
}

/** Opens a database (file or memory) with one empty save. */
export const openWorld = (path = ":memory:", saveId = "save-1"): TestWorld => {
  const db = openDatabase(path);
  const log = new SqliteEventLog(db);
  const save = ids.save(saveId);
  if (!log.saves().some((s) => s.saveId === save)) {
    log.createSave({ saveId: save, campaignId: ids.campaign("camp"), name: saveId });
  }
  return {
    db,
    log,
    saveId: save,
    append: (events) => {
      log.append(save, log.head(save), events);
    },
  };
};

/** `n` NPCs named npc-0…, in three places and two factions. */
export const npcEvents = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    ev("NpcRegistered", 0, {
      npcId: `npc-${i}`,
      name: `Name${i}`,
      role: "villager",
      factionId: i % 2 === 0 ? "guild" : null,
      locationId: ["square", "mill", "chapel"][i % 3],
      traits: [],
    }),
  );

/**
 * Memories spread over NPCs and topics, each also told to one other NPC; times rise
 * from `t0`. Returns the events.
 */
export const memoryEvents = (p: Prng, npcs: number, count: number, t0 = 10, prefix = "m") => {
  const out = [];
  for (let i = 0; i < count; i++) {
    const owner = p.int(0, npcs - 1);
    const t = t0 + i;
    out.push(
      ev("MemoryRecorded", t, {
        memoryId: `${prefix}${i}`,
        ownerNpcId: `npc-${owner}`,
        text: sentence(p, i),
        category: "observation",
        importance: p.float(),
        expiresAt: p.chance(0.2) ? t + p.int(1, 200) : null,
        locationId: ["square", "mill", "chapel"][p.int(0, 2)],
        entities: [`Name${p.int(0, npcs - 1)}`],
        about: null,
      }),
    );
    if (p.chance(0.5)) {
      out.push(
        ev("KnowledgeGained", t, {
          npcId: `npc-${p.int(0, npcs - 1)}`,
          itemKind: "memory",
          itemId: `${prefix}${i}`,
          via: "told",
          fromNpcId: `npc-${owner}`,
          confidence: 0.5,
        }),
      );
    }
  }
  return out;
};

/** An NPC's dialogue turns as plain records, oldest first, each with its kept row or none. */
export const turnEntries = (list: TurnList) =>
  Array.from({ length: list.length }, (_, i) => ({
    t: list.t(i),
    rowid: list.rowid(i),
    row: list.row(i),
  }));

/** Every NPC's dialogue turns as plain records: two views hold the same turns iff equal. */
export const viewTurns = (view: SaveView) =>
  new Map([...view.turns].map(([npc, list]) => [npc, turnEntries(list)]));

export { Prng };

/** A random unit vector of `d` dimensions, each component drawn uniform in [-1, 1] first. */
export const randomUnit = (p: Prng, d: number): Float32Array => {
  const v = new Float32Array(d);
  let n = 0;
  for (let i = 0; i < d; i++) {
    v[i] = p.float() * 2 - 1;
    n += v[i]! * v[i]!;
  }
  for (let i = 0; i < d; i++) v[i]! /= Math.sqrt(n);
  return v;
};
