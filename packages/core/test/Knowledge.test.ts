/**
 * Who knows what. The ledger is checked against a brute-force reading of the same log
 * that restates the rule of ARCHITECTURE.md "Who may know what" as plainly as possible:
 *
 * - lore is known by everyone, always;
 * - an NPC knows an item at t if the log holds, at or before t, a KnowledgeGained for it,
 *   or (for a memory) the MemoryRecorded that made it the memory's owner;
 * - a memory is known by nobody once its expiresAt ≤ t, or once a MemoryExpired for it
 *   is in the log at or before t;
 * - the fact reported is the earliest one (the first in log order among equal times).
 *
 * A memory id is recorded once; if a log records it again, the first record stands.
 */
import {
  type Event,
  type EventOf,
  foldKnowledge,
  type GameTime,
  type ItemKind,
  ids,
  itemKey,
  type KnowledgeFact,
  KnowledgeLedger,
  knows,
  makeEvent,
  memoryAliveAt,
  type NpcId,
  Via,
  worldEventCurrentAt,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

const npcs: ReadonlyArray<NpcId> = ["a", "b", "c"].map(ids.npc);
const memoryIds = ["m1", "m2", "m:3"] as const;
interface Item {
  readonly kind: ItemKind;
  readonly id: string;
}
/** Ids with a colon, and one id shared by two kinds, so keys must keep kinds apart. */
const items: ReadonlyArray<Item> = [
  ...memoryIds.map((id) => ({ kind: "memory", id }) as const),
  { kind: "world_event", id: "w1" },
  { kind: "world_event", id: "w:2" },
  { kind: "debate", id: "d1" },
  { kind: "debate", id: "w1" },
];

// ---------------------------------------------------------------------------------------
// Random logs

type Step =
  | { op: "learn"; dt: number; npc: number; item: number; via: Via; confidence: number }
  | { op: "record"; dt: number; memory: number; owner: number; life: number | null }
  | { op: "expire"; dt: number; memory: number; owner: number }
  | { op: "happen"; dt: number; npc: number };

const arbDt = fc.integer({ min: 0, max: 4 }); // 0: several events at one game minute
const arbStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("learn" as const),
      dt: arbDt,
      npc: fc.nat({ max: npcs.length - 1 }),
      item: fc.nat({ max: items.length - 1 }),
      via: fc.constantFrom(...Via.literals),
      confidence: fc.constantFrom(1, 0.5, 0.25),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("record" as const),
      dt: arbDt,
      memory: fc.nat({ max: memoryIds.length - 1 }),
      owner: fc.nat({ max: npcs.length - 1 }),
      life: fc.option(fc.nat({ max: 40 }), { nil: null, freq: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("expire" as const),
      dt: arbDt,
      memory: fc.nat({ max: memoryIds.length - 1 }),
      owner: fc.nat({ max: npcs.length - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("happen" as const),
      dt: arbDt,
      npc: fc.nat({ max: npcs.length - 1 }),
    }),
  },
);

/**
 * Turns steps into a time-ordered log. `valid` keeps to what the engine writes: a memory is
 * recorded once and expires (at most once, by its owner) only after it was recorded, with
 * expiresAt never before its record, and an NPC is told of a memory only once it exists.
 * `any` writes every step as it comes: re-records, expiries of memories never recorded or
 * not yet recorded, expiresAt in the past, knowledge of memories nobody recorded.
 */
const buildLog = (steps: ReadonlyArray<Step>, mode: "valid" | "any"): Array<Event> => {
  const log: Array<Event> = [];
  const owners = new Map<string, NpcId>();
  const expired = new Set<string>();
  let now = 0;
  steps.forEach((s, i) => {
    now += s.dt;
    const id = ids.event(`e${i}`);
    const t = now as GameTime;
    switch (s.op) {
      case "learn": {
        const item = items[s.item]!;
        if (mode === "valid" && item.kind === "memory" && !owners.has(item.id)) return;
        const from =
          s.via === "told" || s.via === "rumor" ? npcs[(s.npc + 1) % npcs.length]! : null;
        log.push(
          makeEvent("KnowledgeGained", {
            id,
            t,
            payload: {
              npcId: npcs[s.npc]!,
              itemKind: item.kind,
              itemId: item.id,
              via: s.via,
              fromNpcId: from,
              confidence: s.confidence,
            },
          }),
        );
        return;
      }
      case "record": {
        const memoryId = memoryIds[s.memory]!;
        if (mode === "valid" && owners.has(memoryId)) return;
        if (!owners.has(memoryId)) owners.set(memoryId, npcs[s.owner]!);
        const expiresAt =
          s.life === null ? null : ((mode === "valid" ? now + s.life : s.life) as GameTime);
        log.push(
          makeEvent("MemoryRecorded", {
            id,
            t,
            payload: {
              memoryId: ids.memory(memoryId),
              ownerNpcId: npcs[s.owner]!,
              text: `memory ${memoryId}`,
              category: "observation",
              importance: 0.5,
              expiresAt,
              locationId: null,
              entities: [],
              about: null,
            },
          }),
        );
        return;
      }
      case "expire": {
        const memoryId = memoryIds[s.memory]!;
        const owner = owners.get(memoryId);
        if (mode === "valid" && (owner === undefined || expired.has(memoryId))) return;
        expired.add(memoryId);
        log.push(
          makeEvent("MemoryExpired", {
            id,
            t,
            payload: {
              memoryId: ids.memory(memoryId),
              ownerNpcId: owner ?? npcs[s.owner]!,
              reason: "forgotten",
            },
          }),
        );
        return;
      }
      case "happen": {
        // A happening with a participant is not knowledge: only KnowledgeGained is. It
        // lapses (or not) as its first record says; a second record changes nothing.
        log.push(
          makeEvent("WorldEventOccurred", {
            id,
            t,
            payload: {
              worldEventId: ids.worldEvent("w1"),
              kind: "market",
              text: "A market.",
              locationId: null,
              factionId: null,
              visibility: "private",
              importance: 0.5,
              participants: [npcs[s.npc]!],
              entities: [],
              lapsesAt: s.npc % 2 === 0 ? null : ((t + s.npc) as GameTime),
            },
          }),
        );
        return;
      }
    }
  });
  return log;
};

const arbSteps = fc.array(arbStep, { maxLength: 30 });

/**
 * The minutes worth asking about: 0, and one before, at and after every event and every
 * expiresAt. Knowledge only changes at those, so between them it is constant.
 */
const timesOf = (log: ReadonlyArray<Event>): Array<GameTime> => {
  const marks = new Set<number>([0]);
  const mark = (x: number) => {
    for (const m of [x - 1, x, x + 1]) if (m >= 0) marks.add(m);
  };
  for (const e of log) {
    mark(e.t);
    if (e.type === "MemoryRecorded" && e.payload.expiresAt !== null) mark(e.payload.expiresAt);
    if (e.type === "WorldEventOccurred" && e.payload.lapsesAt !== null) mark(e.payload.lapsesAt);
  }
  return [...marks].sort((x, y) => x - y) as Array<GameTime>;
};

/** Deep-compares two lists, reporting the first differing entry (cheaper than one big toEqual). */
const expectSameList = (got: ReadonlyArray<unknown>, want: ReadonlyArray<unknown>): void => {
  expect(got.length).toBe(want.length);
  const i = got.findIndex((g, k) => JSON.stringify(g) !== JSON.stringify(want[k]));
  if (i >= 0) expect(got[i]).toEqual(want[i]);
};

// ---------------------------------------------------------------------------------------
// The brute-force reading of the rule

type Recorded = EventOf<"MemoryRecorded">;

/** The rule, re-read from the raw log for every question (no folding; only first records are indexed). */
const reference = (log: ReadonlyArray<Event>) => {
  const firstRecords = new Map<string, Recorded>();
  for (const e of log) {
    if (e.type === "MemoryRecorded" && !firstRecords.has(e.payload.memoryId))
      firstRecords.set(e.payload.memoryId, e);
  }
  const firstRecord = (memoryId: string): Recorded | undefined => firstRecords.get(memoryId);

  const memoryGone = (memoryId: string, t: number): boolean => {
    const record = firstRecord(memoryId);
    const expiresAt = record?.payload.expiresAt ?? null;
    if (expiresAt !== null && expiresAt <= t) return true;
    // The first expiry after the record removes it; one of a memory not yet recorded does nothing.
    const at = record === undefined ? -1 : log.indexOf(record);
    const expiry = log.find(
      (e, i) => i > at && at >= 0 && e.type === "MemoryExpired" && e.payload.memoryId === memoryId,
    );
    return expiry !== undefined && expiry.t <= t;
  };

  const lapsed = (worldEventId: string, t: number): boolean => {
    const first = log.find(
      (e) => e.type === "WorldEventOccurred" && e.payload.worldEventId === worldEventId,
    );
    const at = first?.type === "WorldEventOccurred" ? first.payload.lapsesAt : null;
    return at !== null && at <= t;
  };

  const grants = (npc: NpcId, item: Item, e: Event): boolean => {
    if (e.type === "KnowledgeGained") {
      const p = e.payload;
      return p.npcId === npc && p.itemKind === item.kind && p.itemId === item.id;
    }
    return (
      item.kind === "memory" &&
      e.type === "MemoryRecorded" &&
      e === firstRecord(item.id) &&
      e.payload.ownerNpcId === npc
    );
  };

  const fact = (npc: NpcId, item: Item, t: number): KnowledgeFact | undefined => {
    if (item.kind === "memory" && memoryGone(item.id, t)) return undefined;
    if (item.kind === "world_event" && lapsed(item.id, t)) return undefined;
    let first: Event | undefined;
    for (const e of log)
      if (e.t <= t && grants(npc, item, e) && (!first || e.t < first.t)) first = e;
    if (!first) return undefined;
    return first.type === "KnowledgeGained"
      ? {
          t: first.t,
          via: first.payload.via,
          fromNpcId: first.payload.fromNpcId,
          confidence: first.payload.confidence,
        }
      : { t: first.t, via: "owner", fromNpcId: null, confidence: 1 };
  };

  return {
    fact,
    knows: (npc: NpcId, item: Item, t: number) => fact(npc, item, t) !== undefined,
    firstRecord,
  };
};

/** Compares ledger and reference on every NPC, item and minute; returns the disagreements. */
const disagreements = (log: ReadonlyArray<Event>): Array<string> => {
  const ledger = foldKnowledge(log);
  const ref = reference(log);
  const out: Array<string> = [];
  for (const t of timesOf(log)) {
    for (const npc of npcs) {
      for (const item of items) {
        const got = ledger.factAt(npc, item.kind, item.id, t);
        const want = ref.fact(npc, item, t);
        if (
          knows(ledger, npc, item, t) !== (want !== undefined) ||
          JSON.stringify(got) !== JSON.stringify(want)
        ) {
          out.push(
            `${npc} ${itemKey(item.kind, item.id)} @${t}: ledger ${JSON.stringify(got)}, rule ${JSON.stringify(want)}`,
          );
        }
      }
    }
  }
  return out;
};

// ---------------------------------------------------------------------------------------

describe("knows: the ledger against a brute-force reading of the log", () => {
  it("property: agrees on every NPC, item and minute, for logs the engine writes", () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        expect(disagreements(buildLog(steps, "valid")).slice(0, 5)).toEqual([]);
      }),
      runs(150),
    );
  });

  it("property: agrees on every NPC, item and minute, for any time-ordered log", () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        expect(disagreements(buildLog(steps, "any")).slice(0, 5)).toEqual([]);
      }),
      runs(150),
    );
  });

  it("property: knownAt lists exactly the items factAt knows, with those facts, in key order", () => {
    fc.assert(
      fc.property(arbSteps, fc.constantFrom("valid" as const, "any" as const), (steps, mode) => {
        const log = buildLog(steps, mode);
        const ledger = foldKnowledge(log);
        const got: Array<unknown> = [];
        const want: Array<unknown> = [];
        for (const t of timesOf(log)) {
          for (const npc of npcs) {
            got.push([t, npc, ledger.knownAt(npc, t)]);
            const known = items
              .map((item) => ({
                kind: item.kind,
                id: item.id,
                fact: ledger.factAt(npc, item.kind, item.id, t),
              }))
              .filter((k) => k.fact !== undefined)
              .sort((x, y) => (itemKey(x.kind, x.id) < itemKey(y.kind, y.id) ? -1 : 1));
            want.push([t, npc, known]);
          }
        }
        expectSameList(got, want);
      }),
      runs(100),
    );
  });

  it("property: knownAt matches the brute-force reading, for logs the engine writes", () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        const log = buildLog(steps, "valid");
        const ledger = foldKnowledge(log);
        const ref = reference(log);
        const got: Array<unknown> = [];
        const want: Array<unknown> = [];
        for (const t of timesOf(log)) {
          for (const npc of npcs) {
            got.push([t, npc, ledger.knownAt(npc, t)]);
            const known = items
              .filter((item) => ref.knows(npc, item, t))
              .sort((x, y) => (itemKey(x.kind, x.id) < itemKey(y.kind, y.id) ? -1 : 1))
              .map((item) => ({ kind: item.kind, id: item.id, fact: ref.fact(npc, item, t) }));
            want.push([t, npc, known]);
          }
        }
        expectSameList(got, want);
      }),
      runs(100),
    );
  });

  it("property: knowledge of debates, and of world events until they lapse, once gained, is never lost", () => {
    fc.assert(
      fc.property(arbSteps, fc.constantFrom("valid" as const, "any" as const), (steps, mode) => {
        const log = buildLog(steps, mode);
        const ledger = foldKnowledge(log);
        const times = timesOf(log);
        const lost: Array<string> = [];
        const lapse = (id: string): number => {
          const first = log.find(
            (e) => e.type === "WorldEventOccurred" && e.payload.worldEventId === id,
          );
          const at = first?.type === "WorldEventOccurred" ? first.payload.lapsesAt : null;
          return at ?? Number.POSITIVE_INFINITY;
        };
        for (const npc of npcs) {
          for (const item of items.filter((i) => i.kind !== "memory")) {
            const until = item.kind === "world_event" ? lapse(item.id) : Number.POSITIVE_INFINITY;
            const asked = times.filter((t) => t < until);
            if (asked.length === 0) continue;
            const facts = asked.map((t) => ledger.factAt(npc, item.kind, item.id, t));
            const first = facts.findIndex((f) => f !== undefined);
            if (first < 0) continue;
            // Known from then on, always by the same (first) fact.
            const same = facts
              .slice(first)
              .every((f) => JSON.stringify(f) === JSON.stringify(facts[first]));
            if (!same) lost.push(`${npc} ${itemKey(item.kind, item.id)}`);
            if (!knows(ledger, npc, item, asked.at(-1)!))
              lost.push(`${npc} ${itemKey(item.kind, item.id)} at end`);
            // Once lapsed, nobody knows it.
            if (times.some((t) => t >= until && knows(ledger, npc, item, t)))
              lost.push(`${npc} ${itemKey(item.kind, item.id)} known after its lapse`);
          }
        }
        expect(lost).toEqual([]);
      }),
      runs(150),
    );
  });

  it("property: what is known at t depends only on the log up to t", () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        const log = buildLog(steps, "valid");
        const full = foldKnowledge(log);
        const got: Array<unknown> = [];
        const want: Array<unknown> = [];
        for (const t of timesOf(log)) {
          const upToT = foldKnowledge(log.filter((e) => e.t <= t));
          for (const npc of npcs) {
            got.push(full.knownAt(npc, t));
            want.push(upToT.knownAt(npc, t));
          }
        }
        expectSameList(got, want);
      }),
      runs(100),
    );
  });

  it("property: a memory's owner is its first recorder", () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        const log = buildLog(steps, "any");
        const ledger = foldKnowledge(log);
        const ref = reference(log);
        for (const m of memoryIds)
          expect(ledger.memoryOwner(m)).toBe(ref.firstRecord(m)?.payload.ownerNpcId);
      }),
      runs(150),
    );
  });

  it("property: lore is known by anyone at any time, whatever the log", () => {
    fc.assert(
      fc.property(arbSteps, fc.string(), fc.nat({ max: 1_000_000 }), (steps, id, t) => {
        const ledger = foldKnowledge(buildLog(steps, "any"));
        for (const npc of [...npcs, ids.npc("stranger")]) {
          expect(knows(ledger, npc, { kind: "lore", id }, t as GameTime)).toBe(true);
        }
      }),
      runs(100),
    );
  });
});

