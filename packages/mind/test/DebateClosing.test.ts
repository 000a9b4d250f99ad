import { ids } from "@hearsay/core";
import {
  type BrainRequest,
  decodeOutput,
  encodeOutput,
  inputHash,
  ScriptedBrain,
} from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbRequest, runs } from "./arbitraries.ts";

const brain = ScriptedBrain.make();

/** The same request with its input's `closes` flag set, or left out. */
const withCloses = (
  request: BrainRequest<"debate_turn">,
  closes: boolean,
): BrainRequest<"debate_turn"> => {
  const { closes: _, ...rest } = request.input;
  return { ...request, input: closes ? { ...rest, closes: true } : rest };
};

describe("a debate's closing turn (scripted)", () => {
  it("property: carries the summary a separate call would give for every line, its own included; other turns carry none", () => {
    fc.assert(
      fc.property(arbRequest("debate_turn"), (request) => {
        const plain = brain.decideSync(withCloses(request, false)).output;
        const closing = brain.decideSync(withCloses(request, true)).output;
        expect(plain.summary).toBeUndefined();
        expect(plain.outcome).toBeUndefined();
        // The flag changes nothing of the line itself.
        const { summary, outcome, ...line } = closing;
        expect(line).toEqual(plain);
        const { input } = request;
        const separate = brain.decideSync({
          purpose: "summarize_debate",
          npcId: null,
          t: request.t,
          seed: request.seed,
          dossier: null,
          input: {
            debateId: input.debateId,
            topic: input.topic,
            participants: input.participants,
            turns: [
              ...input.previous,
              {
                speakerId: input.self.id,
                speakerName: input.self.name,
                text: plain.text,
                stance: plain.stance,
              },
            ],
          },
        }).output;
        expect({ summary, outcome }).toEqual(separate);
        // The carried answer is one the schema accepts, as a model's would be decoded.
        const decoded = decodeOutput("debate_turn", encodeOutput("debate_turn", closing));
        expect(Result.isSuccess(decoded)).toBe(true);
        if (Result.isSuccess(decoded)) expect(decoded.success).toEqual(closing);
      }),
      { numRuns: runs(200) },
    );
  });

  it("an input without the flag hashes as it did before the flag existed", () => {
    const request: BrainRequest<"debate_turn"> = {
      purpose: "debate_turn",
      npcId: ids.npc("ana"),
      t: 1000 as never,
      seed: 3,
      dossier: null,
      input: {
        debateId: ids.debate("d1"),
        topic: "the ford toll",
        round: 0,
        self: {
          id: ids.npc("ana"),
          name: "Ana",
          role: "smith",
          factionId: null,
          traits: [],
          speechStyle: null,
        },
        participants: [{ id: ids.npc("ana"), name: "Ana" }],
        previous: [],
      },
    };
    // Pinned: an input that leaves the flag out keeps the hash its recordings were keyed by.
    expect(inputHash(request)).toBe(PINNED);
    expect(inputHash(withCloses(request, true))).not.toBe(PINNED);
  });
});

const PINNED = "1ef6e29b69051836e30840d06e31e414a793430340f7cadd0a506565e2c49bba";
