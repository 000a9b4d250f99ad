/**
 * Assembles one NPC's dossier: profile, relationship edges (its own, directed), lore,
 * memories and conversation summaries, world events, debates, open tasks, the scene and
 * recent dialogue — each ranked, then cut to its token budget by `cutSection`, in core's
 * stable-to-volatile section order. Every item is one the NPC may know at t: searched
 * items pass the `SaveView` rule; edges, tasks, profile and dialogue are its own; the
 * scene is what the caller says is present.
 *
 * It reads through narrow collaborators (`DossierReads`) — the rows it quotes, names,
 * the NPC's dialogue, knowledge-filtered search, default budgets — not through the
 * retrieval engine, which is one provider of them (`RetrievalEngine.dossier`).
 */
import {
  type DeferredDossier,
  type Dossier,
  type DossierRules,
  type DossierSectionName,
  dayOf,
  deferDossier,
  formatGameTime,
  type GameTime,
  MINUTES_PER_DAY,
  type NpcId,
  type SaveId,
  steadySpanDays,
} from "@hearsay/core";
import type { CollectionName } from "./collections.ts";
import { cutStandingSection } from "./cutStandingSection.ts";
import type { DossierSource, TurnRow } from "./DossierSource.ts";
import type { SearchHit } from "./HybridSearch.ts";
import type { Quote } from "./ItemTable.ts";
import { requestTime } from "./requestTime.ts";
import { threadCandidates } from "./ThreadSection.ts";
import { KEPT_TURN_ROWS, type TurnList } from "./TurnRows.ts";
import {
  type BudgetPreset,
  budgetPresets,
  cutSection,
  itemShare,
  type SectionBudgets,
  type SectionCandidate,
  scaleBudgets,
  totalBudget,
} from "./tokenBudget.ts";

/** A dossier request: for `t` (or the end of `day`), with optional query text and scene. */
export interface DossierRequest {
  readonly saveId: string;
  readonly npcId: string;
  readonly t?: number;
  readonly day?: number;
  readonly query?: string | null;
  readonly scene?: {
    readonly locationId?: string | null;
    readonly present?: ReadonlyArray<string>;
  } | null;
  /** Total tokens, a preset name, or per-section budgets (default: the engine's). */
  readonly budget?: number | BudgetPreset | SectionBudgets;
  /** A precomputed query vector (for model-backed embedders). */
  readonly queryVector?: Float32Array | null;
  /** How items are chosen (core's `DossierRules`; default `stable`). */
  readonly rules?: DossierRules;
  /**
   * A turn of an NPC among NPCs (its own, or its reply to another NPC's line), not a
   * question put to it by the player or a tool: under the `stable` rules its lore is then
   * ranked by what it stands in, as its world events are, not by the query.
   */
  readonly npcTurn?: boolean;
}

/** The save's rows a dossier quotes: character, profile, activity, edges, tasks, threads, turns, items. */
export type DossierRows = Pick<
  DossierSource,
  "character" | "profile" | "activity" | "edges" | "openTasks" | "threads" | "turn"
>;

/** What one dossier's search is asked with (fixed before its first searched section). */
export interface DossierSearchAsk {
  readonly npcId: string;
  readonly t: number;
  /** Text to rank by: the query, who is present and the place. */
  readonly queryText: string;
  /** Text for keyword candidates, when the caller gave a query. */
  readonly ftsText: string | null;
  /** Text to embed when no vector was given: the query, or the scene's text. */
  readonly embedText: string;
  /** A precomputed query vector (null or absent: embed `embedText`). */
  readonly queryVector: Float32Array | null | undefined;
  readonly location: string;
  readonly activeTaskIds: ReadonlyArray<string>;
}

/** Which of a search's items a section takes, and as of when they are ranked. */
export interface SearchWindow {
  /** Rank as of this earlier time, items recorded by then only (`SearchContext.asOf`). */
  readonly asOf?: number;
  /** Only items lasting until this time (`SearchContext.lastsUntil`). */
  readonly lastsUntil?: number;
}

/** One dossier's knowledge-filtered search: the best `limit` hits of a collection. */
export type SectionSearch = (
  collection: CollectionName,
  limit: number,
  window?: SearchWindow,
) => Array<SearchHit>;

