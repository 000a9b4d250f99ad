/**
 * Upcasting: an event written at an older schema version is brought up to the current
 * one, step by step, before it is decoded; events at the current version pass untouched
 * (the same object); chains with a gap, a repeat or a step past the current version are
 * refused when they are built.
 */
import {
  currentVersions,
  decodeEvent,
  decodeEventExit,
  eventTypes,
  eventUpcasters,
  gameTime,
  ids,
  makeEvent,
  type RawPayload,
  REASON_UNRECORDED,
  type Upcaster,
  upcastEvent,
  upcastWith,
} from "@hearsay/core";
import { Exit } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

/** A step that leaves a trace of itself, so composition order is visible. */
const tracer = (type: string, from: number): Upcaster => ({
  type,
  from,
  change: `trace ${from}`,
  up: (p) => ({ ...p, trail: [...((p.trail as ReadonlyArray<number> | undefined) ?? []), from] }),
});

const deepFreeze = <T>(v: T): T => {
  if (typeof v === "object" && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
};

const payloadArb = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== "trail" && k !== "__proto__"),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

describe("the catalogue's upcasters", () => {
  it("form valid chains, and every event type has a current version that makeEvent writes", () => {
    expect(() => upcastWith(eventUpcasters, currentVersions)).not.toThrow();
    expect([...currentVersions.keys()].sort()).toEqual([...eventTypes].sort());
    const e = makeEvent("SimulationWarning", {
      id: ids.event("e1"),
      t: gameTime(1),
      payload: { code: "x", message: "y", npcId: null },
    });
    expect(e.version).toBe(currentVersions.get("SimulationWarning"));
  });

  it("leave every event at its current version untouched: the very same object", () => {
    fc.assert(
      fc.property(fc.constantFrom(...eventTypes), payloadArb, (type, payload) => {
        const raw = { type, version: currentVersions.get(type), id: "e1", t: 0, payload };
        expect(upcastEvent(raw)).toBe(raw);
      }),
      runs(200),
    );
  });

  it("leave input that is not an event alone, for the decoder to refuse", () => {
    for (const raw of [null, 3, "x", [], { type: 1 }, { type: "Nope", version: 0 }]) {
      expect(upcastEvent(raw)).toBe(raw);
    }
  });
});

describe("upcastWith", () => {
  it("applies every step from the written version to the current one, in order, without mutating", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        payloadArb,
        (current, written, payload) => {
          const steps = Array.from({ length: current }, (_, v) => tracer("Thing", v));
          const upcast = upcastWith(steps, new Map([["Thing", current]]));
          const raw = deepFreeze({ type: "Thing", version: written, id: "e", t: 5, payload });
          const out = upcast(raw) as { version: number; payload: RawPayload; t: number };
          if (written >= current) {
            expect(out).toBe(raw); // current or newer: the decoder decides
            return;
          }
          expect(out.version).toBe(current);
          expect(out.t).toBe(5);
          expect(out.payload.trail).toEqual(
            Array.from({ length: current - written }, (_, i) => written + i),
          );
          expect({ ...out.payload, trail: undefined }).toEqual({ ...payload, trail: undefined });
        },
      ),
      runs(300),
    );
  });

  it("leaves versions older than the chain reaches unchanged", () => {
    const upcast = upcastWith([tracer("Thing", 2)], new Map([["Thing", 3]]));
    const raw = { type: "Thing", version: 1, id: "e", t: 0, payload: {} };
    expect(upcast(raw)).toBe(raw);
    expect((upcast({ ...raw, version: 2 }) as { version: number }).version).toBe(3);
  });

  it("refuses chains that cannot be right", () => {
    const now = new Map([["Thing", 3]]);
    expect(() => upcastWith([tracer("Other", 0)], now)).toThrow(/unknown event type "Other"/);
    expect(() => upcastWith([tracer("Thing", 3)], now)).toThrow(/must start below the current v3/);
    expect(() =>
      upcastWith([tracer("Thing", 1), tracer("Thing", 1), tracer("Thing", 2)], now),
    ).toThrow(/two Thing steps from v1/);
    expect(() => upcastWith([tracer("Thing", 0), tracer("Thing", 2)], now)).toThrow(
      /no step from v1/,
    );
  });
});

