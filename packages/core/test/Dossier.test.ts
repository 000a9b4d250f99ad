/**
 * A deferred dossier builds each section on its first read and is, to every reader, the
 * dossier its sections make: the same sections whatever was read first, each built once,
 * none built unread, and none built after its turn was sealed.
 */
import {
  type DossierHead,
  type DossierSection,
  type DossierSectionName,
  deferDossier,
  dossierSectionNames,
  type GameTime,
  type NpcId,
  renderDossier,
  type SaveId,
  sealDossier,
  settleDossier,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 20 : n });

const head: DossierHead = {
  saveId: "s" as SaveId,
  npcId: "ada" as NpcId,
  npcName: "Ada",
  t: 600 as GameTime,
  day: 0,
  query: null,
  budget: 3000,
};

const itemArb = fc.record({
  kind: fc.constantFrom("memory" as const, "lore" as const, "dialogue" as const),
  id: fc.string({ minLength: 1, maxLength: 6 }),
  score: fc.double({ min: 0, max: 100, noNaN: true }),
  tokens: fc.integer({ min: 1, max: 200 }),
  text: fc.string({ maxLength: 30 }),
});

/** Sections as a builder would cut them: any items, each section with its own budget. */
const sectionsArb = fc
  .tuple(...dossierSectionNames.map(() => fc.array(itemArb, { maxLength: 4 })))
  .map((lists) =>
    dossierSectionNames.map(
      (name, i): DossierSection => ({
        name,
        budget: 100 + i,
        tokens: lists[i]!.reduce((a, item) => a + item.tokens, 0),
        items: lists[i]!,
      }),
    ),
  );

const budgetsOf = (sections: ReadonlyArray<DossierSection>) =>
  Object.fromEntries(sections.map((s) => [s.name, s.budget])) as Record<DossierSectionName, number>;

/** A deferred dossier over fixed sections, logging each build. */
const deferred = (sections: ReadonlyArray<DossierSection>) => {
  const built: Array<DossierSectionName> = [];
  const dossier = deferDossier(head, budgetsOf(sections), (name) => {
    built.push(name);
    return sections.find((s) => s.name === name)!;
  });
  return { dossier, built };
};

const eager = (sections: ReadonlyArray<DossierSection>) => ({
  ...head,
  totalTokens: sections.reduce((a, s) => a + s.tokens, 0),
  sections,
});

describe("deferDossier", () => {
  it("builds exactly the sections read, once each, and reads the same as the eager dossier", () => {
    fc.assert(
      fc.property(
        sectionsArb,
        fc.array(fc.constantFrom(...dossierSectionNames), { maxLength: 14 }),
        (sections, reads) => {
          const { dossier, built } = deferred(sections);
          // Names and budgets are there without building anything.
          expect(dossier.sections.map((s) => [s.name, s.budget])).toEqual(
            sections.map((s) => [s.name, s.budget]),
          );
          expect(built).toEqual([]);
          for (const name of reads) {
            const s = dossier.sections.find((x) => x.name === name)!;
            expect(s.items).toEqual(sections.find((x) => x.name === name)!.items);
          }
          expect(built).toEqual([...new Set(reads)]);
          // Read in full — settled, rendered or spread — it is the eager dossier.
          expect(settleDossier(dossier)).toEqual(eager(sections));
          expect(renderDossier(dossier)).toBe(renderDossier(eager(sections)));
          expect(dossier.totalTokens).toBe(eager(sections).totalTokens);
          expect(built.length).toBe(dossierSectionNames.length);
        },
      ),
      runs(100),
    );
  });

  it("once sealed, reads what was built and throws on a section not built", () => {
    fc.assert(
      fc.property(sectionsArb, fc.subarray([...dossierSectionNames]), (sections, read): void => {
        const { dossier, built } = deferred(sections);
        for (const name of read) void dossier.sections.find((s) => s.name === name)!.tokens;
        sealDossier(dossier);
        for (const s of dossier.sections) {
          if (read.includes(s.name))
            expect(s.items).toEqual(sections.find((x) => x.name === s.name)!.items);
          else expect(() => s.items).toThrow(/read after its turn ended/);
        }
        expect(built.sort()).toEqual([...read].sort());
      }),
      runs(100),
    );
  });

  it("refuses a builder that gives another section or budget than the one asked for", () => {
    const sections = dossierSectionNames.map(
      (name): DossierSection => ({ name, budget: 10, tokens: 0, items: [] }),
    );
    const wrongName = deferDossier(head, budgetsOf(sections), () => sections[0]!);
    expect(() => wrongName.sections[1]!.items).toThrow(/built as "profile"/);
    const wrongBudget = deferDossier(
      head,
      { ...budgetsOf(sections), lore: 11 },
      (name) => sections.find((s) => s.name === name)!,
    );
    expect(() => wrongBudget.sections[2]!.items).toThrow(/budget 10, not 11/);
  });
});
