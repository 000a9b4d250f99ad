/**
 * The engine's state at a seq as one text, and back: what lets `--resume` start from a
 * snapshot and fold only the events after it instead of the whole log. A snapshot is a
 * cache — the log stays the truth — so one that does not fit this build (another
 * `SNAPSHOT_FORMAT`, or an `EngineState` of another shape) is ignored, not trusted.
 *
 * The codec is generic over `EngineState`'s fields, so a field added there is kept
 * without a change here: maps and sets keep their iteration order (which decides the
 * order NPCs are visited in), an object reachable twice stays one object, and the
 * books `EngineState` builds in its constructor (DueIndex, ThreadBook, …) are filled in
 * place. A class instance anywhere else cannot be rebuilt and is refused when taken.
 * Change `SNAPSHOT_FORMAT` whenever `EngineState.apply` gives a field another meaning.
 */
import { sha256 } from "@hearsay/core";
import { EngineState } from "./EngineState.ts";

export const SNAPSHOT_FORMAT = "engine-state/9";

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json };

const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const isContainer = (v: unknown): v is object =>
  typeof v === "object" &&
  v !== null &&
  (Array.isArray(v) || v instanceof Map || v instanceof Set || isPlain(v));

/** Counts how often each container is reached, to keep shared ones shared. */
const countRefs = (v: unknown, seen: Map<object, number>): void => {
  if (!isContainer(v)) return;
  const n = seen.get(v) ?? 0;
  seen.set(v, n + 1);
  if (n > 0) return;
  if (v instanceof Map)
    for (const [k, x] of v) {
      countRefs(k, seen);
      countRefs(x, seen);
    }
  else if (v instanceof Set || Array.isArray(v)) for (const x of v) countRefs(x, seen);
  else for (const x of Object.values(v)) countRefs(x, seen);
};

/**
 * What cannot be snapshot, and where: each container it sits in adds its step on the way
 * out, so no path is built unless one is thrown (a large world's state is millions of
 * values, and a path string made for each was most of an encode's work).
 */
class Unsnapshottable {
  readonly steps: Array<string> = [];
  constructor(readonly what: string) {}
}

/** Adds `step` to an `Unsnapshottable` on its way out; any other error passes untouched. */
const within = (e: unknown, step: () => string): never => {
  if (e instanceof Unsnapshottable) e.steps.push(step());
  throw e;
};

/** A value JSON writes as itself, and the decoder reads back as itself. */
const isJsonLeaf = (x: unknown): boolean =>
  typeof x === "string" ||
  typeof x === "boolean" ||
  x === null ||
  (typeof x === "number" && Number.isFinite(x) && !Object.is(x, -0));

/**
 * Whether every own value of a plain object or array is such a leaf: then its encoding
 * holds it as it is, not a copy (JSON writes its keys in the order a copy's would have),
 * and a snapshot's many flat records cost no copy each.
 */
const allLeaves = (v: object): boolean => {
  if (Array.isArray(v)) {
    // A hole reads as undefined, which is no leaf.
    for (let i = 0; i < v.length; i++) if (!isJsonLeaf(v[i])) return false;
    return true;
  }
  for (const k in v) if (!isJsonLeaf((v as Record<string, unknown>)[k])) return false;
  return true;
};

class Encoder {
  private readonly ids = new Map<object, number>();
  constructor(private readonly refs: Map<object, number>) {}

  value(v: unknown): Json {
    if (v === undefined) return { $u: 0 };
    if (v === null || typeof v === "boolean" || typeof v === "string") return v;
    if (typeof v === "number") {
      if (Number.isFinite(v) && !Object.is(v, -0)) return v;
      return { $n: Object.is(v, -0) ? "-0" : String(v) };
    }
    if (typeof v !== "object") throw new Unsnapshottable(typeof v);
    if (!isContainer(v)) {
      throw new Unsnapshottable(`the ${(v as object).constructor?.name ?? "object"}`);
    }
    const known = this.ids.get(v);
    if (known !== undefined) return { $r: known };
    const shared = (this.refs.get(v) ?? 0) > 1;
    const id = shared ? this.ids.size : -1;
    if (shared) this.ids.set(v, id);
    const body: Record<string, Json> =
      v instanceof Map
        ? { $m: this.entries(v) }
        : v instanceof Set
          ? { $s: this.items([...v], "{", "}") }
          : Array.isArray(v)
            ? { $a: allLeaves(v) ? (v as Array<Json>) : this.items(v, "[", "]") }
            : { $o: allLeaves(v) ? (v as Record<string, Json>) : this.fields(v) };
    return shared ? { ...body, $i: id } : body;
  }

  private entries(v: Map<unknown, unknown>): Array<Json> {
    const out: Array<Json> = [];
    let i = 0;
    for (const [k, x] of v) {
      let key: Json;
      try {
        key = this.value(k);
      } catch (e) {
        return within(e, () => `<${i}>`);
      }
      try {
        out.push([key, this.value(x)]);
      } catch (e) {
        return within(e, () => `[${String(k)}]`);
      }
      i++;
    }
    return out;
  }

  private items(v: ReadonlyArray<unknown>, open: string, close: string): Array<Json> {
    const out: Array<Json> = new Array(v.length);
    let i = 0;
    try {
      for (; i < v.length; i++) out[i] = this.value(v[i]);
    } catch (e) {
      return within(e, () => `${open}${i}${close}`);
    }
    return out;
  }

