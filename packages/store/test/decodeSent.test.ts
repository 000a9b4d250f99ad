/**
 * The append worker's decode (`decodeSent`) against the one it replaces: Effect's decode
 * of every event, then each event's JSON compared with what was sent. On arbitrary
 * batches of every event type, as sent and with values changed, keys dropped, added or
 * reordered, and the envelope broken, both give the same events (key for key, in the
 * same order) and log payloads, or refuse with the same error; and the schema check
 * vouches for the valid events of every type it covers (else the fast path is not taken).
 */
import { Event, ids } from "@hearsay/core";
import { arbEventSequence } from "@hearsay/testkit";
import type { SchemaAST } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SentEvent } from "../src/backgroundProtocol.ts";
import { decodeBatch } from "../src/decodeBatch.ts";
import { decodeSent, decodesToItself, filterPredicate, vouchedTypes } from "../src/decodeSent.ts";
import { InvalidEvent } from "../src/StoreError.ts";
import { runs } from "./harness.ts";

const saveId = ids.save("s");

/** The worker's decode before `decodeSent`: Effect's decode of all, then the JSON compared. */
type Decoded = { readonly events: ReadonlyArray<Event>; readonly payloads: ReadonlyArray<string> };

const reference = (sent: ReadonlyArray<SentEvent>): Decoded => {
  const events = decodeBatch(
    saveId,
    sent.map(([id, t, type, version, payload]) => ({
      type,
      version,
      id,
      t,
      payload: JSON.parse(payload),
    })),
  );
  const payloads = events.map((d, index) => {
    const [id, t, type, version, payload] = sent[index]!;
    const json = JSON.stringify(d.payload);
    if (d.id !== id || d.t !== t || d.type !== type || d.version !== version || json !== payload) {
      throw new InvalidEvent({
        saveId,
        index,
        eventType: type,
        detail: `event ${id} is not as its schema decodes it (${json}); the engine must emit events in their decoded form`,
      });
    }
    return json;
  });
  return { events, payloads };
};

const outcome = (decode: () => Decoded): string => {
  try {
    const { events, payloads } = decode();
    return JSON.stringify({ events, payloads });
  } catch (e) {
    return `refused: ${e instanceof InvalidEvent ? `${e.index} ${e.eventType} ${e.detail}` : String(e)}`;
  }
};

const sentOf = (e: Event): SentEvent => [e.id, e.t, e.type, e.version, JSON.stringify(e.payload)];

/** Every place in a JSON value: the containers and keys (or indexes) below it. */
const places = (
  v: unknown,
  out: Array<[Record<string, unknown> | Array<unknown>, string]> = [],
) => {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([v, String(i)]);
      places(x, out);
    });
  } else if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      out.push([o, k]);
      places(o[k], out);
    }
  }
  return out;
};

const values: ReadonlyArray<unknown> = [
  null,
  "",
  "x",
  "m1.0",
  -1,
  0,
  0.5,
  2,
  1e300,
  true,
  [],
  ["x"],
  {},
  { kind: "npc", id: "x" },
  "a".repeat(20_001),
];

type Mutation = readonly [kind: number, where: number, value: number];

/** Changes the event's JSON at a place (a value set, a key dropped, added or moved) or its envelope. */
const mutate = (s: SentEvent, [kind, where, value]: Mutation): SentEvent => {
  const [id, t, type, version] = s;
  const payload = JSON.parse(s[4]) as Record<string, unknown>;
  const at = places(payload);
  const pick = at.length > 0 ? at[where % at.length]! : null;
  const v = values[value % values.length];
  switch (kind % 8) {
    case 0:
      if (pick) (pick[0] as Record<string, unknown>)[pick[1]] = v;
      break;
    case 1:
      if (pick && !Array.isArray(pick[0])) delete pick[0][pick[1]];
      else if (pick) (pick[0] as Array<unknown>).splice(Number(pick[1]), 1);
      break;
    case 2:
      if (pick && !Array.isArray(pick[0])) pick[0].extra = v;
      else payload.extra = v;
      break;
    case 3: {
      // A key moved to the end: same fields, another order.
      if (pick && !Array.isArray(pick[0])) {
        const o = pick[0];
        const x = o[pick[1]];
        delete o[pick[1]];
        o[pick[1]] = x;
      }
      break;
    }
    case 4:
      return [id, t, type, [0, 99, version + 1][value % 3]!, JSON.stringify(payload)];
    case 5:
      return [id, [-1, 1.5, 2 ** 40][value % 3]!, type, version, JSON.stringify(payload)];
    case 6:
      return [["", "x".repeat(201), "ok"][value % 3]!, t, type, version, JSON.stringify(payload)];
    default:
      return [id, t, ["Bogus", "NpcMoved", "MemoryRecorded"][value % 3]!, version, s[4]];
  }
  return [id, t, type, version, JSON.stringify(payload)];
};

