/**
 * The scripted `consolidate_memories` answer is clean text that decodes as the purpose's
 * output: it names the subject, is at most the schema's length, quotes nothing inside a
 * quotation, keeps no bare fragment, and ends a sentence.
 */
import { decodeOutput, ScriptedBrain } from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbRequest, runs } from "./arbitraries.ts";

describe("consolidate_memories, scripted", () => {
  it("property: a clean summary that names its subject and decodes", () => {
    const brain = ScriptedBrain.make();
    fc.assert(
      fc.property(arbRequest("consolidate_memories"), (request) => {
        const { summary } = brain.decideSync(request).output;
        expect(Result.isSuccess(decodeOutput("consolidate_memories", { summary }))).toBe(true);
        expect(summary).toContain(request.input.subject.name);
        expect(summary.length).toBeLessThanOrEqual(800);
        expect(summary).toMatch(/[.!?…]$/);
        // No quotation inside another: at most a pair of double quotes per sentence kept.
        expect(summary).not.toMatch(/"[^"]*"[^"]*"[^"]*"/);
        const sentences = summary.split(/(?<=[.!?…])\s+/).slice(1);
        for (const s of sentences) expect(s.split(/\s+/).length).toBeGreaterThanOrEqual(4);
      }),
      { numRuns: runs(200) },
    );
  });
});