describe("decoding an old event", () => {
  /**
   * A test-only history: suppose MemoryExpired v0 had no `reason` (every loss was an
   * expiry), and RelationshipChanged v0 called its `summary` a `note`. The catalogue
   * is at v1 for both; these steps are what a real schema change would add.
   */
  const v0: ReadonlyArray<Upcaster> = [
    {
      type: "MemoryExpired",
      from: 0,
      change: "reason added; every v0 loss was an expiry",
      up: (p) => ({ ...p, reason: "expired" }),
    },
    {
      type: "RelationshipChanged",
      from: 0,
      change: "note renamed summary",
      up: ({ note, ...rest }) => ({ ...rest, summary: note }),
    },
  ];
  const upcast = upcastWith([...eventUpcasters, ...v0], currentVersions);

  it("decodes to the current shape after its upcaster runs", () => {
    const old = {
      type: "RelationshipChanged",
      version: 0,
      id: "e9",
      t: gameTime(2, 9),
      payload: {
        fromId: "npc-a",
        toId: "npc-b",
        trust: 0.5,
        respect: 0,
        suspicion: -0.25,
        note: "owed a favour",
      },
    };
    expect(decodeEvent(upcast(old))).toEqual({
      ...old,
      version: 2,
      payload: {
        fromId: "npc-a",
        toId: "npc-b",
        trust: 0.5,
        respect: 0,
        suspicion: -0.25,
        summary: "owed a favour",
        reason: "owed a favour",
      },
    });
    const lost = {
      type: "MemoryExpired",
      version: 0,
      id: "e10",
      t: 60,
      payload: { memoryId: "m1", ownerNpcId: "npc-a" },
    };
    expect(decodeEvent(upcast(lost)).payload).toEqual({
      memoryId: "m1",
      ownerNpcId: "npc-a",
      reason: "expired",
    });
  });

  it("without its upcaster is refused by the decoder, naming the version", () => {
    const old = {
      type: "MemoryExpired",
      version: 0,
      id: "e10",
      t: 60,
      payload: { memoryId: "m1", ownerNpcId: "npc-a" },
    };
    const exit = decodeEventExit(old);
    expect(Exit.isFailure(exit)).toBe(true);
    expect(() => decodeEvent(old)).toThrow(/version/);
  });
});

describe("RelationshipChanged version 1", () => {
  const v1 = (summary: string) => ({
    type: "RelationshipChanged",
    version: 1,
    id: "e1",
    t: 60,
    payload: { fromId: "npc-a", toId: "npc-b", trust: 0.1, respect: 0, suspicion: 0, summary },
  });

  it("gains the reason its summary gives, or says none was recorded", () => {
    const told = decodeEvent(upcastEvent(v1("Has talked with Kit Halse.")));
    expect(told.version).toBe(2);
    expect(told.payload).toMatchObject({ reason: "Has talked with Kit Halse." });
    const blank = decodeEvent(upcastEvent(v1("  ")));
    expect(blank.payload).toMatchObject({ reason: REASON_UNRECORDED });
  });

  it("is refused without the reason at version 2", () => {
    const bare = { ...v1("x"), version: 2 };
    expect(Exit.isFailure(decodeEventExit(bare))).toBe(true);
  });
});

describe("TaskStatusChanged version 1", () => {
  const v1 = {
    type: "TaskStatusChanged",
    version: 1,
    id: "e2",
    t: 60,
    payload: { taskId: "task-1", from: "active", to: "cancelled", reason: "called off" },
  };

  it("gains `by: null`: no party was recorded as moving it", () => {
    const up = decodeEvent(upcastEvent(v1));
    expect(up.version).toBe(2);
    expect(up.payload).toEqual({ ...v1.payload, by: null });
  });

  it("is refused without `by` at version 2", () => {
    expect(Exit.isFailure(decodeEventExit({ ...v1, version: 2 }))).toBe(true);
  });
});
