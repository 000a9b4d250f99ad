/**
 * A section of a turn among NPCs under the `stable` dossier rules that comes in two parts
 * within its one budget (its memories, its world events). First what the NPC stands in
 * selects — ranked by its place and open tasks as of the start of the day — which changes
 * when it moves, takes up a task or a day begins, not from one turn to the next; then, in
 * what is left, what the turn ranks now (its query's memories, the day's news) that the
 * first part does not already hold. A prompt lists the first part with the sections that
 * stay, the second after them (core's `DossierItem.standing`), so a model server can
 * reuse a prompt up to what the turn itself brings.
 */
import type { DossierItem, DossierSection, DossierSectionName } from "@hearsay/core";
import {
  cutSection,
  type SectionCandidate,
  type SectionLimit,
  sectionLimits,
  sectionOverhead,
} from "./tokenBudget.ts";

/**
 * The section: standing candidates (best first) cut to `share` of `budget` and
 * `standingLimit`, then the turn's candidates not among them cut to what is left, up to
 * the section's own item limit, every item cut to `itemShare` when given (`cutSection`);
 * `parted` (the `steady` rules) marks the section as one of two parts however many items
 * its first part holds.
 * Its tokens never exceed `budget`, as `cutSection`'s do not.
 */
export const cutStandingSection = (
  name: DossierSectionName,
  budget: number,
  standing: ReadonlyArray<SectionCandidate>,
  moment: ReadonlyArray<SectionCandidate>,
  standingLimit: SectionLimit,
  share: number,
  itemShare?: number,
  parted = false,
): DossierSection => {
  const overhead = sectionOverhead(name);
  const first = cutSection(name, Math.floor(budget * share), standing, standingLimit, itemShare);
  const held = new Set(first.items.map((i) => i.id));
  const limit = sectionLimits[name];
  // The second cut pays the section's title line only when the first part is empty.
  const left = first.items.length === 0 ? budget : budget - first.tokens + overhead;
  const second = cutSection(
    name,
    left,
    moment.filter((c) => !held.has(c.id)),
    {
      min: Math.max(0, limit.min - first.items.length),
      max: Math.max(0, limit.max - first.items.length),
    },
    itemShare,
  );
  const items: Array<DossierItem> = [
    ...first.items.map((i) => ({ ...i, standing: true as const })),
    ...second.items,
  ];
  const used = items.reduce((a, i) => a + i.tokens, 0);
  const tokens = items.length === 0 ? 0 : used + overhead;
  return parted ? { name, budget, tokens, items, parted: true } : { name, budget, tokens, items };
};
