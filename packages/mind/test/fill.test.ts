/**
 * `fill` splits each template once and fills it from its parts: what it writes must be
 * what replacing every `{slot}` by the pattern writes, for any template — text around the
 * slots, slots with no value, braces that are no slot — and any slots given.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fill } from "../src/scripted/Voice.ts";
import { runs } from "./arbitraries.ts";

/** The rule `fill` keeps: each `{word}` replaced by its slot, left as it is without one. */
const byPattern = (template: string, slots: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (all, key: string) => slots[key] ?? all);

const pieceArb = fc.oneof(
  fc.constantFrom("{name}", "{place}", "{task}", "{x_1}", "{}", "{", "}", "{{name}}", "{ name}"),
  fc.string({ maxLength: 6 }),
);
const templateArb = fc.array(pieceArb, { maxLength: 8 }).map((ps) => ps.join(""));
const slotsArb = fc.dictionary(
  fc.constantFrom("name", "place", "x_1", "other"),
  fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("{name}", "$&", "$1")),
);

describe("fill", () => {
  it("property: writes what replacing every slot by the pattern writes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(templateArb, slotsArb), { maxLength: 20 }), (asks) => {
        // Asked in turn, so a template split for one ask is reused for the next.
        for (const [template, slots] of asks)
          expect(fill(template, slots)).toBe(byPattern(template, slots));
        for (const [template, slots] of asks)
          expect(fill(template, slots)).toBe(byPattern(template, slots));
      }),
      { numRuns: runs(300) },
    );
  });

  it("leaves a slot with no value as it is, and a value's own braces unfilled", () => {
    expect(fill("{name} met {who} at {place}.", { name: "{place}", place: "the mill" })).toBe(
      "{place} met {who} at the mill.",
    );
  });
});