/** What a dossier reads from, each as narrow as its use. */
export interface DossierReads {
  readonly rows: DossierRows;
  /** An NPC's name (its id when the save has no such NPC). */
  readonly nameOf: (npcId: string) => string;
  /** An NPC's dialogue turns (said or heard), oldest first (none: `undefined`). */
  readonly turnsOf: (npcId: string) => TurnList | undefined;
  /** Opens the NPC's search for one dossier; called once, by its first searched section. */
  readonly search: (ask: DossierSearchAsk) => SectionSearch;
  /** The budgets when the request names none. */
  readonly budgets: SectionBudgets;
}

const resolveBudgets = (b: DossierRequest["budget"], fallback: SectionBudgets): SectionBudgets =>
  b === undefined
    ? fallback
    : typeof b === "number"
      ? scaleBudgets(b)
      : typeof b === "string"
        ? budgetPresets[b]
        : b;

const jsonList = (v: unknown): Array<string> => {
  try {
    const p: unknown = JSON.parse(String(v ?? "[]"));
    return Array.isArray(p) ? p.map(String) : [];
  } catch {
    return [];
  }
};

const signed = (x: number): string => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;

/** The profile line: who the NPC is, in its own terms. */
const profileText = (
  c: { name: string; role: string; faction_id: string | null; traits: string },
  profile: string | undefined,
): string => {
  const parts = [`You are ${c.name}, ${c.role}${c.faction_id ? ` (${c.faction_id})` : ""}.`];
  const traits = jsonList(c.traits);
  if (traits.length > 0) parts.push(`Traits: ${traits.join(", ")}.`);
  if (profile) {
    try {
      const p = JSON.parse(profile) as Record<string, unknown>;
      const list = (k: string) =>
        Array.isArray(p[k]) ? (p[k] as Array<unknown>).map(String).join("; ") : "";
      if (p.backstory) parts.push(String(p.backstory));
      if (p.personality) parts.push(`Personality: ${String(p.personality)}.`);
      if (p.speechStyle) parts.push(`Speech: ${String(p.speechStyle)}.`);
      if (list("goals")) parts.push(`Goals: ${list("goals")}.`);
      if (list("fears")) parts.push(`Fears: ${list("fears")}.`);
      if (list("loyalties")) parts.push(`Loyalties: ${list("loyalties")}.`);
    } catch {
      // a profile that is not JSON is shown as it is
      parts.push(profile);
    }
  }
  return parts.join(" ");
};

/**
 * The text of a lore chunk or a debate, by its quote: an item's quote object is its own
 * for as long as the item is what it is, and its text depends on the quote alone. The
 * same string each time, so the cut that fits it to its section finds its memo at once
 * (a string made anew is hashed whole on every lookup: lore chunks are long).
 */
const quotedTexts = new WeakMap<Quote, string>();

const quotedText = (q: Quote, text: (q: Quote) => string): string => {
  let out = quotedTexts.get(q);
  if (out === undefined) {
    out = text(q);
    quotedTexts.set(q, out);
  }
  return out;
};

const loreText = (q: Quote): string => `${jsonList(q.heading_path).join(" / ")}: ${String(q.text)}`;

/** Text of a searched item, with its time where it has one: from the view, never a table. */
const hitText = (reads: DossierReads, hit: SearchHit): string => {
  const q = hit.quote;
  switch (hit.collection as CollectionName) {
    case "memories":
      return `(${formatGameTime(hit.t as GameTime)}) ${String(q.text)}`;
    case "world_events":
      return `${formatGameTime(hit.t as GameTime)}: ${String(q.text)}`;
    case "lore":
      return quotedText(q, loreText);
    case "conversation_summaries": {
      const name = reads.nameOf(String(q.partner_id));
      return `Talk with ${name} (${formatGameTime(hit.t as GameTime)}): ${String(q.summary)}`;
    }
    case "background_debates":
      // A debate's time is its own, fixed with its quote.
      return quotedText(
        q,
        (d) =>
          `Debate "${String(d.topic)}" (${formatGameTime(hit.t as GameTime)}): ${String(d.summary)} Outcome: ${String(d.outcome)}`,
      );
  }
};

