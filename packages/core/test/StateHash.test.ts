/**
 * Canonical JSON and the state hash: equal data hashes equal whatever order its keys were
 * built in, any change to a leaf changes the hash, arrays keep their order, and the text
 * is always JSON that reads back as the same value.
 */
import { canonicalJson, sha256, stateHash } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json };

/** JSON values with full-Unicode strings and keys (surrogate pairs, combining marks…). */
const arbJson: fc.Arbitrary<Json> = fc.jsonValue({
  maxDepth: 4,
  stringUnit: "grapheme",
}) as fc.Arbitrary<Json>;

const isObject = (v: Json): v is { readonly [k: string]: Json } =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The same value rebuilt with every object's keys inserted in the order `order` gives. */
const reorder = (v: Json, order: (keys: Array<string>) => Array<string>): Json => {
  if (Array.isArray(v)) return v.map((x) => reorder(x, order));
  if (!isObject(v)) return v;
  // fromEntries defines own properties, so a "__proto__" key stays an ordinary key.
  return Object.fromEntries(order(Object.keys(v)).map((k) => [k, reorder(v[k]!, order)]));
};

/** Reference canonical form: keys sorted by UTF-16 code units, ES number and string forms. */
const reference = (v: Json): string => {
  if (Array.isArray(v)) return `[${v.map(reference).join(",")}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(v[k]!)}`).join(",")}}`;
  }
  return JSON.stringify(v);
};

/** Paths (keys and indexes) to every leaf of a value. */
const leafPaths = (v: Json, at: Array<string | number> = []): Array<Array<string | number>> => {
  if (Array.isArray(v)) {
    return v.length === 0 ? [at] : v.flatMap((x, i) => leafPaths(x, [...at, i]));
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    return keys.length === 0 ? [at] : keys.flatMap((k) => leafPaths(v[k]!, [...at, k]));
  }
  return [at];
};

/** A copy of `v` with the leaf at `path` replaced by `f(leaf)`. */
const updateAt = (v: Json, path: ReadonlyArray<string | number>, f: (leaf: Json) => Json): Json => {
  if (path.length === 0) return f(v);
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? updateAt(x, rest, f) : x));
  const o = v as { readonly [k: string]: Json };
  return Object.fromEntries(
    Object.keys(o).map((k) => [k, k === head ? updateAt(o[k]!, rest, f) : o[k]!]),
  );
};

/** A leaf that differs from the given one as JSON data. */
const changed = (leaf: Json): Json => {
  if (leaf === null) return 0;
  if (typeof leaf === "boolean") return !leaf;
  if (typeof leaf === "number") return leaf === 0 ? 1 : -leaf;
  if (typeof leaf === "string") return `${leaf}x`;
  if (Array.isArray(leaf)) return [null];
  return { added: null };
};

describe("canonicalJson", () => {
  it("sorts keys, drops whitespace, keeps arrays in order", () => {
    expect(canonicalJson({ b: 1, a: [3, { d: true, c: null }], "": "x" })).toBe(
      '{"":"x","a":[3,{"c":null,"d":true}],"b":1}',
    );
    expect(canonicalJson([2, 1])).toBe("[2,1]");
    // RFC 8785 sorts by UTF-16 code units: "Z" < "a" < "é" < "😀" (a surrogate pair, 0xD83D).
    expect(canonicalJson({ "😀": 1, é: 2, a: 3, Z: 4 })).toBe('{"Z":4,"a":3,"é":2,"😀":1}');
    expect(canonicalJson(1e21)).toBe("1e+21");
    expect(canonicalJson(-0)).toBe("0");
  });

  it("property: independent of the order keys were inserted in", () => {
    fc.assert(
      fc.property(arbJson, (v) => {
        const reversed = reorder(v, (ks) => [...ks].reverse());
        const sorted = reorder(v, (ks) => [...ks].sort());
        expect(canonicalJson(reversed)).toBe(canonicalJson(v));
        expect(canonicalJson(sorted)).toBe(canonicalJson(v));
        expect(stateHash(reversed)).toBe(stateHash(v));
      }),
      runs(200),
    );
  });

  it("property: independent of any insertion order (random permutation per object)", () => {
    fc.assert(
      fc.property(arbJson, fc.infiniteStream(fc.nat()), (v, picks) => {
        const it = picks[Symbol.iterator]();
        const shuffled = reorder(v, (ks) => {
          const out = [...ks];
          for (let i = out.length - 1; i > 0; i--) {
            const j = it.next().value! % (i + 1);
            [out[i], out[j]] = [out[j]!, out[i]!];
          }
          return out;
        });
        expect(canonicalJson(shuffled)).toBe(canonicalJson(v));
      }),
      runs(150),
    );
  });

  it("property: equals the reference canonical form and reads back as the same data", () => {
    fc.assert(
      fc.property(arbJson, (v) => {
        const text = canonicalJson(v);
        expect(text).toBe(reference(v));
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      runs(200),
    );
  });

  it("property: arrays keep their order", () => {
    fc.assert(
      fc.property(
        fc.array(arbJson, { minLength: 2, maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        (xs, a, b) => {
          const i = a % xs.length;
          const j = b % xs.length;
          fc.pre(canonicalJson(xs[i]) !== canonicalJson(xs[j]));
          const swapped = xs.map((x, k) => (k === i ? xs[j]! : k === j ? xs[i]! : x));
          expect(canonicalJson(swapped)).not.toBe(canonicalJson(xs));
          expect(stateHash(swapped)).not.toBe(stateHash(xs));
        },
      ),
      runs(150),
    );
  });

  it("a top-level value with no JSON form is refused with a TypeError", () => {
    // json-canonicalize 3 returns the text "undefined" for these instead of undefined.
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
    expect(() => canonicalJson(Symbol("s"))).toThrow(TypeError);
  });

  it("a nested function or symbol is refused or dropped, never written as text that is not JSON", () => {
    for (const v of [{ a: 1, f: () => 1 }, [Symbol("s")], { s: Symbol("s") }]) {
      let text: string;
      try {
        text = canonicalJson(v);
      } catch (e) {
        expect(e).toBeInstanceOf(TypeError);
        continue;
      }
      expect(() => JSON.parse(text), text).not.toThrow();
    }
  });

  it("non-finite numbers and bigints are refused (RFC 8785 has no form for them)", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow();
    expect(() => canonicalJson([Number.NEGATIVE_INFINITY])).toThrow();
    expect(() => canonicalJson(10n)).toThrow();
  });

  it("undefined members follow JSON: dropped from objects, null in arrays", () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
  });
});

describe("stateHash", () => {
  it("is the sha256 hex of the canonical JSON", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(stateHash({ b: 2, a: 1 })).toBe(sha256('{"a":1,"b":2}'));
  });

  it("property: equal values hash equal, and the hash is 64 hex digits", () => {
    fc.assert(
      fc.property(arbJson, (v) => {
        const h = stateHash(v);
        expect(h).toMatch(/^[0-9a-f]{64}$/);
        expect(stateHash(structuredClone(v))).toBe(h);
        expect(stateHash(JSON.parse(JSON.stringify(v)))).toBe(h);
      }),
      runs(150),
    );
  });

  it("property: changing any one leaf changes the hash", () => {
    fc.assert(
      fc.property(arbJson, fc.nat(), (v, pick) => {
        const paths = leafPaths(v);
        const path = paths[pick % paths.length]!;
        const w = updateAt(v, path, changed);
        expect(stateHash(w)).not.toBe(stateHash(v));
      }),
      runs(200),
    );
  });

  it("property: renaming a key changes the hash", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), arbJson, { minKeys: 1, maxKeys: 6 }),
        fc.nat(),
        (o, pick) => {
          const keys = Object.keys(o);
          const k = keys[pick % keys.length]!;
          fc.pre(!keys.includes(`${k}_`));
          const renamed = Object.fromEntries(
            Object.entries(o).map(([key, x]) => [key === k ? `${k}_` : key, x]),
          );
          expect(stateHash(renamed)).not.toBe(stateHash(o));
        },
      ),
      runs(150),
    );
  });
});
