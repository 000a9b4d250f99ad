/**
 * Projection rows to `ItemFacts`: how each searchable table's row becomes the numbers
 * the in-memory view filters and scores with (names interned, JSON lists parsed).
 */
import type { Interner } from "./Interner.ts";
import type { ItemFacts, Quote } from "./ItemTable.ts";

/** The interners a save's view keeps. */
export interface Names {
  readonly npcs: Interner;
  readonly places: Interner;
  readonly factions: Interner;
  /** Entity names, lower-cased. */
  readonly entities: Interner;
  readonly tasks: Interner;
  readonly sources: Interner;
}

/**
 * A projection row as better-sqlite3 returns it, or as the view makes it from an event
 * (whose list columns may then be the lists themselves rather than their JSON).
 */
export type Row = Record<string, unknown>;

/** A JSON array column as strings ([] when absent or malformed). */
export const jsonList = (v: unknown): Array<string> => {
  if (typeof v !== "string" || v.length === 0) return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
};

/**
 * The one empty list every item without participants or entities shares: a million
 * memories with a fresh `[]` each are a million more objects for every full GC to mark.
 */
const NONE: ReadonlyArray<number> = Object.freeze([]);

/**
 * Each distinct interned list once, per interner (so per view): a run's items name the
 * same few people and places over and over — a 500-NPC month's 60,368 lists were 4,191
 * distinct — and every list held is an array and its elements for every full GC to mark.
 */
const sharedLists = new WeakMap<Interner, Map<string, ReadonlyArray<number>>>();

/**
 * A JSON list column interned (the shared empty list when it has none) — the same frozen
 * array for the same names in the same order, once per interner.
 */
const internedList = (
  v: unknown,
  names: Interner,
  key: (s: string) => string,
): ReadonlyArray<number> => {
  const list: ReadonlyArray<unknown> = Array.isArray(v) ? v : jsonList(v);
  if (list.length === 0) return NONE;
  const ids = list.map((x) => names.intern(key(String(x))));
  let lists = sharedLists.get(names);
  if (lists === undefined) {
    lists = new Map();
    sharedLists.set(names, lists);
  }
  const k = ids.join(",");
  const known = lists.get(k);
  if (known !== undefined) return known;
  const kept = Object.freeze(ids);
  lists.set(k, kept);
  return kept;
};

const asIs = (s: string): string => s;
const lowerCase = (s: string): string => s.toLowerCase();

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const interned = (i: Interner, v: unknown): number =>
  v === null || v === undefined ? -1 : i.intern(String(v));
const entityIds = (n: Names, v: unknown): ReadonlyArray<number> =>
  internedList(v, n.entities, lowerCase);

/** The named columns the row has, as strings (as a dossier prints them). */
const quoteOf = (r: Row, columns: ReadonlyArray<string>): Quote => {
  const q: Record<string, string> = {};
  for (const c of columns) if (c in r) q[c] = String(r[c]);
  return q;
};

/*
 * Every kind's facts are written out whole, in one order: an object spread over shared
 * defaults, then a default written over (`{ ...base, expiresAt }`), took V8 ~4 µs an
 * item (against ~0.03 µs), and one shape for every kind keeps `ItemTable.add` monomorphic.
 */

/** A `memories` row. */
export const memoryFacts = (r: Row, n: Names): ItemFacts => ({
  id: String(r.id),
  rowid: Number(r.rowid),
  t: Number(r.recorded_at),
  expiresAt: num(r.expires_at),
  goneAt: num(r.gone_at),
  owner: n.npcs.intern(String(r.owner_npc_id)),
  location: interned(n.places, r.location_id),
  faction: -1,
  importance: Number(r.importance),
  participants: NONE,
  entities: entityIds(n, r.entities),
  aboutTask: r.about_kind === "task" ? interned(n.tasks, r.about_id) : -1,
  source: -1,
  // A memory's quote is its text (as `ItemTable` keeps it), with no object made for it.
  quote: "text" in r ? String(r.text) : {},
});

/** A `world_events` (its lapse is its end of life) or `background_debates` row. */
export const eventFacts = (r: Row, n: Names): ItemFacts => ({
  id: String(r.id),
  rowid: Number(r.rowid),
  t: Number(r.t),
  expiresAt: num(r.lapses_at),
  goneAt: null,
  owner: -1,
  location: interned(n.places, r.location_id),
  faction: interned(n.factions, r.faction_id),
  importance: r.importance === undefined ? 0.5 : Number(r.importance),
  participants: internedList(r.participants, n.npcs, asIs),
  entities: entityIds(n, r.entities),
  aboutTask: -1,
  source: -1,
  quote: quoteOf(r, ["text", "topic", "summary", "outcome"]),
});

/** A `lore_chunks` row (lore is timeless: t 0). */
export const loreFacts = (r: Row, n: Names): ItemFacts => ({
  id: String(r.id),
  rowid: Number(r.rowid),
  t: 0,
  expiresAt: null,
  goneAt: null,
  owner: -1,
  location: -1,
  faction: -1,
  importance: 0.5,
  participants: NONE,
  entities: entityIds(n, r.entities),
  aboutTask: -1,
  source: n.sources.intern(String(r.source_id)),
  quote: quoteOf(r, ["heading_path", "text"]),
});

/** Summaries are keyed by conversation and holder; the id shown is the conversation's. */
export const summaryKey = (r: Row): string =>
  `${String(r.conversation_id)}\u0000${String(r.npc_id)}`;

/** A `conversation_summaries` row: owned by its holder, about its partner. */
export const summaryFacts = (r: Row, n: Names): ItemFacts => ({
  id: summaryKey(r),
  rowid: Number(r.rowid),
  t: Number(r.t),
  expiresAt: null,
  goneAt: null,
  owner: n.npcs.intern(String(r.npc_id)),
  location: -1,
  faction: -1,
  importance: 0.5,
  participants: internedList([String(r.partner_id)], n.npcs, asIs),
  entities: NONE,
  aboutTask: -1,
  source: -1,
  quote: quoteOf(r, ["summary", "partner_id"]),
});