/** What a dossier is about: its time, budgets, open tasks, activity, place, company and query text. */
export const dossierFrame = (reads: DossierReads, req: DossierRequest) => {
  const { saveId, npcId } = req;
  const character = reads.rows.character(saveId, npcId);
  if (!character) return null;
  const t = requestTime(req);
  const tasks = reads.rows.openTasks(saveId, npcId, t);
  const activity = reads.rows.activity(saveId, npcId);
  const location = req.scene?.locationId ?? activity?.location_id ?? character.location_id;
  const present = (req.scene?.present ?? []).filter((id) => id !== npcId);
  const { nameOf } = reads;
  const presentNames = present.map(nameOf);
  const sceneQuery = [
    activity?.note ?? "",
    location,
    ...presentNames,
    ...tasks.map((k) => k.title),
  ].join(" ");
  const queryText = req.query ?? sceneQuery;
  return {
    character,
    t,
    tasks,
    activity,
    location,
    present,
    presentNames,
    nameOf,
    queryText,
    sceneQuery,
  };
};

/**
 * The dossier, or null when the save has no such NPC, as a reader whose sections are built
 * when first read (core's `deferDossier`). What every section needs is fixed here — the
 * time, the NPC's open tasks, activity and place, the query — and the search context is
 * built once, by the first searched section. Sections must be read before the store moves
 * on (a sealed reader throws on a later read); `buildDossier` builds them all at once.
 */