// ---------------------------------------------------------------------------------------
// Worked cases

describe("knowledgeStep: the incremental form every reader folds with", () => {
  it("property: the changes reported, written into another store, rebuild the same facts", () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        const log = buildLog(steps, "any");
        const ledger = new KnowledgeLedger();
        // A consumer that keeps only what the changes tell it.
        const rows = new Map<string, KnowledgeFact>();
        const died = new Map<string, number>();
        const recorded = new Map<string, number | null>();
        const lapses = new Map<string, number | null>();
        for (const e of log) {
          for (const c of ledger.apply(e)) {
            if (c.type === "fact") {
              const key = `${c.npcId} ${itemKey(c.itemKind, c.itemId)}`;
              expect(rows.has(key)).toBe(!c.first);
              if (!c.first) expect(c.fact.t).toBeLessThan(rows.get(key)!.t);
              rows.set(key, c.fact);
            } else if (c.type === "recorded") {
              expect(recorded.has(c.memoryId)).toBe(false);
              recorded.set(c.memoryId, c.life.expiresAt);
            } else if (c.type === "died") {
              expect(recorded.has(c.memoryId) && !died.has(c.memoryId)).toBe(true);
              died.set(c.memoryId, c.t);
            } else {
              expect(lapses.has(c.worldEventId)).toBe(false);
              lapses.set(c.worldEventId, c.lapsesAt);
            }
          }
        }
        for (const t of timesOf(log)) {
          for (const npc of npcs) {
            for (const item of items) {
              const row = rows.get(`${npc} ${itemKey(item.kind, item.id)}`);
              const alive =
                item.kind === "memory"
                  ? memoryAliveAt(recorded.get(item.id) ?? null, died.get(item.id) ?? null, t)
                  : item.kind !== "world_event" ||
                    worldEventCurrentAt(lapses.get(item.id) ?? null, t);
              const want = row !== undefined && row.t <= t && alive ? row : undefined;
              expect(ledger.factAt(npc, item.kind, item.id, t)).toEqual(want);
            }
          }
        }
      }),
      runs(100),
    );
  });
});
