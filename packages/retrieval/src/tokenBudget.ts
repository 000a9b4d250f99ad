/**
 * Token budgets for the dossier: how many tokens each section may spend, how many items
 * each holds (memories 3–8, world events 2–5, lore 2–5, dialogue 2–6 …), presets for
 * big and small models, and the cutter that fills a section without ever exceeding it.
 *
 * Tokens are counted with core's `estimateTokens`, which over-counts Llama-3 BPE. The
 * cutter counts each rendered piece (`## Title\n`, `- item\n`, the blank line between
 * sections) on its own; the estimate is subadditive over pieces that end at a line
 * break, so the sum bounds the rendered prompt: `estimateTokens(renderDossier(d)) ≤
 * d.totalTokens ≤ d.budget` (tested as a property).
 */
import {
  type Dossier,
  type DossierItem,
  type DossierItemKind,
  type DossierSection,
  type DossierSectionName,
  dossierSectionNames,
  estimateTokens,
  type GameTime,
  type NpcId,
  renderDossier,
  type SaveId,
} from "@hearsay/core";
import { fitItem } from "./ItemCuts.ts";

export { itemTokens, oneLine } from "./ItemCuts.ts";

/** Tokens per section. */
export type SectionBudgets = Readonly<Record<DossierSectionName, number>>;

/** How many items a section aims for: at least `min` when there are that many, never over `max`. */
export interface SectionLimit {
  readonly min: number;
  readonly max: number;
}

export const sectionLimits: Readonly<Record<DossierSectionName, SectionLimit>> = {
  profile: { min: 1, max: 1 },
  relationships: { min: 1, max: 6 },
  lore: { min: 2, max: 5 },
  memories: { min: 3, max: 8 },
  world_events: { min: 2, max: 5 },
  debates: { min: 1, max: 3 },
  tasks: { min: 1, max: 4 },
  threads: { min: 1, max: 4 },
  scene: { min: 1, max: 2 },
  dialogue: { min: 2, max: 6 },
};

/** Default budgets, about 3,000 tokens in all, for 8B+ models with an 8k context. */
export const standardBudgets: SectionBudgets = {
  profile: 420,
  relationships: 220,
  lore: 460,
  memories: 640,
  world_events: 380,
  debates: 180,
  tasks: 180,
  threads: 120,
  scene: 160,
  dialogue: 340,
};

/** Scales the standard split to a total (rounding down, so the sum never exceeds it). */
export const scaleBudgets = (total: number): SectionBudgets => {
  const sum = dossierSectionNames.reduce((a, n) => a + standardBudgets[n], 0);
  const out = {} as Record<DossierSectionName, number>;
  for (const n of dossierSectionNames) {
    out[n] = Math.max(0, Math.floor((standardBudgets[n] * total) / sum));
  }
  return out;
};

/** Named presets: `standard` (~3,000), `small` for 7B models (~1,600), `tiny` for 4B (~900). */
export const budgetPresets = {
  standard: standardBudgets,
  small: scaleBudgets(1600),
  tiny: scaleBudgets(900),
} as const;
export type BudgetPreset = keyof typeof budgetPresets;

/** Sum of a budget split. */
export const totalBudget = (b: SectionBudgets): number =>
  dossierSectionNames.reduce((a, n) => a + b[n], 0);

/** The blank line between two rendered sections. */
const SEPARATOR = estimateTokens("\n\n");

const headerCost = new Map<DossierSectionName, number>();
/** Tokens of a section's title line (measured from core's renderer, so titles cannot drift). */
export const sectionOverhead = (name: DossierSectionName): number => {
  let cost = headerCost.get(name);
  if (cost === undefined) {
    const probe: Dossier = {
      saveId: "" as SaveId,
      npcId: "" as NpcId,
      npcName: "",
      t: 0 as GameTime,
      day: 0,
      query: null,
      budget: 0,
      totalTokens: 0,
      sections: [
        {
          name,
          budget: 0,
          tokens: 0,
          items: [{ kind: "lore", id: "", score: 0, tokens: 0, text: "" }],
        },
      ],
    };
    cost = estimateTokens(`${renderDossier(probe)}\n`) + SEPARATOR;
    headerCost.set(name, cost);
  }
  return cost;
};

/** The longest word-prefix of `text` (with "…") costing at most `cap` tokens, or null. */
export const truncateToTokens = (text: string, cap: number): string | null =>
  fitItem(text, cap, false)?.text ?? null;

/** A ranked candidate for a section. */
export interface SectionCandidate {
  readonly kind: DossierItemKind;
  readonly id: string;
  readonly score: number;
  readonly text: string;
  /** Its place in the order its kind entered the world (`DossierItem.order`). */
  readonly order?: number;
}

/**
 * Items shorter than this after truncation are dropped rather than kept as scraps, and a
 * section takes no more items once less than this is left of its budget.
 */
export const MIN_ITEM_TOKENS = 12;

/**
 * The fixed share of a section's budget each of its items may take under the `steady`
 * dossier rules: what is left after the title line, over the items the section aims for
 * at least (`SectionLimit.min`), so that many always fit — when the share is at least
 * `MIN_ITEM_TOKENS`: below it, what is left after the first items may be too little for
 * the section to take more, however short they are.
 */
export const itemShare = (name: DossierSectionName, budget: number): number =>
  Math.max(0, Math.floor((budget - sectionOverhead(name)) / Math.max(1, sectionLimits[name].min)));

/**
 * Fills one section from candidates in the given order (best first): up to `limit.max`
 * items, truncating an item at word bounds when it does not fit, and keeping room for
 * `limit.min` items. The section's `tokens` (title line included) never exceed `budget`;
 * an empty section costs nothing (it is not rendered).
 *
 * With `share` (the `steady` rules: `itemShare`), every item is cut to that share alone
 * and one that then does not fit what is left is passed over, so an item's text depends
 * on its own text and the share only: one item growing or arriving never shortens another.
 */
export const cutSection = (
  name: DossierSectionName,
  budget: number,
  candidates: ReadonlyArray<SectionCandidate>,
  limit: SectionLimit = sectionLimits[name],
  share?: number,
): DossierSection => {
  const overhead = sectionOverhead(name);
  let remaining = budget - overhead;
  const items: Array<DossierItem> = [];
  const wanted = Math.min(limit.min, candidates.length);
  for (const c of candidates) {
    if (items.length >= limit.max || remaining < MIN_ITEM_TOKENS) break;
    const requiredLeft = wanted - items.length;
    const cap =
      share !== undefined
        ? share
        : requiredLeft > 1
          ? Math.floor(remaining / requiredLeft)
          : remaining;
    const fitted = fitItem(c.text, cap, true);
    if (fitted === null) continue;
    const { text, tokens } = fitted;
    if (tokens > remaining || (tokens < MIN_ITEM_TOKENS && text.endsWith("…"))) continue;
    items.push(
      c.order === undefined
        ? { kind: c.kind, id: c.id, score: c.score, tokens, text }
        : { kind: c.kind, id: c.id, score: c.score, tokens, text, order: c.order },
    );
    remaining -= tokens;
  }
  const used = items.reduce((a, i) => a + i.tokens, 0);
  return { name, budget, tokens: items.length === 0 ? 0 : used + overhead, items };
};