export const deferredDossier = (
  reads: DossierReads,
  req: DossierRequest,
): DeferredDossier | null => {
  const frame = dossierFrame(reads, req);
  if (!frame) return null;
  const { saveId, npcId } = req;
  const budgets = resolveBudgets(req.budget, reads.budgets);
  /** The searches opened, by what they were asked: sections that ask alike share one. */
  const opened = new Map<string, SectionSearch>();
  /**
   * A search opened on its first use, ranking by `text` with the company and the place;
   * keyword candidates come only from `ftsText` (a query the caller gave). A `window`
   * narrows what it ranks, not what it searches: searches that ask the same, windowed or
   * not, are one opened search.
   */
  const lazySearch = (
    text: string,
    ftsText: string | null,
    queryVector: Float32Array | null | undefined,
    company = true,
    window?: SearchWindow,
  ): SectionSearch => {
    let search: SectionSearch | undefined;
    return (c, limit) => {
      if (search === undefined) {
        const ask = {
          npcId,
          t: frame.t,
          queryText: [text, ...(company ? frame.presentNames : []), frame.location].join(" "),
          ftsText,
          embedText: text,
          queryVector,
          location: frame.location,
          activeTaskIds: frame.tasks.map((k) => k.task_id),
        };
        // What differs between a dossier's asks (the rest is its frame's); the only vector
        // one may be given is the request's.
        const key = `${ask.queryText}\u0000${ftsText ?? "\u0001"}\u0000${queryVector ? "v" : ""}\u0000${text}`;
        search = opened.get(key);
        if (search === undefined) {
          search = reads.search(ask);
          opened.set(key, search);
        }
      }
      return search(c, limit, window);
    };
  };
  const search = lazySearch(frame.queryText, req.query ?? null, req.queryVector);
  // A prompt is reused by a model server only up to its first change from the NPC's
  // previous one, so sections that come early in it are ranked by what changes least.
  // Under the `moment` rules world events and debates follow the NPC's situation with its
  // company, activity and tasks (not a reply's line heard); under the `stable` rules they
  // — and the lore of a turn among NPCs — follow only what the NPC stands in: its place
  // and its open tasks. Who is present, and the line heard, change from most turns of an
  // NPC to the next; its place and tasks do not. A question put to the NPC by the player
  // or a tool still calls up its lore.
  const rules = req.rules ?? "stable";
  const stable = rules !== "moment";
  // The `steady` rules: items cut to a fixed share of their section, standing parts
  // ranked by the place alone as of the start of a span of days, threads by arrival.
  const steady = rules === "steady";
  const standingText = [frame.location, ...frame.tasks.map((k) => k.title)].join(" ");
  const standing = stable
    ? lazySearch(standingText, null, undefined, false)
    : req.query == null
      ? search
      : lazySearch(frame.sceneQuery, null, undefined);
  // Under the `steady` rules a turn's lore and debates follow its place alone: its tasks
  // change more often than its place.
  const placed = steady ? lazySearch(frame.location, null, undefined, false) : standing;
  const loreSearch = stable && req.npcTurn === true ? placed : search;

  const fromHits = (hits: ReadonlyArray<SearchHit>): Array<SectionCandidate> =>
    hits.map((h) => ({
      kind: h.kind,
      id: h.id,
      score: h.score,
      text: hitText(reads, h),
      order: h.rowid,
    }));

  /** Memories and conversation summaries as one ranking, best first. */
  const memoriesBy = (by: SectionSearch): Array<SectionCandidate> =>
    fromHits(
      [...by("memories", 8), ...by("conversation_summaries", 3)].sort(
        (a, b) => b.score - a.score || a.id.localeCompare(b.id),
      ),
    );
  // Under the stable rules a turn among NPCs splits its memories and world events: those
  // its standing selects, then what the turn ranks now (the memories its query brings to
  // mind, the day's news). An NPC forms memories and hears news about as often as it
  // takes turns, so the standing part is ranked as of the start of the day (what was
  // there by then, aged from then): it changes when the NPC moves, takes up a task or a
  // day begins; what the day brings is for the turn's part.
  const split = stable && req.npcTurn === true;
  const spanDays = steady ? steadySpanDays : 1;
  const spanStart = Math.floor(dayOf(frame.t) / spanDays) * spanDays * MINUTES_PER_DAY;
  // Under the steady rules only what lasts through the span: nothing leaves the standing
  // part by expiring within it.
  const standingToday = lazySearch(
    steady ? frame.location : standingText,
    null,
    undefined,
    false,
    steady
      ? { asOf: spanStart, lastsUntil: spanStart + spanDays * MINUTES_PER_DAY }
      : { asOf: spanStart },
  );

  /** The NPC's edges, strongest first; those to whoever is present first when `company`. */
  const relationships = (company: boolean): Array<SectionCandidate> =>
    reads.rows
      .edges(saveId, npcId, frame.t)
      .map((e) => ({
        kind: "relationship" as const,
        id: `${npcId}->${e.to_id}`,
        score:
          (company && frame.present.includes(e.to_id) ? 100 : 0) +
          10 * (Math.abs(e.trust) + Math.abs(e.respect) + Math.abs(e.suspicion)),
        text: `${frame.nameOf(e.to_id)}: trust ${signed(e.trust)}, respect ${signed(e.respect)}, suspicion ${signed(e.suspicion)}. ${e.summary}`,
      }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));

  const candidates = (name: DossierSectionName): Array<SectionCandidate> => {
    switch (name) {
      case "profile":
        return [
          {
            kind: "profile",
            id: npcId,
            score: 100,
            text: profileText(frame.character, reads.rows.profile(saveId, npcId)),
          },
        ];
      case "relationships":
        return relationships(true);
      case "lore":
        return fromHits(loreSearch("lore", 5));
      case "memories":
        return memoriesBy(search);
      case "world_events":
        return fromHits(standing("world_events", 5));
      case "debates":
        return fromHits((req.npcTurn === true ? placed : standing)("background_debates", 3));
      case "tasks":
        // Newest first; under the `steady` rules oldest first, so a new task is listed
        // after those the last prompt held (when it fits) rather than pushing one out.
        return (
          steady
            ? [...frame.tasks].sort(
                (a, b) => a.proposed_at - b.proposed_at || a.task_id.localeCompare(b.task_id),
              )
            : frame.tasks
        ).map((k, i) => ({
          kind: "task" as const,
          id: k.task_id,
          score: 100 - i,
          order: k.proposed_at,
          // Under the `steady` rules without its status, which the turn's input gives:
          // a task taken up would change the prompt from here.
          text: steady
            ? `${k.title}${k.deadline === null ? "" : ` (due ${formatGameTime(k.deadline as GameTime)})`}: ${k.description}`
            : `${k.title} (${k.status}${k.deadline === null ? "" : `, due ${formatGameTime(k.deadline as GameTime)}`}): ${k.description}`,
        }));
      case "threads": {
        // Under the `steady` rules oldest first, whoever is present, as tasks are.
        const threads = threadCandidates(
          reads.rows.threads,
          saveId,
          npcId,
          frame.t,
          steady ? [] : frame.present,
        );
        return steady ? threads.reverse() : threads;
      }
      case "scene":
        return [
          {
            kind: "scene",
            id: frame.location,
            score: 100,
            text: [
              // A turn among NPCs under the stable rules is told the time after its
              // dossier, by the prompt: in the scene it would change every turn's text.
              `${split ? "" : `It is ${formatGameTime(frame.t)}. `}You are at ${frame.location}${frame.activity ? `, ${frame.activity.activity}` : ""}.`,
              frame.activity?.note ? frame.activity.note : "",
              frame.presentNames.length > 0
                ? `With you: ${frame.presentNames.join(", ")}.`
                : "Nobody else is here.",
            ]
              .filter(Boolean)
              .join(" "),
          },
        ];
      case "dialogue":
        return recentTurns(reads, npcId, frame.t, steady).map((turn, i) => ({
          kind: "dialogue" as const,
          id: `${turn.conversation_id}#${turn.turn_index}`,
          score: 100 - i,
          text: `${frame.nameOf(turn.speaker_id)}: ${turn.text}`,
        }));
    }
  };

  return deferDossier(
    {
      saveId: saveId as SaveId,
      npcId: npcId as NpcId,
      npcName: frame.character.name,
      t: frame.t,
      day: dayOf(frame.t),
      query: req.query ?? null,
      budget: totalBudget(budgets),
    },
    budgets,
    (name) => {
      const share = steady ? itemShare(name, budgets[name]) : undefined;
      if (split && name === "memories")
        return cutStandingSection(
          name,
          budgets[name],
          memoriesBy(standingToday),
          memoriesBy(search),
          { min: 2, max: 6 },
          0.75,
          share,
          steady,
        );
      if (split && name === "relationships")
        return cutStandingSection(
          name,
          budgets[name],
          relationships(false),
          relationships(true),
          { min: 1, max: 4 },
          0.6,
          share,
          steady,
        );
      if (split && name === "world_events")
        return cutStandingSection(
          name,
          budgets[name],
          fromHits(standingToday("world_events", 5)),
          fromHits(standing("world_events", 5)),
          { min: 1, max: 3 },
          0.6,
          share,
          steady,
        );
      const cut = cutSection(name, budgets[name], candidates(name), undefined, share);
      // Dialogue is chosen newest-first but read oldest-first.
      return name === "dialogue" ? { ...cut, items: [...cut.items].reverse() } : cut;
    },
  );
};

