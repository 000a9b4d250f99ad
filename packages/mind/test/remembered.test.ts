/**
 * The scripted brain's quotation rules remember their answers (`remembered`): a remembered
 * answer must be the one computing it gives, for every text and every `n`, across the
 * cache being dropped when it is full — and the rule must not be computed again for an
 * answer still held, null answers included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quotable, snippet, unquotedText } from "../src/scripted/quoted.ts";
import { remembered } from "../src/scripted/remembered.ts";
import { runs } from "./arbitraries.ts";

/** A pure rule whose answer depends on both arguments, null for some of them. */
const rule = (text: string, n: number): string | null =>
  text.length % 3 === 0 && n % 2 === 0 ? null : `${n}:${text.slice(0, n)}`;

describe("remembered", () => {
  it("answers as the rule does, whatever was asked before and however small its bound", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.constantFrom("", "a", "ab", "abc", "abcd", "x y"), fc.nat(4)), {
          maxLength: 60,
        }),
        (limit, asks) => {
          const f = remembered(rule, limit);
          for (const [text, n] of asks) expect(f(text, n)).toBe(rule(text, n));
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("computes an answer it still holds only once, a null one too", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("", "abc", "q", "xyz"), fc.constantFrom(0, 2, 5)), {
          maxLength: 40,
        }),
        (asks) => {
          let computed = 0;
          const f = remembered((text: string, n: number) => {
            computed += 1;
            return rule(text, n);
          }, 64);
          for (const [text, n] of asks) f(text, n);
          expect(computed).toBe(new Set(asks.map(([text, n]) => `${n}|${text}`)).size);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it("starts over once full, and still answers right", () => {
    let computed = 0;
    const f = remembered((text: string, n: number) => {
      computed += 1;
      return `${text}${n}`;
    }, 2);
    expect([f("a", 1), f("b", 1), f("a", 1)]).toEqual(["a1", "b1", "a1"]);
    expect(computed).toBe(2);
    expect(f("c", 1)).toBe("c1"); // the third answer drops the two held
    expect(f("a", 1)).toBe("a1");
    expect(computed).toBe(4);
  });
});

describe("the remembered quotation rules", () => {
  it("give the same answer asked again, with other lengths asked in between", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (text, max) => {
        const first = [snippet(text, max), quotable(text, max), unquotedText(text)];
        snippet(text, max + 1);
        quotable(text, max + 1);
        expect([snippet(text, max), quotable(text, max), unquotedText(text)]).toEqual(first);
      }),
      { numRuns: runs(200) },
    );
  });

  it("tell lengths apart: a shorter cut of a long sentence is never the longer one", () => {
    const text = "The miller swore the new weir would flood every field below the old bridge.";
    expect(snippet(text, 200)).toBe(text);
    expect(snippet(text, 20)).toBe("The miller swore…");
    expect(quotable(text, 200)).toBe(text);
    expect(quotable(text, 20)).toBe("The miller swore…");
  });
});
