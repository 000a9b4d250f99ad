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
 * - `stable`, the rules of runs recorded before `steady`: world events, debates and, on a
 *   turn among NPCs (its own or a reply to another's line), lore are ranked by what the
 *   NPC stands in — its place and its open tasks — not by who is present, the line heard
 *   or the turn's news, so they change when it moves, takes up a task or learns
 *   something, not from one turn to the next; lore follows the query when the player or
 *   a tool puts a question to the NPC. On a turn among NPCs its memories and world
 *   events come in two parts: first those its place and tasks select as of the start of the day (the memories and events
 *   there were by then), then, within the same budget, what the turn ranks now — the
 *   memories its query brings to mind, the day's news — and its relationships the
 *   strongest first, then those with whoever is present; its scene leaves the time to
 *   the prompt. A prompt lists the first parts with the sections that stay and the
 *   turn's parts after them (`renderDossierForPrompt`);
 * - `steady`, what new runs use: the `stable` rules, with items that stay put from one
 *   turn to the next. Every item of a section is cut to a fixed share of the section's
 *   budget (`itemShare`), so one item's growth no longer shortens the others; on a turn
 *   among NPCs the first parts of its memories and world events are ranked by its place
 *   alone (not its tasks, which change more often), as of the start of its three-day span
 *   (`steadySpanDays`) rather than of its day, holding only what lasts through the span,
 *   and so are its lore and debates; tasks and threads are ranked oldest first, whoever is
 *   present, so a new one comes after those already listed; a task's line leaves its
 *   status to the turn's input; the dialogue holds the lines since a mark
 *   that moves on four lines at a time (three to six of them), so a new line is appended
 *   rather than pushing the oldest out.
 */
export const dossierRuleNames = ["moment", "stable", "steady"] as const;
export type DossierRules = (typeof dossierRuleNames)[number];
/** The rules a new run records and uses. */
export const currentDossierRules: DossierRules = "steady";
/** Under the `steady` rules, the days a turn's standing parts are ranked as of the start of. */
export const steadySpanDays = 3;

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
  /**
   * Chosen by what the NPC stands in (its place and open tasks), not by the turn's query:
   * a prompt lists such items of a section before those the turn picked, so they stay
   * at the same place from one turn to the next (the `stable` rules' memories).
   */
  readonly standing?: true;
}

export interface DossierSection {
  readonly name: DossierSectionName;
  readonly budget: number;
  readonly tokens: number;
  readonly items: ReadonlyArray<DossierItem>;
  /**
   * Comes in a standing part and a turn's part (the `steady` rules' split sections), even
   * when the standing part is empty: a prompt then lists every item with the turn's parts,
   * not in the section's place (where a section without standing items stays).
   */
  readonly parted?: true;
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

/** A titled list of items, as rendered. */
interface Part {
  readonly title: string;
  readonly items: ReadonlyArray<DossierItem>;
}

const renderParts = (parts: ReadonlyArray<Part>, line: (item: DossierItem) => string): string =>
  parts
    .filter((p) => p.items.length > 0)
    .map((p) => `## ${p.title}\n${p.items.map(line).join("\n")}`)
    .join("\n\n");

const render = (d: Dossier, line: (item: DossierItem) => string): string =>
  renderParts(
    d.sections.map((s) => ({ title: titles[s.name], items: s.items })),
    line,
  );

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
 * measures them): what the NPC is (profile) and whom it knows, the lore and the debates
 * of what it stands in (its place and tasks, under the stable `DossierRules`), what it
 * knows has happened (which grows as it learns), its standing memories, its tasks and
 * threads (which change with the world's work), the last lines said (which grow by a line
 * or two between some turns), and last the scene, whose company and doings change with
 * nearly every turn. The part of a section a turn ranked itself comes between the
 * dialogue and the scene, but for its regard of those present, which follows its regard
 * of others (`renderDossierForPrompt`).
 */
export const promptSectionOrder: ReadonlyArray<DossierSectionName> = [
  "profile",
  "relationships",
  "lore",
  "debates",
  "world_events",
  "memories",
  "tasks",
  "threads",
  "dialogue",
  "scene",
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
 * Titles of the part of a section the turn ranked, when the section also holds items
 * chosen by what the NPC stands in (`DossierItem.standing`, the stable rules' memories
 * and world events of a turn among NPCs).
 */
const turnTitles: Partial<Record<DossierSectionName, string>> = {
  relationships: "How you regard those with you",
  world_events: "What else you know has happened",
  memories: "What comes to mind",
};

/**
 * The section that changes with nearly every turn as a whole (who is there, what they
 * do): it comes last, after the parts a turn ranked.
 */
const momentSections: ReadonlySet<DossierSectionName> = new Set(["scene"]);

/**
 * Sections whose turn part stays next to their standing part: who of those it regards
 * is present changes on few turns (the company of a talk lasts), and the part is short.
 */
const turnPartsInPlace: ReadonlySet<DossierSectionName> = new Set(["relationships"]);

/**
 * The dossier as a prompt carries it: the same sections, stable-to-volatile
 * (`promptSectionOrder`) — a section that also holds items chosen by what the NPC stands
 * in (or is `parted`) lists those in its place and the ones its turn ranked after every
 * section that stays and the dialogue, before the scene (but for relationships, whose
 * turn part follows in place) — items in arrival order, every item's text
 * fenced as data
 * (`fenceData`), whoever wrote it — so text a model wrote cannot pass for a heading or
 * an instruction.
 */
export const renderDossierForPrompt = (d: Dossier): string => {
  const at = (name: DossierSectionName) => promptSectionOrder.indexOf(name);
  const stays: Array<Part> = [];
  const turn: Array<Part> = [];
  const moment: Array<Part> = [];
  for (const s of [...d.sections].sort((a, b) => at(a.name) - at(b.name))) {
    const items = promptItems(s);
    const title = titles[s.name];
    if (momentSections.has(s.name)) moment.push({ title, items });
    else if (s.parted !== true && !items.some((i) => i.standing === true))
      stays.push({ title, items });
    else {
      stays.push({ title, items: items.filter((i) => i.standing === true) });
      (turnPartsInPlace.has(s.name) ? stays : turn).push({
        title: turnTitles[s.name] ?? title,
        items: items.filter((i) => i.standing !== true),
      });
    }
  }
  return renderParts([...stays, ...turn, ...moment], (i) => promptLine(fenceData(i.text)));
};

/** What a dossier is, apart from its sections. */
export type DossierHead = Omit<Dossier, "sections" | "totalTokens">;
