/**
 * The scripted brain reads a dossier only for a line that draws on it: it reads sections
 * (the engine builds each on its first read), each at most once per answer — however
 * many of its lines, the action's and its planned steps', draw on it — and never the
 * whole dossier, none for an answer that says nothing or only small talk; and a line
 * never repeats a dossier item it did not read.
 */
import { type Dossier, type DossierSectionName, dossierReader, gameTime, ids } from "@hearsay/core";
import { type ActInput, type BrainRequest, ScriptedBrain } from "@hearsay/mind";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });
const brain = ScriptedBrain.make({ tuning: { talkChance: 1 } });
/** The same rules answering with no plan: one line per answer, as the line-level odds count. */
const unplanned = ScriptedBrain.make({ tuning: { talkChance: 1, agendaSteps: 0 } });
const [ana, bo] = [ids.npc("ana"), ids.npc("bo")];
const inn = ids.location("inn");
const FACT = "A storm flooded the lower docks.";

const input: ActInput = {
  self: { id: ana, name: "Ana", role: "smith", factionId: null, traits: [], speechStyle: null },
  location: { id: inn, name: "the Lantern Inn", tags: ["tavern"] },
  reachable: [],
  present: [{ id: bo, name: "Bo", role: "guard", factionId: null, regard: 0.5 }],
  tasks: [],
  home: null,
  workplace: null,
};

const dossier: Dossier = {
  saveId: ids.save("s"),
  npcId: ana,
  npcName: "Ana",
  t: gameTime(4, 19),
  day: 4,
  query: null,
  budget: 500,
  totalTokens: 10,
  sections: [
    {
      name: "world_events",
      budget: 100,
      tokens: 10,
      items: [{ kind: "world_event", id: "we1", score: 0.9, tokens: 10, text: FACT }],
    },
  ],
};

/** An act request whose dossier reader notes every read. */
const counted = (seed: number, hour: number) => {
  const sections: Array<DossierSectionName> = [];
  let wholes = 0;
  const inner = dossierReader(dossier);
  const request: BrainRequest<"act"> = {
    purpose: "act",
    npcId: ana,
    t: gameTime(4, hour),
    seed,
    input,
    dossier: {
      section: (name) => {
        sections.push(name);
        return inner.section(name);
      },
      whole: () => {
        wholes += 1;
        return inner.whole();
      },
    },
  };
  return { request, reads: () => sections.length, sections, wholes: () => wholes };
};

describe("scripted dossier reads", () => {
  it("property: at most one read, none unless it speaks, and only read facts are said", () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 23 }), (seed, hour) => {
        const { request, reads, sections, wholes } = counted(seed, hour);
        const { output } = brain.decideSync(request);
        expect(new Set(sections).size).toBe(sections.length);
        expect(wholes()).toBe(0);
        const lines = [output, ...(output.agenda ?? [])].flatMap((a) =>
          a.action === "speak" ? [a.text] : [],
        );
        if (lines.length === 0) expect(reads()).toBe(0);
        if (!sections.includes("world_events"))
          for (const line of lines) expect(line).not.toContain(FACT);
      }),
      runs(300),
    );
  });

  it("speaks without reading the dossier some of the time, and shares from it often", () => {
    const spoken = Array.from({ length: 400 }, (_, seed) => {
      const { request, reads } = counted(seed, 19);
      const { output } = unplanned.decideSync(request);
      return { output, reads: reads() };
    }).filter((r) => r.output.action === "speak");
    expect(spoken.length).toBeGreaterThan(100);
    const unread = spoken.filter((r) => r.reads === 0).length;
    expect(unread).toBeGreaterThan(spoken.length * 0.05);
    expect(unread).toBeLessThan(spoken.length * 0.4);
    const shared = spoken.filter(
      (r) => r.output.action === "speak" && r.output.text.includes(FACT),
    );
    expect(shared.length).toBeGreaterThan(spoken.length * 0.3);
  });
});
