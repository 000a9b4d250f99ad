/**
 * The searchable collections: which projection table each lives in, how its id and
 * embedding text are read, and what kind of dossier item it becomes. One USearch index
 * per collection; keys are the table's SQLite rowids.
 */
import type { DossierItemKind } from "@hearsay/core";

export const collectionNames = [
  "memories",
  "world_events",
  "lore",
  "conversation_summaries",
  "background_debates",
] as const;
export type CollectionName = (typeof collectionNames)[number];

/**
 * Collections whose items are known by many NPCs (world events, lore, debates): searched
 * through HNSW graphs from a small size on. Memories and conversation summaries are an
 * NPC's own few, scanned exactly unless a known set is a large share of them.
 */
export const sharedCollections: ReadonlySet<CollectionName> = new Set([
  "world_events",
  "lore",
  "background_debates",
]);

/** Rows per graph segment (`GraphSegments`) when the caller does not say. */
export const defaultGraphBlock = (c: CollectionName): number =>
  sharedCollections.has(c) ? 16 : 1024;

/** How to read one collection's rows. */
export interface CollectionSpec {
  readonly name: CollectionName;
  readonly table: string;
  readonly fts: string;
  /** SQL expression of the text that is embedded (one column list, joined in `text`). */
  readonly textColumns: ReadonlyArray<string>;
  readonly kind: DossierItemKind;
  /**
   * Embedded when a search first needs a row, not when the row is made (see
   * `CollectionIndex.onDemand`): an NPC's own memories, which a run records by the million
   * and nearly all of which are gone before any search reads them.
   */
  readonly onDemand?: boolean;
}

export const collections: Readonly<Record<CollectionName, CollectionSpec>> = {
  memories: {
    name: "memories",
    table: "memories",
    fts: "memories_fts",
    textColumns: ["text"],
    kind: "memory",
    onDemand: true,
  },
  world_events: {
    name: "world_events",
    table: "world_events",
    fts: "world_events_fts",
    textColumns: ["text"],
    kind: "world_event",
  },
  lore: {
    name: "lore",
    table: "lore_chunks",
    fts: "lore_chunks_fts",
    textColumns: ["heading_path", "text"],
    kind: "lore",
  },
  conversation_summaries: {
    name: "conversation_summaries",
    table: "conversation_summaries",
    fts: "conversation_summaries_fts",
    textColumns: ["summary"],
    kind: "summary",
  },
  background_debates: {
    name: "background_debates",
    table: "background_debates",
    fts: "background_debates_fts",
    textColumns: ["topic", "summary", "outcome"],
    kind: "debate",
  },
};

/**
 * The text a row is embedded from, given its `textColumns` values in order. Lore puts
 * its heading path (stored as JSON) in front of the text.
 */
export const embeddingText = (name: CollectionName, values: ReadonlyArray<unknown>): string => {
  if (name === "lore") {
    let path: Array<string> = [];
    try {
      const parsed: unknown = JSON.parse(String(values[0] ?? "[]"));
      if (Array.isArray(parsed)) path = parsed.map(String);
    } catch {
      path = [];
    }
    return `${path.join(" / ")}: ${String(values[1] ?? "")}`;
  }
  // One column (memories, world events, summaries): its text, with no list made to join.
  if (values.length === 1) return String(values[0] ?? "");
  return values.map((v) => String(v ?? "")).join(". ");
};

/** FNV-1a (32 bit) of a string: the per-row text fingerprint the index manifest keeps. */
export const textFingerprint = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};
