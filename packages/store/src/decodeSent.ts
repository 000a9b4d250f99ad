/**
 * Decoding a batch the append worker was sent (`SentEvent`s: each payload as the JSON
 * `JSON.stringify` wrote on the run's thread), holding each event to be exactly what it
 * decodes to — the same id, time, type, version and payload, key for key in the same
 * order — so the log holds what the sender's state was built from.
 *
 * Most events are plain data whose schema changes nothing it accepts: for those, a check
 * compiled once per event type from its schema's AST (`identityCheck`) tells, without
 * Effect's parser, that decoding would give the parsed event back unchanged — every key
 * the schema names, in its order, none other, each value of its type and passing the
 * schema's own checks. Such an event is its parsed self, and its payload's JSON is the
 * text sent (JSON that `JSON.stringify` wrote parses and prints back to itself). An event
 * the check does not vouch for (a schema it does not cover, a key out of order, a value
 * that fails) takes Effect's decode and the JSON comparison, as before: the same events
 * are refused, with the same errors.
 *
 * The same checks, held strictly to what JSON gives back as it is (`vouched`), let the
 * run's thread vouch for an event before any JSON: the worker then takes it without
 * decoding (takeBatch.ts), and decodes here only the events it was not vouched for.
 */
import { currentVersions, Event, type EventType } from "@hearsay/core";
import type { SchemaAST } from "effect";
import type { Sendable, SentEvent } from "./backgroundProtocol.ts";
import { decodeOne } from "./decodeBatch.ts";
import { InvalidEvent } from "./StoreError.ts";

/** True when decoding `value` by the node would succeed and give `value` itself back. */
type Check = (value: unknown) => boolean;

type Filter = SchemaAST.Filter<unknown> | SchemaAST.FilterGroup<unknown>;

const noOptions = {};

/** The predicate of a node without checks of its own. */
const noFilters = (): boolean => true;

/** What a filter's representation says of it (Effect's own filters carry one). */
interface Representation {
  readonly id?: unknown;
  readonly payload?: Readonly<Record<string, unknown>> | null;
}

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/**
 * `Order.Number(v, bound)` for a finite bound, as Effect's number filters compare: equal
 * is 0, NaN is below every number, otherwise `<` decides (effect/Order).
 */
const compareTo = (v: unknown, bound: number): -1 | 0 | 1 =>
  v === bound ? 0 : Number.isNaN(v) ? -1 : (v as number) < bound ? -1 : 1;

/**
 * Effect's own filters of lengths and numbers, by their representation, as the predicates
 * they run (`Schema.isMinLength` … in effect/Schema): passing when `run` finds no issue,
 * without building its result. Every event schema's checks are of these kinds, and an
 * event has a dozen of them. Only for a value of the node's own kind (checked first: a
 * string or array for a length, a finite number for the others), as `identityCheck`
 * calls them; null for any other filter. test/decodeSent.test.ts holds each to `run`.
 */
export const filterPredicate = (
  f: SchemaAST.Filter<unknown>,
): ((value: unknown) => boolean) | null => {
  const rep = f.annotations?.representation as Representation | undefined;
  const p = rep?.payload;
  switch (rep?.id) {
    case "effect/schema/isMinLength": {
      const n = p?.minLength;
      return typeof n === "number" ? (v) => (v as { length: number }).length >= n : null;
    }
    case "effect/schema/isMaxLength": {
      const n = p?.maxLength;
      return typeof n === "number" ? (v) => (v as { length: number }).length <= n : null;
    }
    case "effect/schema/isInt":
      return (v) => Number.isSafeInteger(v);
    case "effect/schema/isGreaterThan": {
      const min = p?.exclusiveMinimum;
      return finite(min) ? (v) => compareTo(v, min) === 1 : null;
    }
    case "effect/schema/isGreaterThanOrEqualTo": {
      const min = p?.minimum;
      return finite(min) ? (v) => compareTo(v, min) !== -1 : null;
    }
    case "effect/schema/isBetween": {
      const min = p?.minimum;
      const max = p?.maximum;
      if (!finite(min) || !finite(max)) return null;
      const lowOpen = p?.exclusiveMinimum === true;
      const highOpen = p?.exclusiveMaximum === true;
      return (v) =>
        (lowOpen ? compareTo(v, min) === 1 : compareTo(v, min) !== -1) &&
        (highOpen ? compareTo(v, max) === -1 : compareTo(v, max) !== 1);
    }
    default:
      return null;
  }
};

/** The node's own checks (refinements) as one predicate, or null when one is not a filter. */
const filtersOf = (ast: SchemaAST.AST): ((value: unknown) => boolean) | null => {
  const filters: Array<SchemaAST.Filter<unknown>> = [];
  const add = (c: Filter): boolean => {
    if (c._tag === "Filter") filters.push(c);
    else if (c._tag === "FilterGroup") {
      for (const inner of c.checks) if (!add(inner as Filter)) return false;
    } else return false;
    return true;
  };
  for (const c of ast.checks ?? []) if (!add(c as Filter)) return null;
  if (filters.length === 0) return noFilters;
  const tests = filters.map(
    (f) => filterPredicate(f) ?? ((v: unknown) => f.run(v, ast, noOptions) === undefined),
  );
  if (tests.length === 1) return tests[0]!;
  if (tests.length === 2) {
    const [first, second] = tests as [Check, Check];
    return (value) => first(value) && second(value);
  }
  return (value) => {
    for (const test of tests) if (!test(value)) return false;
    return true;
  };
};