/** Builds the dossier, every section at once (null when the save has no such NPC). */
export const buildDossier = (reads: DossierReads, req: DossierRequest): Dossier | null => {
  return deferredDossier(reads, req)?.whole() ?? null;
};

/**
 * Under the `steady` rules, the dialogue shows every line from a mark that moves on by
 * this many lines at a time: a new line is appended to the last prompt's, and the oldest
 * lines leave together once in so many lines, not one with every new line.
 */
const DIALOGUE_STEP = 4;

/**
 * The NPC's last few dialogue turns at or before t, newest first: the last six, or under
 * the `steady` rules those from the last mark (`DIALOGUE_STEP`), three to six of them.
 */
const recentTurns = (reads: DossierReads, npcId: string, t: number, steady: boolean) => {
  const list = reads.turnsOf(npcId);
  const out: Array<TurnRow> = [];
  if (list === undefined) return out;
  const lo = list.countUpTo(t);
  const keep = steady && lo > 3 ? 3 + ((lo - 3) % DIALOGUE_STEP) : KEPT_TURN_ROWS;
  for (let i = lo - 1; i >= 0 && out.length < keep; i--) {
    // The view keeps the rows of an NPC's last few turns: older ones are read.
    const row = list.row(i) ?? reads.rows.turn(list.rowid(i));
    if (row) out.push(row);
  }
  return out;
};
