/**
 * The event catalogue: every type has a valid example that decodes to itself, and what
 * does not fit is refused with a message naming the bad field, so a bad line in an
 * import or an old database can be found and fixed.
 */
import {
  currentVersions,
  decodeEvent,
  decodeEventExit,
  type Event,
  type EventType,
  eventTypes,
  ItemKind,
  ids,
  MemoryCategory,
  makeEvent,
  Via,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allExamples, examples, t } from "./eventExamples.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

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
    expect(e.version).toBe(currentVersions.get(type));
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
        // Older than any upcaster reaches, newer than this build, a string, nothing.
        [0, currentVersions.get(e.type)! + 1, String(currentVersions.get(e.type)), null].map(
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
