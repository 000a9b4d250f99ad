import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HalfRows } from "../src/HalfRows.ts";
import { HALF_TABLE, toHalf, toHalfInto } from "../src/halfFloat.ts";

describe("f16 encoding of a row", () => {
  it("property: toHalfInto writes each float's toHalf, NaNs, infinities and subnormals too", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.float(),
            fc.float({ min: -1, max: 1 }),
            fc.constantFrom(Number.NaN, -0, 0, 1e-8, -6e-8, 7e4, -1e5, Number.POSITIVE_INFINITY),
            // f32 bit patterns of every kind: NaNs with payloads and either sign among them.
            fc
              .integer({ min: 0, max: 0xffffffff })
              .map((b) => new Float32Array(new Uint32Array([b]).buffer)[0]!),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        fc.nat(3),
        fc.nat(3),
        (xs, lead, at) => {
          // The row sits behind `lead` floats of an array that is itself a subarray.
          const backing = new Float32Array(1 + lead + xs.length + 2);
          backing.set(xs, 1 + lead);
          const v = backing.subarray(1);
          const out = new Uint16Array(at + xs.length);
          toHalfInto(v, lead, out, at, xs.length);
          for (let i = 0; i < xs.length; i++) expect(out[at + i]).toBe(toHalf(v[lead + i]!));
        },
      ),
    );
  });

  it("writes toHalf of every sign and exponent, at the mantissas where rounding turns", () => {
    // Each rounding edge: the bits a normal or subnormal half keeps, the bit rounded at, and past it.
    const mantissas = [0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x3000, 0x7fefff, 0x7ff000];
    for (let shift = 13; shift <= 24; shift++) {
      mantissas.push((1 << (shift - 1)) - 1, 1 << (shift - 1), (1 << shift) - 1);
    }
    const bits = new Uint32Array(512 * mantissas.length);
    for (let e = 0; e < 512; e++) {
      mantissas.forEach((m, j) => {
        bits[e * mantissas.length + j] = ((e << 23) | (m & 0x7fffff)) >>> 0;
      });
    }
    const v = new Float32Array(bits.buffer);
    const out = new Uint16Array(v.length);
    toHalfInto(v, 0, out, 0, v.length);
    const wrong = [...v.keys()].filter((i) => out[i] !== toHalf(v[i]!));
    expect(wrong.map((i) => bits[i]!.toString(16))).toEqual([]);
  });
});

/** Finite f16 values, of either sign: what a row is made of once stored. */
const half = fc
  .tuple(fc.integer({ min: 0, max: 0x7bff }), fc.boolean())
  .map(([bits, negative]) => HALF_TABLE[negative ? bits | 0x8000 : bits]!);
/**
 * Floats of full precision over a wide range of scales: terms whose sum rounds
 * differently when added in another order.
 */
const spread = fc
  .tuple(fc.integer({ min: -(2 ** 23), max: 2 ** 23 }), fc.integer({ min: -40, max: 40 }))
  .map(([m, e]) => Math.fround(m * 2 ** e));

describe("a cosine from f16 rows", () => {
  it("property: HalfRows.dot is the sum of each term in index order, bit for bit", () => {
    // Rankings tie-break on these sums: a faster dot must add the same terms in the same
    // order, or a recorded run's dossiers would rank differently.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((d) =>
          fc.tuple(
            fc.constant(d),
            fc.array(fc.array(fc.oneof(half, fc.float()), { minLength: d, maxLength: d }), {
              minLength: 1,
              maxLength: 4,
            }),
            fc.array(fc.oneof(spread, fc.float()), { minLength: d, maxLength: d }),
          ),
        ),
        ([d, rows, q]) => {
          const store = new HalfRows(d, 1);
          rows.forEach((r, slot) => {
            store.write(slot, Float32Array.from(r));
          });
          const query = Float32Array.from(q);
          const bits = new Uint16Array(d);
          rows.forEach((_, slot) => {
            store.read(slot, bits, 0);
            let sum = 0;
            for (let j = 0; j < d; j++) sum += HALF_TABLE[bits[j]!]! * query[j]!;
            expect(Object.is(store.dot(slot, query), sum)).toBe(true);
          });
        },
      ),
    );
  });
});
