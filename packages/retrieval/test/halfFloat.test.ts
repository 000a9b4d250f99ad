import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHalf, toHalfInto } from "../src/halfFloat.ts";

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
