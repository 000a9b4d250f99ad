/**
 * A line that closes its talk (`ends`): a `speak` answer or a planned `speak` step may say
 * it, an answer recorded before the field existed still decodes (as a line that leaves
 * the talk open), the field is a boolean or refused, and the scripted brain closes a talk
 * only with a line that ends on one of its voice's sign-offs.
 */

import { decodeOutput, outputFormat, ScriptedBrain } from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { phrasebooks } from "../src/scripted/phrasebooks.ts";
import { arbActInput, runs } from "./arbitraries.ts";

const signOffs = Object.values(phrasebooks).flatMap((book) => book.close);

describe("act: a line that closes its talk", () => {
  it("decodes `ends` on a speak answer and on a planned speak step", () => {
    const answer = {
      action: "speak",
      to: "bo",
      text: "Good day, Bo.",
      ends: true,
      agenda: [{ action: "speak", to: "bo", text: "Until later.", ends: true }],
    };
    const decoded = decodeOutput("act", answer);
    expect(Result.isSuccess(decoded)).toBe(true);
    const out = Result.getOrThrow(decoded);
    expect(out.action === "speak" && out.ends).toBe(true);
    expect(out.agenda?.[0]?.action === "speak" && out.agenda[0].ends).toBe(true);
  });

  it("decodes an answer recorded before `ends` existed: the line leaves the talk open", () => {
    const old = {
      action: "speak",
      to: "bo",
      text: "Did you hear the bell?",
      agenda: [{ action: "speak", to: "bo", text: "Well?" }],
    };
    const out = Result.getOrThrow(decodeOutput("act", old));
    expect(out.action === "speak" && out.ends).toBe(undefined);
    expect(out.agenda?.[0]?.action === "speak" && out.agenda[0].ends).toBe(undefined);
  });

  it("refuses an `ends` that is not a boolean", () => {
    const bad = { action: "speak", to: "bo", text: "Bye.", ends: "yes" };
    expect(Result.isFailure(decodeOutput("act", bad))).toBe(true);
  });

  it("offers `ends` to the model in the answer format", () => {
    expect(JSON.stringify(outputFormat("act"))).toContain('"ends"');
  });

  it("property: the scripted brain closes a talk only with a line ending on a sign-off, and not always", () => {
    const brain = ScriptedBrain.make();
    let closed = 0;
    let open = 0;
    fc.assert(
      fc.property(
        arbActInput,
        fc.nat(),
        fc.integer({ min: 0, max: 24 * 60 - 1 }),
        (given, seed, minute) => {
          const out = brain.decideSync({
            purpose: "act",
            npcId: given.self.id,
            t: (3 * 1440 + minute) as never,
            seed,
            input: given,
            dossier: null,
          }).output;
          const lines = [out, ...(out.agenda ?? [])].flatMap((a) =>
            a.action === "speak" ? [a] : [],
          );
          for (const line of lines) {
            const signsOff = signOffs.some((s) => line.text.endsWith(s));
            if (line.ends === true) {
              closed++;
              expect(signsOff).toBe(true);
            } else {
              open++;
              expect(line.ends).toBe(undefined);
            }
          }
        },
      ),
      { numRuns: runs(300) },
    );
    // Both kinds come up: the rule is a choice, not a constant.
    expect(closed).toBeGreaterThan(0);
    expect(open).toBeGreaterThan(0);
  });
});
