/** Error text cut short (clipText) and the nearest known name for "did you mean". */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLIP_LINE, CLIP_VALUE, clipMessage, clipQuoted } from "../src/clipText.ts";
import { nearestName } from "../src/nearestName.ts";

describe("clipQuoted / clipMessage", () => {
  it("leaves text without quotes, and short quoted values, as they are", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }).filter((s) => !/["'`]/.test(s)),
        fc.string({ maxLength: CLIP_VALUE }).filter((s) => !/["\\]/.test(s)),
        (text, value) => {
          expect(clipQuoted(text)).toBe(text);
          const quoted = `${text} got "${value}" — fix it`;
          expect(clipQuoted(quoted)).toBe(quoted);
        },
      ),
    );
  });

  it("keeps a long quoted value's first 80 characters, then the rest of the line", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: CLIP_VALUE + 1, maxLength: 2000 }).filter((s) => !/["\\]/.test(s)),
        (value) => {
          expect(clipQuoted(`got "${value}" — fix it`)).toBe(
            `got "${value.slice(0, CLIP_VALUE)}…" — fix it`,
          );
        },
      ),
    );
  });

  it("an apostrophe inside a word opens no quote", () => {
    const text = `the NPC's ${"word ".repeat(40)}and the town's end`;
    expect(clipQuoted(text)).toBe(text);
  });

  it("no message comes out longer than a line", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), (text) => {
        expect(clipMessage(text).length).toBeLessThanOrEqual(CLIP_LINE);
      }),
    );
  });
});

describe("nearestName", () => {
  it("finds the setting a typo meant, and guesses nothing for a stranger", () => {
    expect(nearestName("olama", ["fallback", "ollama", "budgets"])).toBe("ollama");
    expect(nearestName("budget", ["fallback", "ollama", "budgets"])).toBe("budgets");
    expect(nearestName("hots", ["host", "chatModel"])).toBe("host");
    expect(nearestName("telemetry", ["fallback", "ollama", "budgets"])).toBeNull();
    expect(nearestName("age", ["id", "name", "home"])).toBeNull();
  });
});
