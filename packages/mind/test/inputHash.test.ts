import {
  addMinutes,
  canonicalJson,
  dossierReader,
  ids,
  renderDossier,
  sha256,
} from "@hearsay/core";
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

/** The definition: sha256 of the canonical JSON of the whole call, prompt rendered. */
const definition = (request: BrainRequest): string =>
  sha256(
    canonicalJson({
      purpose: request.purpose,
      npcId: request.npcId,
      t: request.t,
      input: request.input,
      prompt: request.dossier?.whole() ? renderDossier(request.dossier.whole()!) : null,
    }),
  );

/** A request whose dossier items carry any UTF-16 text, lone surrogates included. */
const arbOddText = fc.string({ unit: "binary", maxLength: 40 });

describe("inputHash", () => {
  it("is byte for byte the hash of the canonical JSON of the whole call (recordings keep matching)", () => {
    fc.assert(
      fc.property(arbAnyRequest, arbOddText, fc.boolean(), (request, odd, oddItem) => {
        const dossier =
          request.dossier === null || !oddItem
            ? request.dossier
            : dossierReader({
                ...request.dossier.whole()!,
                sections: [
                  {
                    name: "memories" as const,
                    budget: 9,
                    tokens: 1,
                    items: [{ kind: "memory" as const, id: "m", score: 1, tokens: 1, text: odd }],
                  },
                ],
              });
        const call = { ...request, dossier } as BrainRequest;
        expect(inputHash(call)).toBe(definition(call));
        // remembered per request object: asking again gives the same answer
        expect(inputHash(call)).toBe(definition(call));
      }),
      { numRuns: runs(300) },
    );
  });

  it("reads a dossier whole once and hashes what the prompt shows", () => {
    fc.assert(
      fc.property(arbAnyRequest, (request) => {
        let reads = 0;
        const inner = request.dossier;
        const counting =
          inner === null
            ? null
            : {
                section: inner.section,
                whole: () => {
                  reads += 1;
                  return inner.whole();
                },
              };
        const lazy = { ...request, dossier: counting } as BrainRequest;
        const hash = inputHash(lazy);
        expect(hash).toBe(definition(request));
        expect(inputHash(lazy)).toBe(hash);
        expect(reads).toBe(inner === null ? 0 : 1);
      }),
      { numRuns: runs(100) },
    );
  });

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
        const dossier = dossierReader({
          ...withNote,
          sections: [
            {
              name: "scene" as const,
              budget: 1,
              tokens: 1,
              items: [{ kind: "scene" as const, id: "s", score: 1, tokens: 1, text: "rain" }],
            },
          ],
        });
        expect(inputHash({ ...request, dossier } as BrainRequest)).not.toBe(
          inputHash({ ...request, dossier: null } as BrainRequest),
        );
      }),
      { numRuns: runs(50) },
    );
  });
});
