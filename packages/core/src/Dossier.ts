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

/**
 * How a dossier chooses its items, a fact of a run (`SimulationStarted.dossierRules`, so
 * a replay builds the very dossiers its recorded answers were given):
 *
 * - `moment`, the rules of runs recorded before the field existed: world events and
 *   debates are ranked by the NPC's situation with its company, lore by the request's
 *   query (on an own turn, its situation with its company and latest news);
 * - `stable`, what new runs use: world events, debates and, on a turn among NPCs (its own
 *   or a reply to another's line), lore are ranked by what the NPC stands in — its place
 *   and its open tasks — not by who is present, the line heard or the turn's news, so
 *   they change when it moves, takes up a task or learns something, not from one turn to
 *   the next; memories still follow the query, and so does lore when the player or a
 *   tool puts a question to the NPC.
 */
export const dossierRuleNames = ["moment", "stable"] as const;
export type DossierRules = (typeof dossierRuleNames)[number];
/** The rules a new run records and uses. */
export const currentDossierRules: DossierRules = "stable";

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
  /**
   * Where the item stands in the order its kind entered the world (its row in the
   * store, so a later item has a larger one), when it has such a place; a prompt lists
   * items in this order, so a new item lands after those already there.
   */
  readonly order?: number;
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
 * Sections in prompt order. A model server reuses its cache only up to the first
 * character that differs from the previous prompt, so sections come in the order of how
 * often they stay the same from one turn of an NPC to its next (as `pnpm bench llmcall`
 * measures them): what the NPC is (profile) and whom it knows, the debates and the lore
 * of what it stands in (its place and tasks, under the stable `DossierRules`), what it
 * knows has happened (which grows as it learns), its tasks and threads, and last what
 * the moment picks afresh — the memories the turn's query calls up, the scene, the
 * dialogue.
 */
export const promptSectionOrder: ReadonlyArray<DossierSectionName> = [
  "profile",
  "relationships",
  "debates",
  "lore",
  "world_events",
  "tasks",
  "threads",
  "memories",
  "scene",
  "dialogue",
];

const byId = (a: DossierItem, b: DossierItem): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** By kind, then the order items entered the world (those without one last), then id. */
const byArrival = (a: DossierItem, b: DossierItem): number =>
  (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
  (a.order ?? Number.POSITIVE_INFINITY) - (b.order ?? Number.POSITIVE_INFINITY) ||
  byId(a, b);

/**
 * A section's items as a prompt lists them: in the order they entered the world (then
 * by id), not rank order, so an item that keeps its place in the dossier keeps its place
 * in the prompt whatever the turn's scores — a rank change alone moves no text — and a
 * new item is appended after the ones the previous turn listed rather than inserted
 * among them. Dialogue stays in the order it was said.
 */
const promptItems = (s: DossierSection): ReadonlyArray<DossierItem> =>
  s.name === "dialogue" ? s.items : [...s.items].sort(byArrival);

/**
 * The dossier as a prompt carries it: the same sections, stable-to-volatile
 * (`promptSectionOrder`), items in id order, every item's text fenced as data
 * (`fenceData`), whoever wrote it — so text a model wrote cannot pass for a heading or
 * an instruction.
 */
export const renderDossierForPrompt = (d: Dossier): string => {
  const at = (name: DossierSectionName) => promptSectionOrder.indexOf(name);
  const sections = [...d.sections]
    .sort((a, b) => at(a.name) - at(b.name))
    .map((s) => ({ ...s, items: promptItems(s) }));
  return render({ ...d, sections }, (i) => promptLine(fenceData(i.text)));
};

/** What a dossier is, apart from its sections. */
export type DossierHead = Omit<Dossier, "sections" | "totalTokens">;
