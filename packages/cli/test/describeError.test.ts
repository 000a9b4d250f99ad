/** The CLI's one error formatter: one line, and no quoted value longer than 80 characters. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeError } from "../src/describeError.ts";

const tagged = (message: string) => Object.assign(new Error(message), { _tag: "Whatever" });

describe("describeError", () => {
  it("cuts a 60 MB quoted value to 80 characters and an ellipsis", () => {
    const value = "y".repeat(60_000_000);
    expect(describeError(tagged(`f.json: a: expected a number, got "${value}" — fix it`))).toBe(
      `f.json: a: expected a number, got "${"y".repeat(80)}…" — fix it`,
    );
    expect(describeError(new Error(`boom '${value}'`))).toBe(
      `internal error: boom '${"y".repeat(80)}…'`,
    );
    expect(describeError(new Error(`boom \`${value}\``))).toBe(
      `internal error: boom \`${"y".repeat(80)}…\``,
    );
  });

  it("keeps short quoted values and the words around them as they are", () => {
    const line = 'x.json: npcs[2].home: expected a known location id, got "church" — fix the id';
    expect(describeError(tagged(line))).toBe(line);
  });

  it("never prints a long line, whatever the message", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 50 }),
        fc.string({ minLength: 2000, maxLength: 5000 }),
        (a, b) => {
          const line = describeError(tagged(`${a}${b}`));
          expect(line).not.toMatch(/\n/);
          expect(line.length).toBeLessThanOrEqual(600);
        },
      ),
      { numRuns: 50 },
    );
  });
});
