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
  dossierReader,
  dossierSectionNames,
  type GameTime,
  type NpcId,
  renderDossier,
  type SaveId,
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
  it("builds exactly the sections read, once each, and reads whole as the eager dossier", () => {
    fc.assert(
      fc.property(
        sectionsArb,
        fc.array(fc.constantFrom(...dossierSectionNames), { maxLength: 14 }),
        (sections, reads) => {
          const { dossier, built } = deferred(sections);
          expect(dossier.head).toEqual(head);
          expect(built).toEqual([]);
          for (const name of reads)
            expect(dossier.section(name)!.items).toEqual(
              sections.find((x) => x.name === name)!.items,
            );
          expect(built).toEqual([...new Set(reads)]);
          // Read whole, it is the eager dossier, built once.
          const whole = dossier.whole();
          expect(whole).toEqual(eager(sections));
          expect(dossier.whole()).toBe(whole);
          expect(renderDossier(whole!)).toBe(renderDossier(eager(sections)));
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
        for (const name of read) void dossier.section(name);
        dossier.seal();
        for (const s of sections) {
          if (read.includes(s.name)) expect(dossier.section(s.name)!.items).toEqual(s.items);
          else expect(() => dossier.section(s.name)).toThrow(/read after its turn ended/);
        }
        if (read.length < dossierSectionNames.length)
          expect(() => dossier.whole()).toThrow(/read after its turn ended/);
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
    expect(() => wrongName.section("relationships")).toThrow(/built as "profile"/);
    const wrongBudget = deferDossier(
      head,
      { ...budgetsOf(sections), lore: 11 },
      (name) => sections.find((s) => s.name === name)!,
    );
    expect(() => wrongBudget.section("lore")).toThrow(/budget 10, not 11/);
  });
});

describe("dossierReader", () => {
  it("reads the sections a built dossier has, and the dossier itself whole", () => {
    fc.assert(
      fc.property(sectionsArb, fc.subarray([...dossierSectionNames]), (sections, kept) => {
        const d = eager(sections.filter((s) => kept.includes(s.name)));
        const reader = dossierReader(d);
        expect(reader.whole()).toBe(d);
        for (const name of dossierSectionNames)
          expect(reader.section(name)).toEqual(
            kept.includes(name) ? sections.find((s) => s.name === name) : undefined,
          );
      }),
      runs(50),
    );
    expect(dossierReader(null).whole()).toBeNull();
    expect(dossierReader(null).section("profile")).toBeUndefined();
  });
});
