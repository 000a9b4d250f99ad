import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grownCapacity, type PageArray, PagedArray } from "../src/PagedArray.ts";

// A paged array must read as one plain array would, through any growth, and a growth must
// never copy a whole page (the pages held stay the same objects).

type Op =
  | { readonly kind: "grow"; readonly slots: number }
  | { readonly kind: "next" }
  | { readonly kind: "reset"; readonly slots: number }
  | { readonly kind: "write"; readonly slot: number; readonly values: ReadonlyArray<number> }
  | { readonly kind: "set"; readonly slot: number; readonly value: number }
  | { readonly kind: "copy"; readonly from: number; readonly to: number };

// Mostly a few slots, so that copies read rows written before.
const slot = fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 24 }) }, fc.nat({ max: 200 }));
const op = (value: fc.Arbitrary<number>, width: number): fc.Arbitrary<Op> =>
  fc.oneof(
    slot.map((slots) => ({ kind: "grow" as const, slots })),
    fc.constant({ kind: "next" as const }),
    fc.nat({ max: 60 }).map((slots) => ({ kind: "reset" as const, slots })),
    ...[1, 2].map(() =>
      fc
        .tuple(slot, fc.array(value, { minLength: width, maxLength: width }))
        .map(([s, values]) => ({ kind: "write" as const, slot: s, values })),
    ),
    fc.tuple(slot, value).map(([s, v]) => ({ kind: "set" as const, slot: s, value: v })),
    ...[1, 2].map(() =>
      fc.tuple(slot, slot).map(([from, to]) => ({ kind: "copy" as const, from, to })),
    ),
  );

/** Runs `ops` on a paged array and on a plain array model, comparing after each. */
const agrees = <T extends PageArray>(
  make: new (length: number) => T,
  width: number,
  shift: number,
  blank: number,
  ops: ReadonlyArray<Op>,
): void => {
  const paged = new PagedArray(make, width, shift, blank);
  let model: Array<number> = [];
  const cap = () => model.length / width;
  for (const o of ops) {
    const before = paged.pages.slice();
    const fullBefore = Math.floor(paged.capacity / paged.pageSlots);
    if (o.kind === "grow" || o.kind === "next") {
      const slots = o.kind === "grow" ? o.slots : grownCapacity(paged.capacity, shift);
      paged.grow(slots);
      while (cap() < slots) model.push(...new Array<number>(width).fill(blank));
      // The whole pages held before are the same objects: nothing in them was copied.
      for (let p = 0; p < fullBefore; p++) expect(paged.pages[p]).toBe(before[p]);
    } else if (o.kind === "reset") {
      paged.reset(o.slots);
      model = new Array<number>(o.slots * width).fill(blank);
    } else if (o.kind === "write") {
      if (o.slot >= cap()) continue;
      paged.setRow(o.slot, o.values);
      for (let i = 0; i < width; i++) model[o.slot * width + i] = o.values[i]!;
    } else if (o.kind === "set") {
      if (o.slot >= cap()) continue;
      paged.set(o.slot, o.value);
      model[o.slot * width] = o.value;
    } else {
      if (o.from >= cap() || o.to >= cap()) continue;
      paged.copyRow(o.from, o.to);
      const row = model.slice(o.from * width, (o.from + 1) * width);
      for (let i = 0; i < width; i++) model[o.to * width + i] = row[i]!;
    }
    // What a plain array of the model's values reads as (an Int8Array wraps, etc.).
    const typed = new make(model.length);
    typed.set(model);
    const plain = Array.from(typed);
    expect(paged.capacity).toBe(cap());
    // Whole pages but the last; the pages hold exactly the capacity.
    const lengths = paged.pages.map((p) => p.length);
    for (let p = 0; p + 1 < lengths.length; p++) expect(lengths[p]).toBe(paged.pageSlots * width);
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(model.length);
    expect(paged.byteLength).toBe(typed.byteLength);
    const pieces = paged.pieces(cap());
    expect(pieces.flatMap((p) => Array.from(p))).toEqual(plain);
    const some = Math.floor(cap() / 2);
    expect(paged.pieces(some).flatMap((p) => Array.from(p))).toEqual(plain.slice(0, some * width));
    for (let s = 0; s < cap(); s++) {
      expect(Array.from(paged.row(s))).toEqual(plain.slice(s * width, (s + 1) * width));
      expect(paged.get(s)).toBe(plain[s * width]);
      expect(paged.page(s)[paged.offset(s)]).toBe(plain[s * width]);
    }
  }
};

describe("PagedArray", () => {
  it("property: reads as a plain array through growths, writes and copies (i8 rows)", () => {
    const width = 3;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.array(op(fc.integer({ min: -128, max: 127 }), width), { maxLength: 40 }),
        (shift, ops) => agrees(Int8Array, width, shift, 0, ops),
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 1000 : 150 },
    );
  });

  it("property: reads as a plain array through growths, writes and copies (f64, blank -1)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.array(op(fc.integer({ min: -1, max: 2 ** 40 }), 1), { maxLength: 40 }),
        (shift, ops) => agrees(Float64Array, 1, shift, -1, ops),
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 1000 : 150 },
    );
  });

  it("grows by an eighth, at least 1,024 slots, never past the page the next slot is in", () => {
    expect(grownCapacity(0, 14)).toBe(1024);
    expect(grownCapacity(1024, 14)).toBe(2048);
    expect(grownCapacity(16_000, 14)).toBe(16_384);
    // A whole page more once a store is eight pages or more.
    expect(grownCapacity(8 * 16_384, 14)).toBe(9 * 16_384);
    // A loaded store's short last page is filled up to the page's end.
    expect(grownCapacity(1_330_000, 14)).toBe(82 * 16_384);
    expect(grownCapacity(20_000, 14)).toBe(22_500);
    expect(grownCapacity(5000, 14)).toBe(6024);
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 30 }), fc.integer({ min: 0, max: 20 }), (held, shift) => {
        const next = grownCapacity(held, shift);
        const page = 2 ** shift;
        expect(next).toBeGreaterThan(held);
        expect(next - held).toBeLessThanOrEqual(Math.max(1024, held >>> 3));
        // The next slot's page and no further.
        expect(Math.floor((next - 1) / page)).toBe(Math.floor(held / page));
      }),
    );
  });

  it("copies a short last page once when it grows, and never a whole one", () => {
    const a = new PagedArray(Int8Array, 2, 4);
    a.reset(20);
    expect(a.pages.map((p) => p.length)).toEqual([32, 8]);
    a.setRow(17, [5, 6]);
    const first = a.pages[0];
    a.grow(70);
    expect(a.pages.map((p) => p.length)).toEqual([32, 32, 32, 32, 12]);
    expect(a.pages[0]).toBe(first);
    expect(Array.from(a.row(17))).toEqual([5, 6]);
    a.copyRow(17, 69);
    a.copyRow(17, 18);
    expect(Array.from(a.row(69))).toEqual([5, 6]);
    expect(Array.from(a.row(18))).toEqual([5, 6]);
  });
});
