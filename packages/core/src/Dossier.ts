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

/** What a dossier is, apart from its sections. */
export type DossierHead = Omit<Dossier, "sections" | "totalTokens">;
