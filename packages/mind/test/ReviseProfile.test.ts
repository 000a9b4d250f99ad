import { ids, type NpcProfile, reviseProfile } from "@hearsay/core";
import { decodeOutput, ScriptedBrain } from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbReviseInput } from "./arbitraries.ts";

const brain = ScriptedBrain.make();
const revise = (input: typeof arbReviseInput extends fc.Arbitrary<infer I> ? I : never) =>
  brain.decideSync({
    purpose: "revise_profile",
    npcId: input.self.id,
    t: 0 as never,
    seed: 7,
    dossier: null,
    input,
  }).output;

const keys = (p: NpcProfile) => Object.keys(p) as Array<keyof NpcProfile>;

describe("scripted revise_profile", () => {
  it("answers only fields that change, and laid over the profile keeps every other field", () => {
    fc.assert(
      fc.property(arbReviseInput, (input) => {
        const out = revise(input);
        expect(Result.isSuccess(decodeOutput("revise_profile", out))).toBe(true);
        const next = reviseProfile(input.profile, out.changes);
        for (const key of keys(input.profile)) {
          if (key in out.changes) expect(next[key]).not.toEqual(input.profile[key]);
          else expect(next[key]).toEqual(input.profile[key]);
        }
      }),
    );
  });

  it("every trigger with its evidence changes the profile, deterministically", () => {
    fc.assert(
      fc.property(arbReviseInput, (input) => {
        const out = revise(input);
        expect(Object.keys(out.changes).length).toBeGreaterThan(0);
        expect(revise(input)).toEqual(out);
      }),
    );
  });

  it("writes clean text: one closing 'Of late' sentence, no slot, no quote inside a quote", () => {
    fc.assert(
      fc.property(arbReviseInput, (input) => {
        const out = revise(input);
        const story = reviseProfile(input.profile, out.changes).backstory;
        expect(story.split("Of late, ").length - 1).toBeLessThanOrEqual(1);
        const lately = story.slice(story.indexOf("Of late, "));
        for (const text of [lately, out.reason, out.changes.relationshipSeed ?? ""]) {
          expect(text).not.toMatch(/\{\w+\}/);
          // Quotes pair up and nothing quoted holds another double quote.
          expect((text.match(/"/g) ?? []).length % 2).toBe(0);
        }
        expect(out.reason.length).toBeLessThanOrEqual(300);
      }),
    );
  });

  it("a feud takes the other out of the loyalties and names them in the relationship seed", () => {
    const bram = {
      id: ids.npc("bram"),
      name: "Bram Holt",
      role: "smith",
      factionId: null,
      regard: -0.7,
    };
    const out = revise({
      self: {
        id: ids.npc("ada"),
        name: "Ada Reed",
        role: "miller",
        factionId: null,
        traits: [],
        speechStyle: null,
      },
      profile: {
        backstory: "Ada Reed was born in The Mill.",
        personality: "careful, warm",
        speechStyle: "Plain and kind.",
        goals: ["keep the people they love safe"],
        fears: ["being unable to help"],
        loyalties: ["The Millers", "Bram Holt"],
        relationshipSeed: "Ada Reed trusts Bram Holt most.",
      },
      triggers: ["feud"],
      completed: [],
      broken: [],
      feuds: [bram],
      days: 3,
    });
    expect(out.changes.loyalties).toEqual(["The Millers"]);
    expect(out.changes.relationshipSeed).toContain("no longer trusts Bram Holt");
    expect(out.changes.backstory).toBe(
      "Ada Reed was born in The Mill. Of late, they fell out with Bram Holt.",
    );
    expect(out.changes).not.toHaveProperty("personality");
    expect(out.changes).not.toHaveProperty("speechStyle");
  });
});
