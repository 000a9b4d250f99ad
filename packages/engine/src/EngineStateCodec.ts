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

export const SNAPSHOT_FORMAT = "engine-state/1";

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

class Encoder {
  private readonly ids = new Map<object, number>();
  constructor(private readonly refs: Map<object, number>) {}

  value(v: unknown, path: string): Json {
    if (v === undefined) return { $u: 0 };
    if (v === null || typeof v === "boolean" || typeof v === "string") return v;
    if (typeof v === "number") {
      if (Number.isFinite(v) && !Object.is(v, -0)) return v;
      return { $n: Object.is(v, -0) ? "-0" : String(v) };
    }
    if (typeof v !== "object") throw new Error(`cannot snapshot ${typeof v} at ${path}`);
    if (!isContainer(v)) {
      throw new Error(
        `cannot snapshot the ${(v as object).constructor?.name ?? "object"} at ${path}`,
      );
    }
    const known = this.ids.get(v);
    if (known !== undefined) return { $r: known };
    const shared = (this.refs.get(v) ?? 0) > 1;
    const id = shared ? this.ids.size : -1;
    if (shared) this.ids.set(v, id);
    const body: Record<string, Json> =
      v instanceof Map
        ? {
            $m: [...v].map(([k, x], i) => [
              this.value(k, `${path}<${i}>`),
              this.value(x, `${path}[${String(k)}]`),
            ]),
          }
        : v instanceof Set
          ? { $s: [...v].map((x, i) => this.value(x, `${path}{${i}}`)) }
          : Array.isArray(v)
            ? { $a: v.map((x, i) => this.value(x, `${path}[${i}]`)) }
            : { $o: this.fields(v, path) };
    return shared ? { ...body, $i: id } : body;
  }

  fields(v: object, path: string): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) out[k] = this.value(x, `${path}.${k}`);
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

/** The state's own fields: a book built in the constructor is its fields; others, values. */
const parts = (state: EngineState): Array<[string, unknown, boolean]> =>
  Object.entries(state).map(([k, v]) => [
    k,
    v,
    typeof v === "object" && v !== null && !isContainer(v),
  ]);

/**
 * The shape of this build's `EngineState` — its fields, and each book's — with the
 * format: two builds with the same fingerprint read each other's snapshots.
 */
export const stateFingerprint = (): string => {
  const shape = parts(new EngineState()).map(([k, v, book]) =>
    book
      ? `${k}:${(v as object).constructor.name}(${Object.keys(v as object).join(",")})`
      : `${k}:${Array.isArray(v) ? "array" : v instanceof Map ? "map" : v instanceof Set ? "set" : typeof v}`,
  );
  return `${SNAPSHOT_FORMAT} ${sha256(shape.join(";")).slice(0, 16)}`;
};

/** The state as text. @throws Error naming a field no snapshot can hold. */
export const encodeState = (state: EngineState): string => {
  const refs = new Map<object, number>();
  const all = parts(state);
  for (const [, v, book] of all) {
    if (book) for (const x of Object.values(v as object)) countRefs(x, refs);
    else countRefs(v, refs);
  }
  const enc = new Encoder(refs);
  const out: Record<string, Json> = {};
  for (const [k, v, book] of all) {
    out[k] = book ? { $b: enc.fields(v as object, k) } : enc.value(v, k);
  }
  return JSON.stringify(out);
};

/** Fills a fresh `state` from `text` (what `encodeState` wrote with this fingerprint). */
export const decodeState = (text: string, state: EngineState = new EngineState()): EngineState => {
  const dec = new Decoder();
  const target = state as unknown as Record<string, unknown>;
  for (const [k, j] of Object.entries(JSON.parse(text) as Record<string, Json>)) {
    const o = j as Readonly<Record<string, Json>> | null;
    if (o !== null && typeof o === "object" && "$b" in o) {
      const book = target[k] as Record<string, unknown>;
      for (const [f, x] of Object.entries(o.$b as Record<string, Json>)) book[f] = dec.value(x);
    } else target[k] = dec.value(j);
  }
  return state;
};
