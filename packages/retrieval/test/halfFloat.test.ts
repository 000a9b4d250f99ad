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
});
