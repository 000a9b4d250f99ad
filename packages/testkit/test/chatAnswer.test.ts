/**
 * The fixture server's answer templates: `{ "$each": path, "as": template }` fills the
 * template once per element of the list at `path` (the element as `item`), and a
 * template whose list is missing is skipped for one that can be filled.
 */
import { gameTime, ids } from "@hearsay/core";
import { type BrainRequest, renderPrompt } from "@hearsay/mind";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chatAnswer, readPrompt } from "../src/ollama/chatAnswer.ts";

const templates = {
  good: [
    { all: { $each: "witnesses", as: { id: "$item.id", line: "{{item.name}} at {{place}}" } } },
    { none: true },
  ],
  schema_invalid: [],
  unknown_ids: [],
  malformed: [],
};

describe("chatAnswer", () => {
  it("repeats an $each template for every element of the list", () => {
    let filled = 0;
    for (const prompt of ["a", "b", "c", "d", "e", "f"]) {
      const input = {
        place: "the Mill",
        witnesses: [
          { id: "ana", name: "Ana" },
          { id: "bo", name: "Bo" },
        ],
      };
      const answer = JSON.parse(chatAnswer(templates, "good", input, prompt));
      expect(answer.none ?? false).toBe(answer.all === undefined);
      if (answer.all !== undefined)
        expect(answer.all).toEqual([
          { id: "ana", line: "Ana at the Mill" },
          { id: "bo", line: "Bo at the Mill" },
        ]);
      if (answer.all !== undefined) filled++;
    }
    expect(filled).toBeGreaterThan(0);
  });

  it("skips an $each template whose list the input lacks", () => {
    for (const prompt of ["a", "b", "c", "d"])
      expect(JSON.parse(chatAnswer(templates, "good", { place: "x" }, prompt))).toEqual({
        none: true,
      });
  });

  it("leaves out an $optional list element the input cannot fill, and fills $first with the first that fits", () => {
    const plans = {
      good: [
        {
          steps: [
            { $optional: { to: "$present.0.id" } },
            { $first: [{ task: "$tasks.0.id" }, { rest: 1 }] },
          ],
        },
      ],
      schema_invalid: [],
      unknown_ids: [],
      malformed: [],
    };
    const answer = (input: object) => JSON.parse(chatAnswer(plans, "good", input, "p"));
    expect(answer({ present: [{ id: "bo" }], tasks: [{ id: "t1" }] })).toEqual({
      steps: [{ to: "bo" }, { task: "t1" }],
    });
    expect(answer({ present: [], tasks: [] })).toEqual({ steps: [{ rest: 1 }] });
  });

  it("leaves out an $optional key the input cannot fill, and keeps the rest of the object", () => {
    const turns = {
      good: [{ text: "{{name}} speaks.", summary: { $optional: "{{closing.lines}} lines." } }],
      schema_invalid: [],
      unknown_ids: [],
      malformed: [],
    };
    const answer = (input: object) => JSON.parse(chatAnswer(turns, "good", input, "p"));
    expect(answer({ name: "Bo", closing: { lines: 4 } })).toEqual({
      text: "Bo speaks.",
      summary: "4 lines.",
    });
    expect(answer({ name: "Bo" })).toEqual({ text: "Bo speaks." });
  });
});

describe("readPrompt", () => {
  it("reads a prompt's input back whole, its standing fields from their own block", () => {
    fc.assert(
      fc.property(
        fc.record({
          self: fc.record({ id: fc.string(), name: fc.string() }),
          home: fc.option(fc.string()),
          location: fc.record({ id: fc.string() }),
          present: fc.array(fc.string(), { maxLength: 3 }),
          note: fc.string(),
        }),
        (input) => {
          const request = {
            purpose: "act",
            npcId: ids.npc("a"),
            t: gameTime(1),
            seed: 1,
            dossier: null,
            input,
          } as unknown as BrainRequest;
          const { system, user } = renderPrompt(request);
          const read = readPrompt([
            { role: "system", content: system },
            { role: "user", content: user },
          ]);
          expect(read).toEqual({ purpose: "act", input });
        },
      ),
      { numRuns: 100 },
    );
  });
});
