/**
 * The `summarize_scene` purpose: the scripted brain's scene memory is well-formed, names
 * only those the witness shared the scene with, draws only on the items it was given
 * (a marker planted in an item the witness did not get never shows up), and differs
 * between witnesses and between voices.
 */
import { gameTime, ids, type SceneId } from "@hearsay/core";
import {
  type BrainRequest,
  decodeOutput,
  encodeOutput,
  purposeNames,
  ScriptedBrain,
  type SummarizeSceneInput,
  validateAnswer,
} from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbSceneInput, runs } from "./arbitraries.ts";

const brain = ScriptedBrain.make();

const ask = (input: SummarizeSceneInput, seed = 1): BrainRequest<"summarize_scene"> => ({
  purpose: "summarize_scene",
  npcId: input.self.id,
  t: gameTime(2, 14),
  seed,
  dossier: null,
  input,
});

const summaryOf = (input: SummarizeSceneInput, seed = 1) =>
  brain.decideSync(ask(input, seed)).output;

const markers = (text: string): ReadonlyArray<string> => text.match(/ZQ\d+/g) ?? [];

const [ana, bo, cy] = [ids.npc("ana"), ids.npc("bo"), ids.npc("cy")];
const self = (id: typeof ana, name: string, traits: Array<string>) => ({
  id,
  name,
  role: "smith",
  factionId: null,
  traits,
  speechStyle: null,
});
const glimpse = (id: typeof ana, name: string, regard: number) => ({
  id,
  name,
  role: "miller",
  factionId: null,
  regard,
});

/** One scene at the forge: Ana and Bo talked, then Bo and Cy. */
const lines = [
  { speakerId: ana, speakerName: "Ana", listenerIds: [bo], text: "The bellows split again." },
  { speakerId: bo, speakerName: "Bo", listenerIds: [ana], text: "I can patch it by dusk." },
  { speakerId: bo, speakerName: "Bo", listenerIds: [cy], text: "Cy, the ford is rising fast." },
  { speakerId: cy, speakerName: "Cy", listenerIds: [bo], text: "Then I'll move the boat." },
];
const heardBy = (id: typeof ana) =>
  lines.filter((l) => l.speakerId === id || l.listenerIds.includes(id));

const viewOf = (
  id: typeof ana,
  name: string,
  traits: Array<string>,
  company: SummarizeSceneInput["company"],
): SummarizeSceneInput => ({
  sceneId: "scene-1" as SceneId,
  self: self(id, name, traits),
  locationName: "the Forge",
  company,
  lines: heardBy(id),
  debates: [],
  happenings: [],
});

describe("summarize_scene", () => {
  it("is a registered purpose", () => {
    expect(purposeNames).toContain("summarize_scene");
  });

  it("answers every witness view with a summary that decodes, round-trips and passes the id check", () => {
    fc.assert(
      fc.property(arbSceneInput, fc.integer(), (input, seed) => {
        const output = summaryOf(input, seed);
        expect(output.summary.length).toBeGreaterThan(0);
        expect(output.summary.length).toBeLessThanOrEqual(1000);
        const decoded = decodeOutput("summarize_scene", encodeOutput("summarize_scene", output));
        expect(Result.isSuccess(decoded)).toBe(true);
        expect(Result.isSuccess(validateAnswer("summarize_scene", input, output))).toBe(true);
        for (const id of output.about) expect(input.company.map((c) => c.id)).toContain(id);
        expect(summaryOf(input, seed)).toEqual(output);
      }),
      { numRuns: runs(200) },
    );
  });

  it("mentions only items it was given: a marker in an item it did not get never appears", () => {
    const arbMarked = fc
      .tuple(arbSceneInput, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }))
      .map(([input, keep]) => {
        let n = 0;
        const mark = (text: string) => `ZQ${++n} ${text}`;
        const marked: SummarizeSceneInput = {
          ...input,
          lines: input.lines.map((l) => ({ ...l, text: mark(l.text) })),
          debates: input.debates.map((d) => ({ ...d, outcome: mark(d.outcome) })),
          happenings: input.happenings.map(mark),
        };
        // The witness is given a subset; the rest are items it did not know.
        const given: SummarizeSceneInput = {
          ...marked,
          lines: marked.lines.filter((_, i) => keep[i] ?? true),
          debates: marked.debates.filter((_, i) => keep[8 + i] ?? true),
          happenings: marked.happenings.filter((_, i) => keep[10 + i] ?? true),
        };
        return { marked, given };
      });
    fc.assert(
      fc.property(arbMarked, fc.integer(), ({ marked, given }, seed) => {
        const allowed = new Set(markers(JSON.stringify(given)));
        const withheld = markers(JSON.stringify(marked)).filter((m) => !allowed.has(m));
        const output = summaryOf(given, seed);
        for (const m of markers(output.summary)) expect(allowed).toContain(m);
        for (const m of withheld) expect(output.summary).not.toContain(`${m} `);
      }),
      { numRuns: runs(200) },
    );
  });

  it("gives each witness its own view: what it heard, and what it made of it", () => {
    const anaView = viewOf(ana, "Ana", ["warm"], [glimpse(bo, "Bo", 0.6)]);
    const cyView = viewOf(cy, "Cy", ["gruff"], [glimpse(bo, "Bo", -0.5)]);
    const a = summaryOf(anaView);
    const c = summaryOf(cyView);
    expect(a.summary).not.toBe(c.summary);
    expect(a.summary).toContain("patch it by dusk");
    expect(a.summary).not.toContain("move the boat");
    expect(c.summary).toContain("ford is rising");
    expect(c.summary).not.toContain("bellows");
    expect(a.about).toEqual([bo]);
  });

  it("sounds like the witness: another voice tells the same scene in other words", () => {
    const company = [glimpse(bo, "Bo", 0)];
    const texts = new Set(
      [["warm"], ["gruff"], ["formal"], ["sly"], ["pious"], ["nervous"], ["jovial"], []].map(
        (traits) => summaryOf(viewOf(ana, "Ana", traits, company)).summary,
      ),
    );
    expect(texts.size).toBeGreaterThanOrEqual(6);
  });

  it("refuses an answer about someone the witness did not meet", () => {
    const input = viewOf(ana, "Ana", [], [glimpse(bo, "Bo", 0)]);
    const checked = validateAnswer("summarize_scene", input, {
      summary: "I met a stranger.",
      importance: 0.3,
      about: [cy],
    });
    expect(Result.isFailure(checked)).toBe(true);
  });
});