  fields(v: object): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) {
      try {
        out[k] = this.value(x);
      } catch (e) {
        return within(e, () => `.${k}`);
      }
    }
    return out;
  }
}

class Decoder {
  private readonly ids = new Map<number, unknown>();

  value(j: Json): unknown {
    if (j === null || typeof j !== "object") return j;
    const o = j as Readonly<Record<string, Json>>;
    if ("$u" in o) return undefined;
    if ("$n" in o) return o.$n === "-0" ? -0 : Number(o.$n);
    if ("$r" in o) return this.ids.get(o.$r as number);
    const keep = <T>(x: T): T => {
      if ("$i" in o) this.ids.set(o.$i as number, x);
      return x;
    };
    if ("$m" in o) {
      const m = keep(new Map());
      for (const [k, x] of o.$m as ReadonlyArray<[Json, Json]>) m.set(this.value(k), this.value(x));
      return m;
    }
    if ("$s" in o) {
      const s = keep(new Set());
      for (const x of o.$s as ReadonlyArray<Json>) s.add(this.value(x));
      return s;
    }
    if ("$a" in o) {
      const a: Array<unknown> = keep([]);
      for (const x of o.$a as ReadonlyArray<Json>) a.push(this.value(x));
      return a;
    }
    const target: Record<string, unknown> = keep({});
    for (const [k, x] of Object.entries(o.$o as Record<string, Json>)) target[k] = this.value(x);
    return target;
  }
}

/** Whether a field's value is a book: a class instance, filled in place on decode. */
const isBook = (v: unknown): v is object => typeof v === "object" && v !== null && !isContainer(v);

/** Counts shared containers under a book's fields, books within it included. */
const countBook = (book: object, refs: Map<object, number>): void => {
  for (const x of Object.values(book)) {
    if (isBook(x)) countBook(x, refs);
    else countRefs(x, refs);
  }
};

const encodeBook = (enc: Encoder, book: object): Record<string, Json> => {
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(book)) {
    try {
      out[k] = isBook(x) ? { $b: encodeBook(enc, x) } : enc.value(x);
    } catch (e) {
      return within(e, () => `.${k}`);
    }
  }
  return out;
};

const fillBook = (
  dec: Decoder,
  target: Record<string, unknown>,
  fields: Record<string, Json>,
  path: string,
): void => {
  for (const [k, j] of Object.entries(fields)) {
    const o = j as Readonly<Record<string, Json>> | null;
    if (o !== null && typeof o === "object" && "$b" in o) {
      const book = target[k];
      if (!isBook(book))
        throw new Error(`the snapshot has a book at ${path}.${k} this build has not`);
      fillBook(dec, book as Record<string, unknown>, o.$b as Record<string, Json>, `${path}.${k}`);
    } else target[k] = dec.value(j);
  }
};

const shapeOf = (book: object): string =>
  Object.entries(book)
    .map(([k, v]) =>
      isBook(v)
        ? `${k}:${v.constructor.name}(${shapeOf(v)})`
        : `${k}:${Array.isArray(v) ? "array" : v instanceof Map ? "map" : v instanceof Set ? "set" : v === null ? "null" : typeof v}`,
    )
    .join(",");

/**
 * The roots a snapshot holds, by name: each is filled in place on decode, and so is every
 * class instance reachable from one through fields alone (a book such as a `DueIndex`).
 */
export type SnapshotRoots = Readonly<Record<string, object>>;

/**
 * The shape of `fresh` roots — their fields, and each book's, recursively — with the
 * format: two builds with the same fingerprint read each other's snapshots.
 */
export const snapshotFingerprint = (fresh: SnapshotRoots): string =>
  `${SNAPSHOT_FORMAT} ${sha256(
    Object.entries(fresh)
      .map(([k, v]) => `${k}{${shapeOf(v)}}`)
      .join(";"),
  ).slice(0, 16)}`;

/** The roots as text. @throws Error naming a field no snapshot can hold. */
export const encodeRoots = (roots: SnapshotRoots): string => {
  const refs = new Map<object, number>();
  for (const root of Object.values(roots)) countBook(root, refs);
  const enc = new Encoder(refs);
  const out: Record<string, Json> = {};
  for (const [k, root] of Object.entries(roots)) {
    try {
      out[k] = { $b: encodeBook(enc, root) };
    } catch (e) {
      if (!(e instanceof Unsnapshottable)) throw e;
      throw new Error(`cannot snapshot ${e.what} at ${k}${e.steps.reverse().join("")}`);
    }
  }
  return JSON.stringify(out);
};

/**
 * Fills fresh `roots` from `text` (what `encodeRoots` wrote with this fingerprint).
 * @throws Error when the text holds a root or book the roots have not.
 */
export const decodeRoots = <R extends SnapshotRoots>(text: string, roots: R): R => {
  const dec = new Decoder();
  for (const [k, j] of Object.entries(
    JSON.parse(text) as Record<string, { $b: Record<string, Json> }>,
  )) {
    const root = roots[k];
    if (root === undefined) throw new Error(`the snapshot has a root ${k} this build has not`);
    fillBook(dec, root as Record<string, unknown>, j.$b, k);
  }
  return roots;
};

/** `EngineState` alone as text (its books filled in place), and back. */
export const encodeState = (state: EngineState): string => encodeRoots({ engine: state });

export const decodeState = (text: string, state: EngineState = new EngineState()): EngineState =>
  decodeRoots(text, { engine: state }).engine;