/** A scalar node's JS kind (what `typeof` says, `null` apart), or null for others. */
const scalarKind = (ast: SchemaAST.AST): string | null => {
  switch (ast._tag) {
    case "String":
      return "string";
    case "Number":
      return "number";
    case "Boolean":
      return "boolean";
    case "Null":
      return "null";
    case "Undefined":
      return "undefined";
    case "Literal":
      return ast.literal === null ? "null" : typeof ast.literal;
    default:
      return null;
  }
};

/**
 * True when some key is, in every one of `objects`, a required literal, each a different
 * one: no input can decode as two of them.
 */
const discriminated = (objects: ReadonlyArray<SchemaAST.AST>): boolean => {
  const literalsOf = (o: SchemaAST.AST): Map<PropertyKey, unknown> =>
    new Map(
      (o as SchemaAST.Objects).propertySignatures
        .filter((p) => p.type._tag === "Literal" && p.type.context?.isOptional !== true)
        .map((p) => [p.name, (p.type as SchemaAST.Literal).literal]),
    );
  const all = objects.map(literalsOf);
  return [...all[0]!.keys()].some((key) => {
    const values = all.map((m) => (m.has(key) ? m.get(key) : undefined));
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  });
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An array literal's kind: JSON writes its items, and nothing else (no `toJSON`). */
const isPlainArray = (v: unknown): v is Array<unknown> =>
  Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype && !Object.hasOwn(v, "toJSON");

/** An object literal's kind: JSON writes its own keys, and nothing else (no `toJSON`). */
const hasPlainPrototype = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * The identity check of a schema node, or null when the node is not one this covers:
 * a transformation, a declaration, a tuple, an index signature, or a union whose members
 * could not be told apart by their input's kind (Effect takes the first member that
 * decodes; among members of one kind that could strip or change what another keeps).
 */
export const identityCheck = (ast: SchemaAST.AST, strict = false): Check | null => {
  if (ast.encoding !== undefined) return null;
  if ("encodingChecks" in ast && ast.encodingChecks !== undefined) return null;
  const filters = filtersOf(ast);
  if (filters === null) return null;
  const own = ((): Check | null => {
    switch (ast._tag) {
      case "String":
        return (v) => typeof v === "string";
      case "Number":
        // JSON holds finite numbers only, and writes -0 as 0.
        return strict
          ? (v) => typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)
          : (v) => typeof v === "number" && Number.isFinite(v);
      case "Boolean":
        return (v) => typeof v === "boolean";
      case "Null":
        return (v) => v === null;
      case "Undefined":
        // JSON has no undefined: it drops such a key, and writes null in an array.
        return strict ? () => false : (v) => v === undefined;
      case "Literal": {
        const literal = ast.literal;
        return (v) => v === literal;
      }
      case "Union": {
        if (ast.options?.mode === "oneOf") return null;
        const kinds = new Set<string>();
        const members: Array<Check> = [];
        const objects = ast.types.filter((m) => m._tag === "Objects");
        const tagged = objects.length > 1 && discriminated(objects);
        for (const m of ast.types) {
          const kind = scalarKind(m) ?? (m._tag === "Arrays" ? "array" : m._tag);
          // Scalars give their input back whichever member takes them, and so do objects
          // told apart by a tag (only one can take an input); two other members of one
          // kind might not.
          if (scalarKind(m) === null && kinds.has(kind) && !(kind === "Objects" && tagged))
            return null;
          kinds.add(kind);
          const c = identityCheck(m, strict);
          if (c === null) return null;
          members.push(c);
        }
        return (v) => {
          for (const c of members) if (c(v)) return true;
          return false;
        };
      }
      case "Arrays": {
        if (ast.elements.length !== 0 || ast.rest.length !== 1) return null;
        const item = identityCheck(ast.rest[0]!, strict);
        if (item === null) return null;
        const array = strict ? isPlainArray : Array.isArray;
        return (v) => {
          if (!array(v)) return false;
          for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
          return true;
        };
      }
      case "Objects": {
        if (ast.indexSignatures.length !== 0) return null;
        const props: Array<{ key: string; optional: boolean; check: Check }> = [];
        for (const p of ast.propertySignatures) {
          if (typeof p.name !== "string") return null;
          const check = identityCheck(p.type, strict);
          if (check === null) return null;
          props.push({ key: p.name, optional: p.type.context?.isOptional === true, check });
        }
        const hasOwn = Object.prototype.hasOwnProperty;
        const plain = strict ? hasPlainPrototype : isPlainObject;
        return (v) => {
          if (!plain(v)) return false;
          // The keys the schema names, in its order (an optional one may be missing), and
          // no other: decoding drops unknown keys and writes its own order. (A for-in walk
          // reads the object's keys without copying them out, as Object.keys would.)
          let p = 0;
          for (const key in v) {
            if (!hasOwn.call(v, key)) return false;
            while (p < props.length && props[p]!.key !== key) {
              if (!props[p]!.optional) return false;
              p++;
            }
            if (p === props.length || !props[p]!.check(v[key])) return false;
            p++;
          }
          for (; p < props.length; p++) if (!props[p]!.optional) return false;
          return true;
        };
      }
      default:
        return null;
    }
  })();
  if (own === null) return null;
  if (filters === noFilters) return own;
  return (v) => own(v) && filters(v);
};

