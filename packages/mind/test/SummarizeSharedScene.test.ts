/**
 * The `summarize_shared_scene` purpose: the scripted brain answers one summary for each
 * witness, each valid and about others only, each told from that witness's part; the id
 * check refuses a summary for someone not asked, a witness summarised twice, and a
 * summary about its own witness.
 */
import { gameTime, ids, type SceneId } from "@hearsay/core";
import {
  type BrainRequest,
  decodeOutput,
  encodeOutput,
  ScriptedBrain,
  type SummarizeSharedSceneInput,
  validateAnswer,
} from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbSharedSceneInput, runs } from "./arbitraries.ts";

const brain = ScriptedBrain.make();

const ask = (input: SummarizeSharedSceneInput): BrainRequest<"summarize_shared_scene"> => ({
  purpose: "summarize_shared_scene",
  npcId: null,
  t: gameTime(2, 14),
  seed: 1,
  dossier: null,
  input,
});

const [ana, bo] = [ids.npc("ana"), ids.npc("bo")];
const talk: SummarizeSharedSceneInput = {
  sceneId: "scene-1" as SceneId,
  locationName: "the forge",
  witnesses: [
    { id: ana, name: "Ana", speechStyle: null },
    { id: bo, name: "Bo", speechStyle: "gruff and short" },
  ],
  present: [
    { id: ana, name: "Ana" },
    { id: bo, name: "Bo" },
  ],
  lines: [
    { speakerId: ana, speakerName: "Ana", listenerIds: [bo], text: "The bellows split again." },
    { speakerId: bo, speakerName: "Bo", listenerIds: [ana], text: "I can patch it by dusk." },
  ],
  debates: [],
  happenings: [],
};

describe("summarize_shared_scene", () => {
  it("answers each witness once, validly, about others only", () => {
    fc.assert(
      fc.property(arbSharedSceneInput, (input) => {
        const output = brain.decideSync(ask(input)).output;
        expect(output.summaries.map((s) => s.witnessId)).toEqual(input.witnesses.map((w) => w.id));
        for (const s of output.summaries) expect(s.about).not.toContain(s.witnessId);
        expect(Result.isSuccess(validateAnswer("summarize_shared_scene", input, output))).toBe(
          true,
        );
        const json = encodeOutput("summarize_shared_scene", output);
        expect(decodeOutput("summarize_shared_scene", json)).toEqual(Result.succeed(output));
      }),
      { numRuns: runs(150) },
    );
  });

  it("tells each witness's own part: what it said, and what was said to it", () => {
    const [a, b] = brain.decideSync(ask(talk)).output.summaries;
    expect(a!.summary).not.toEqual(b!.summary);
    expect(a!.summary).toContain("Bo");
    expect(b!.summary).toContain("Ana");
  });

  it("refuses a summary for someone not asked, a witness twice, or about its own witness", () => {
    const good = brain.decideSync(ask(talk)).output;
    const [a, b] = good.summaries as [(typeof good.summaries)[0], (typeof good.summaries)[0]];
    const refused = (summaries: typeof good.summaries) =>
      Result.isFailure(validateAnswer("summarize_shared_scene", talk, { summaries }));
    expect(refused([a, b])).toBe(false);
    expect(refused([a, { ...b, witnessId: ids.npc("cy") }])).toBe(true);
    expect(refused([a, a])).toBe(true);
    expect(refused([{ ...a, about: [ana] }, b])).toBe(true);
  });
});
