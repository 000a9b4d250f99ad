import {
  type Dossier,
  type DossierSectionName,
  dossierSectionNames,
  estimateTokens,
  type GameTime,
  type NpcId,
  renderDossier,
  type SaveId,
} from "@hearsay/core";
import {
  budgetPresets,
  cutSection,
  itemShare,
  itemTokens,
  scaleBudgets,
  sectionLimits,
  standardBudgets,
  totalBudget,
  truncateToTokens,
} from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitItem } from "../src/ItemCuts.ts";
import { MIN_ITEM_TOKENS } from "../src/tokenBudget.ts";

const runs = process.env.HEARSAY_DEEP ? 5000 : 150;
const text = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-zA-Z]{1,14}$/),
      fc.constantFrom("—", "\n", "…", "Ünïcødé", "x".repeat(90)),
    ),
    {
      maxLength: 400,
    },
  )
  .map((ws) => ws.join(" "));
const candidates = fc.array(
  fc.record({
    id: fc.string({ maxLength: 6 }),
    score: fc.double({ min: -50, max: 200, noNaN: true }),
    text,
  }),
  { maxLength: 14 },
);

describe("token budgets", () => {
  it("default budgets sum to about 3,000 and presets shrink", () => {
    expect(totalBudget(standardBudgets)).toBeGreaterThanOrEqual(2900);
    expect(totalBudget(standardBudgets)).toBeLessThanOrEqual(3100);
    expect(totalBudget(budgetPresets.small)).toBeLessThanOrEqual(1600);
    expect(totalBudget(budgetPresets.tiny)).toBeLessThanOrEqual(900);
    for (const n of [0, 17, 400, 1200, 5000])
      expect(totalBudget(scaleBudgets(n))).toBeLessThanOrEqual(n);
  });

  it("never lets a section exceed its budget or its item limit (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dossierSectionNames),
        fc.integer({ min: 0, max: 900 }),
        candidates,
        (name, budget, cs) => {
          const s = cutSection(
            name,
            budget,
            cs.map((c) => ({ kind: "memory", ...c })),
          );
          expect(s.tokens).toBeLessThanOrEqual(budget);
          expect(s.items.length).toBeLessThanOrEqual(sectionLimits[name].max);
          for (const i of s.items) expect(i.tokens).toBe(itemTokens(i.text));
          expect(s.tokens === 0).toBe(s.items.length === 0);
        },
      ),
      { numRuns: runs },
    );
  });

  it("cuts every item to a fixed share under the steady rules, whatever the others (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dossierSectionNames),
        fc.integer({ min: 0, max: 900 }),
        candidates,
        fc.nat(14),
        text,
        (name, budget, cs, at, extra) => {
          const share = itemShare(name, budget);
          // Ids made unique once, by each candidate's first place: they stay its own when
          // another comes in ahead of it.
          const keyed = cs.map((c, i) => ({ kind: "memory" as const, ...c, id: `${i}:${c.id}` }));
          const cut = (list: typeof keyed) =>
            cutSection(name, budget, list, sectionLimits[name], share);
          const s = cut(keyed);
          expect(s.tokens).toBeLessThanOrEqual(budget);
          expect(s.items.length).toBeLessThanOrEqual(sectionLimits[name].max);
          // As many items as the section aims for fit, when there are that many that fit
          // and the share is not so small that what is left stops the section first.
          const fitting = cs.filter((c) => {
            const f = fitItem(c.text, share, true);
            return f !== null && !(f.tokens < MIN_ITEM_TOKENS && f.text.endsWith("…"));
          });
          if (share >= MIN_ITEM_TOKENS)
            expect(s.items.length).toBeGreaterThanOrEqual(
              Math.min(sectionLimits[name].min, fitting.length),
            );
          // An item's text is its own text cut to the share: nothing else decides it...
          const byId = new Map(keyed.map((c) => [c.id, c.text]));
          for (const i of s.items) expect(i.text).toBe(fitItem(byId.get(i.id)!, share, true)!.text);
          // ... so another candidate coming in anywhere changes no item that stays.
          const more = [
            ...keyed.slice(0, at),
            { kind: "memory" as const, id: "new", score: 0, text: extra },
            ...keyed.slice(at),
          ];
          const after = new Map(cut(more).items.map((i) => [i.id, i.text]));
          for (const i of s.items) {
            const other = after.get(i.id);
            if (other !== undefined) expect(other).toBe(i.text);
          }
        },
      ),
      { numRuns: runs },
    );
  });

  it("bounds the rendered prompt: estimateTokens(render) <= totalTokens <= budget (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 4000 }),
        fc.array(candidates, {
          minLength: dossierSectionNames.length,
          maxLength: dossierSectionNames.length,
        }),
        (total, perSection) => {
          const budgets = scaleBudgets(total);
          const sections = dossierSectionNames.map((name, i) =>
            cutSection(
              name,
              budgets[name],
              perSection[i]!.map((c) => ({ kind: "lore", ...c })),
            ),
          );
          const d: Dossier = {
            saveId: "s" as SaveId,
            npcId: "n" as NpcId,
            npcName: "N",
            t: 0 as GameTime,
            day: 0,
            query: null,
            budget: totalBudget(budgets),
            totalTokens: sections.reduce((a, s) => a + s.tokens, 0),
            sections,
          };
          expect(d.totalTokens).toBeLessThanOrEqual(d.budget);
          expect(estimateTokens(renderDossier(d))).toBeLessThanOrEqual(d.totalTokens);
        },
      ),
      { numRuns: runs },
    );
  });

  it("fills the minimum number of items by truncating long ones", () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const s = cutSection(
      "memories" as DossierSectionName,
      300,
      [1, 2, 3, 4].map((i) => ({
        kind: "memory" as const,
        id: `m${i}`,
        score: 10 - i,
        text: long,
      })),
    );
    expect(s.items.map((i) => i.id)).toEqual(["m1", "m2", "m3"]);
    expect(s.items.every((i) => i.text.endsWith("…"))).toBe(true);
    expect(s.tokens).toBeLessThanOrEqual(300);
  });

  it("truncates at word bounds to fit, or gives up below one word", () => {
    const t = truncateToTokens("alpha beta gamma delta epsilon zeta eta theta", 8);
    expect(t).not.toBeNull();
    expect(itemTokens(t!)).toBeLessThanOrEqual(8);
    expect(t!.startsWith("alpha")).toBe(true);
    expect(truncateToTokens("supercalifragilistic", 2)).toBeNull();
  });
});