/** Per event type, its identity check (when its schema is covered). */
const checks = new Map<string, Check>();
for (const member of Event.members) {
  const type = member.fields.type.schema.literal as EventType;
  const check = identityCheck(member.ast);
  if (check !== null) checks.set(type, check);
}

/** Whether `raw` is an event of a type at its current version that decodes to itself. */
export const decodesToItself = (raw: { readonly type: string }): boolean => {
  const check = checks.get(raw.type);
  return check?.(raw) === true;
};

/** The event types whose events `decodesToItself` can vouch for. */
export const vouchedTypes: ReadonlyArray<string> = [...checks.keys()];

/** An event's fields in the order the worker's `decodesToItself` reads them. */
const ENVELOPE = ["type", "version", "id", "t", "payload"];

/**
 * Per event type, the sender's check (`vouched`): each field of the event as it stands,
 * before any JSON, by its schema held strictly to what JSON writes back as it was — no
 * undefined, no -0, no object but a literal's kind. Only for types whose schema is the
 * five fields, in the order the worker builds an event in, with no check of the event as
 * a whole: for those, an event that passes is one whose JSON the worker would parse into
 * an event `decodesToItself` vouches for, the same event field for field.
 */
const vouchers = new Map<string, (e: Sendable) => boolean>();
for (const member of Event.members) {
  const type = member.fields.type.schema.literal as EventType;
  const ast = member.ast;
  if (!checks.has(type) || ast._tag !== "Objects" || filtersOf(ast) !== noFilters) continue;
  const sigs = ast.propertySignatures;
  if (
    sigs.length !== ENVELOPE.length ||
    sigs.some((p, i) => p.name !== ENVELOPE[i] || p.type.context?.isOptional === true)
  )
    continue;
  const fields = sigs.map((p) => identityCheck(p.type, true));
  if (fields.some((c) => c === null)) continue;
  const [ofType, ofVersion, ofId, ofT, ofPayload] = fields as Array<Check>;
  const version = currentVersions.get(type);
  vouchers.set(
    type,
    (e) =>
      e.version === version &&
      ofType!(e.type) &&
      ofVersion!(e.version) &&
      ofId!(e.id) &&
      ofT!(e.t) &&
      ofPayload!(e.payload),
  );
}

/**
 * Whether the run's thread may send `e` packed, for the worker to take without decoding
 * it (`takeBatch`): an event at its type's current version whose every field is,
 * before any JSON, what its schema decodes to itself, and what JSON gives back as it is.
 */
export const vouched = (e: Sendable): boolean => {
  const check = vouchers.get(e.type as string);
  return check?.(e) === true;
};

/** The event types `vouched` can vouch for. */
export const sendableTypes: ReadonlyArray<string> = [...vouchers.keys()];

/**
 * The batch decoded, each event checked to be what it decodes to; with each payload's
 * JSON, what the log row holds. Refuses the batch as the worker always has: first any
 * event that does not decode (the first such), then any that decodes to something else.
 */
export const decodeSent = (
  saveId: string,
  sent: ReadonlyArray<SentEvent>,
): { readonly events: ReadonlyArray<Event>; readonly payloads: ReadonlyArray<string> } => {
  const events: Array<Event> = new Array(sent.length);
  /** Events decoded by Effect, whose JSON must still be compared with what was sent. */
  const compared: Array<number> = [];
  for (let index = 0; index < sent.length; index++) {
    const [id, t, type, version, payload] = sent[index]!;
    const raw = { type, version, id, t, payload: JSON.parse(payload) };
    if (version === currentVersions.get(type as EventType) && decodesToItself(raw)) {
      events[index] = raw as Event;
    } else {
      events[index] = decodeOne(saveId, raw, index);
      compared.push(index);
    }
  }
  const payloads: Array<string> = new Array(sent.length);
  for (let index = 0; index < sent.length; index++) payloads[index] = sent[index]![4];
  for (const index of compared) {
    const [id, t, type, version, payload] = sent[index]!;
    const d = events[index]!;
    const json = JSON.stringify(d.payload);
    if (d.id !== id || d.t !== t || d.type !== type || d.version !== version || json !== payload) {
      throw new InvalidEvent({
        saveId,
        index,
        eventType: type,
        detail: `event ${id} is not as its schema decodes it (${json}); the engine must emit events in their decoded form`,
      });
    }
    payloads[index] = json;
  }
  return { events, payloads };
};
