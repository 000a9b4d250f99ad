/**
 * The dossier: the small slice of the world one NPC is handed for one turn. Retrieval
 * builds it; brains read it. Sections run from the most stable text (who I am) to the
 * least stable (what was just said), so a model server can reuse its prompt cache
 * across turns.
 */
import { type FencedText, fenceData } from "./fenceData.ts";
import type { GameTime } from "./GameTime.ts";
import type { NpcId, SaveId } from "./ids.ts";

export const dossierItemKinds = [
  "profile",
  "scene",
  "relationship",
  "memory",
  "world_event",
  "task",
  "lore",
  "debate",
  "dialogue",
  "summary",
  "thread",
] as const;
export type DossierItemKind = (typeof dossierItemKinds)[number];

/** Sections in render order: most stable first. */
export const dossierSectionNames = [
  "profile",
  "relationships",
  "lore",
  "memories",
  "world_events",
  "debates",
  "tasks",
  "threads",
  "scene",
  "dialogue",
] as const;
export type DossierSectionName = (typeof dossierSectionNames)[number];

export interface DossierItem {
  readonly kind: DossierItemKind;
  /** The same id the event export uses for the item. */
  readonly id: string;
  readonly score: number;
  readonly tokens: number;
  readonly text: string;
}

export interface DossierSection {
  readonly name: DossierSectionName;
  readonly budget: number;
  readonly tokens: number;
  readonly items: ReadonlyArray<DossierItem>;
}

export interface Dossier {
  readonly saveId: SaveId;
  readonly npcId: NpcId;
  readonly npcName: string;
  readonly t: GameTime;
  readonly day: number;
  readonly query: string | null;
  readonly budget: number;
  readonly totalTokens: number;
  readonly sections: ReadonlyArray<DossierSection>;
}

const titles: Record<DossierSectionName, string> = {
  profile: "Who you are",
  relationships: "How you regard others",
  lore: "What everyone knows",
  memories: "What you remember",
  world_events: "What you know has happened",
  debates: "Debates you know of",
  tasks: "Your tasks",
  threads: "What is unresolved",
  scene: "Where you are now",
  dialogue: "What was just said",
};

const render = (d: Dossier, line: (item: DossierItem) => string): string => {
  const parts: Array<string> = [];
  for (const section of d.sections) {
    if (section.items.length === 0) continue;
    parts.push(`## ${titles[section.name]}\n${section.items.map(line).join("\n")}`);
  }
  return parts.join("\n\n");
};

/**
 * The dossier as a person reads it (`hearsay dossier`, chat's /dossier), sections in
 * stable-to-volatile order. It is also what a brain call's input hash covers — the
 * prompt's fenced form follows from it — but never a prompt itself: prompts take
 * `renderDossierForPrompt`.
 */
export const renderDossier = (d: Dossier): string => render(d, (i) => `- ${i.text}`);

/** One dossier line of a prompt: only ever fenced text. */
const promptLine = (text: FencedText): string => `- ${text}`;

/**
 * The dossier as a prompt carries it: the same sections and order, every item's text
 * fenced as data (`fenceData`), whoever wrote it — so text a model wrote cannot pass
 * for a heading or an instruction.
 */
export const renderDossierForPrompt = (d: Dossier): string =>
  render(d, (i) => promptLine(fenceData(i.text)));

/** What a deferred dossier is, apart from its sections. */
export type DossierHead = Omit<Dossier, "sections" | "totalTokens">;

const seals = new WeakMap<Dossier, () => void>();

/**
 * A dossier whose sections are built one at a time, each on the first read of its
 * `items` or `tokens` (its `name` and `budget` are known at once); `totalTokens` builds
 * them all. Sections are cut to their own budgets, independently, so a section built
 * alone is the one the whole dossier would hold: a brain that reads two sections pays
 * for two. Reading is all it takes — spreading, rendering or encoding the dossier builds
 * every section — so to its readers it is an ordinary dossier.
 *
 * `build` must give the section named, with `budgets[name]`. Once `sealDossier` is called
 * (the store is about to move on), reading a section not yet built throws instead of
 * building it from a later state than the dossier's.
 */
export const deferDossier = (
  head: DossierHead,
  budgets: Readonly<Record<DossierSectionName, number>>,
  build: (name: DossierSectionName) => DossierSection,
): Dossier => {
  let sealed = false;
  const section = (name: DossierSectionName): DossierSection => {
    let built: DossierSection | undefined;
    const get = (): DossierSection => {
      if (built !== undefined) return built;
      if (sealed)
        throw new Error(
          `dossier section "${name}" of ${head.npcId} at ${head.t} was read after its turn ended`,
        );
      const s = build(name);
      if (s.name !== name || s.budget !== budgets[name])
        throw new Error(
          `dossier section "${name}" was built as "${s.name}" with budget ${s.budget}, not ${budgets[name]}`,
        );
      built = s;
      return s;
    };
    return Object.defineProperties({} as DossierSection, {
      name: { value: name, enumerable: true },
      budget: { value: budgets[name], enumerable: true },
      tokens: { get: () => get().tokens, enumerable: true },
      items: { get: () => get().items, enumerable: true },
    });
  };
  const sections = dossierSectionNames.map(section);
  const dossier = Object.defineProperties({ ...head } as Dossier, {
    totalTokens: { get: () => sections.reduce((a, s) => a + s.tokens, 0), enumerable: true },
    sections: { value: sections, enumerable: true },
  });
  seals.set(dossier, () => {
    sealed = true;
  });
  return dossier;
};

/** Ends a deferred dossier's turn: its unbuilt sections can no longer be read. */
export const sealDossier = (dossier: Dossier): void => {
  seals.get(dossier)?.();
};

/** A plain copy of a dossier, every section built (a deferred one is built in full). */
export const settleDossier = (dossier: Dossier): Dossier => ({
  ...dossier,
  sections: dossier.sections.map((s) => ({
    name: s.name,
    budget: s.budget,
    tokens: s.tokens,
    items: s.items,
  })),
});
