import { addMinutes, ids } from "@hearsay/core";
import { type BrainRequest, inputHash } from "@hearsay/mind";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbAnyRequest, arbDossier, runs } from "./arbitraries.ts";

/** The same value with every object's keys in reverse order. */
const reorder = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reorder)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reorder(v)]),
        )
      : value;

describe("inputHash", () => {
  it("is the same for equal requests whatever their key order, and ignores the seed", () => {
    fc.assert(
      fc.property(arbAnyRequest, fc.integer(), (request, seed) => {
        const hash = inputHash(request);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(inputHash(reorder(request) as BrainRequest)).toBe(hash);
        expect(inputHash({ ...request, seed } as BrainRequest)).toBe(hash);
      }),
      { numRuns: runs(200) },
    );
  });

  it("changes with the purpose, the NPC, the time, the input and the dossier", () => {
    fc.assert(
      fc.property(arbAnyRequest, (request) => {
        const hash = inputHash(request);
        expect(inputHash({ ...request, t: addMinutes(request.t, 1) } as BrainRequest)).not.toBe(
          hash,
        );
        expect(inputHash({ ...request, npcId: ids.npc("someone-else") } as BrainRequest)).not.toBe(
          hash,
        );
        expect(
          inputHash({
            ...request,
            purpose: request.purpose === "act" ? "profile" : "act",
          } as BrainRequest),
        ).not.toBe(hash);
        expect(
          inputHash({
            ...request,
            input: { ...request.input, extra: 1 } as unknown,
          } as BrainRequest),
        ).not.toBe(hash);
      }),
      { numRuns: runs(200) },
    );
    fc.assert(
      fc.property(arbAnyRequest, (request) => {
        const withNote = fc.sample(arbDossier(ids.npc("npc-1"), request.t), {
          numRuns: 1,
          seed: 1,
        })[0]!;
        const dossier = {
          ...withNote,
          sections: [
            {
              name: "scene" as const,
              budget: 1,
              tokens: 1,
              items: [{ kind: "scene" as const, id: "s", score: 1, tokens: 1, text: "rain" }],
            },
          ],
        };
        expect(inputHash({ ...request, dossier } as BrainRequest)).not.toBe(
          inputHash({ ...request, dossier: null } as BrainRequest),
        );
      }),
      { numRuns: runs(50) },
    );
  });
});