const arbMutation: fc.Arbitrary<Mutation> = fc.tuple(fc.nat(), fc.nat(), fc.nat());

describe("decodeSent", () => {
  it("vouches for valid events of every type but the uncovered ones, and only those", () => {
    expect(vouchedTypes.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(arbEventSequence({ maxSteps: 30 }), (events) => {
        for (const e of events) {
          const [id, t, type, version, payload] = sentOf(e);
          const raw = { type, version, id, t, payload: JSON.parse(payload) };
          expect(decodesToItself(raw)).toBe(vouchedTypes.includes(type));
        }
      }),
      { numRuns: runs(20) },
    );
  });

  it("gives the events, payloads and errors Effect's decode and the JSON comparison give", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        arbEventSequence({ maxSteps: 30 }),
        fc.array(fc.tuple(fc.nat(), arbMutation), { maxLength: 4 }),
        (events, mutations) => {
          const sent = events.map(sentOf);
          for (const [i, m] of mutations) {
            if (sent.length === 0) break;
            const at = i % sent.length;
            sent[at] = mutate(sent[at]!, m);
          }
          const expected = outcome(() => reference(sent));
          seen.add(expected.startsWith("refused") ? "refused" : "taken");
          expect(outcome(() => decodeSent(saveId, sent))).toBe(expected);
        },
      ),
      { numRuns: runs(60) },
    );
    expect([...seen].sort()).toEqual(["refused", "taken"]);
  });

  it("refuses a payload key out of the schema's order, as the comparison does", () => {
    const sent: SentEvent = [
      "e1",
      0,
      "NpcMoved",
      1,
      JSON.stringify({ to: "b", npcId: "n", from: "a" }),
    ];
    const ok = reference([
      ["e1", 0, "NpcMoved", 1, JSON.stringify({ npcId: "n", from: "a", to: "b" })],
    ]);
    expect(ok.payloads).toHaveLength(1);
    expect(outcome(() => decodeSent(saveId, [sent]))).toMatch(/^refused: 0 NpcMoved event e1/);
  });
});

/** Every filter of every event schema, with the node it sits on. */
const eventFilters = (): Array<{
  readonly ast: SchemaAST.AST;
  readonly filter: SchemaAST.Filter<unknown>;
}> => {
  const out: Array<{ ast: SchemaAST.AST; filter: SchemaAST.Filter<unknown> }> = [];
  const seen = new Set<SchemaAST.AST>();
  const add = (ast: SchemaAST.AST, c: SchemaAST.Check<unknown>): void => {
    if (c._tag === "Filter") out.push({ ast, filter: c });
    else for (const inner of c.checks) add(ast, inner);
  };
  const walk = (ast: SchemaAST.AST): void => {
    if (seen.has(ast)) return;
    seen.add(ast);
    for (const c of ast.checks ?? []) add(ast, c);
    if (ast._tag === "Objects") for (const p of ast.propertySignatures) walk(p.type);
    if (ast._tag === "Union") for (const m of ast.types) walk(m);
    if (ast._tag === "Arrays") for (const x of [...ast.elements, ...ast.rest]) walk(x);
  };
  for (const member of Event.members) walk(member.ast);
  return out;
};

/** Numbers around every bound a filter may hold, strings and arrays around their lengths. */
const probe = fc.oneof(
  fc.integer({ min: -3, max: 210 }),
  fc.double(),
  fc.constantFrom(0, -0, 0.5, 1, 1.5, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), Number.NaN, 1e300),
  fc.string({ maxLength: 210 }),
  fc.array(fc.nat(), { maxLength: 5 }),
  fc.constantFrom("", "x", "x".repeat(200), "x".repeat(201)),
);

describe("filterPredicate", () => {
  it("property: every event schema's filter it compiles passes just what its run passes", () => {
    const filters = eventFilters();
    const compiled = filters.flatMap(({ ast, filter }) => {
      const p = filterPredicate(filter);
      return p === null ? [] : [{ ast, filter, p }];
    });
    // Every filter the events use today is one it knows.
    expect(compiled.length).toBe(filters.length);
    expect(compiled.length).toBeGreaterThan(10);
    fc.assert(
      fc.property(fc.nat(), probe, (i, v) => {
        const { ast, filter, p } = compiled[i % compiled.length]!;
        expect(p(v)).toBe(filter.run(v, ast, {}) === undefined);
      }),
      { numRuns: runs(2000) },
    );
  });
});
