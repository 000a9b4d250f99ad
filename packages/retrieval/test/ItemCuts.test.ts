import { cutSection, itemTokens, oneLine, truncateToTokens } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = process.env.HEARSAY_DEEP ? 3000 : 150;

/** Cutting from scratch, every time: what the remembered cuts must equal. */
const reference = (text: string, cap: number): string | null => {
  if (itemTokens(text) <= cap) return text;
  const ws = text.split(" ");
  let lo = 0;
  let hi = ws.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (itemTokens(`${ws.slice(0, mid).join(" ")}…`) <= cap) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? null : `${ws.slice(0, lo).join(" ")}…`;
};

const text = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-zA-Z]{1,12}$/),
      fc.constantFrom("—", "\n", "  ", "day 3, 14:05", "Ünïcødé", "x".repeat(40)),
    ),
    { minLength: 1, maxLength: 120 },
  )
  .map((ws) => ws.join(" "));
const caps = fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 12 });

describe("remembered item cuts", () => {
  it("property: cutting a text to caps in any order gives what cutting from scratch gives", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), caps, (texts, cs) => {
        for (const cap of cs)
          for (const t of texts) expect(truncateToTokens(t, cap)).toBe(reference(t, cap));
      }),
      { numRuns: runs },
    );
  });

  it("property: a section cut twice is the same, and each item is its text folded and cut from scratch", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), fc.integer({ min: 0, max: 600 }), (ts, b) => {
        const candidates = ts.map((t, i) => ({
          kind: "memory" as const,
          id: `m${i}`,
          score: 1,
          text: t,
        }));
        const first = cutSection("memories", b, candidates);
        expect(cutSection("memories", b, candidates)).toEqual(first);
        for (const item of first.items) {
          const source = candidates.find((c) => c.id === item.id)!;
          const whole = oneLine(source.text);
          expect(item.text === whole || item.text.endsWith("…")).toBe(true);
          expect(item.tokens).toBe(itemTokens(item.text));
        }
      }),
      { numRuns: runs },
    );
  });
});
