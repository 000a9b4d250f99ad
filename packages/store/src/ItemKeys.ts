/**
 * Keys of the searchable read-model items (memories, world events, lore chunks, debates,
 * conversation summaries and turns): their rowids, which FTS5 indexes them by and the
 * retrieval view and its vectors know them by. The rule is a fold of the save's log, so
 * a live append, a refold, a branch's fold and the view itself all give an item the same
 * key:
 *
 * - every save has its own key space (`saves.key_space`, numbered from 0 as saves are
 *   created), the keys base + 1 … base + 2^32 − 1 with base = space × 2^32;
 * - a new item's key is one more than the largest key of the save's items of its table
 *   (base + 1 for the first): items are numbered in log order, a lore chunk replaced by a
 *   re-import gives its number back only when it was the last.
 *
 * Keys stay below 2^53 (exact in a JS number): at most `KEY_SPACES` saves per file.
 * They are the implicit rowids of the tables, set explicitly on insert, not an INTEGER
 * PRIMARY KEY column (which would mean rebuilding six tables): nothing may VACUUM a
 * hearsay file, which is free to renumber such rowids (FTS5's external content relies on
 * them as well).
 * Structures indexed by key keep one dense array per space (`KeySlots` in retrieval), so
 * they stay as long as the save has items.
 */
import type { SqliteDatabase, SqliteStatement } from "./openDatabase.ts";

/** How many keys one key space holds (2^32). */
export const ITEM_KEY_SPACE = 2 ** 32;

/** How many key spaces (saves) a file can hold: every key stays below 2^53. */
export const KEY_SPACES = 2 ** 21;

/** The tables whose rows are keyed by the rule. */
export const keyedTables = [
  "memories",
  "world_events",
  "lore_chunks",
  "background_debates",
  "conversation_summaries",
  "conversation_turns",
] as const;
export type KeyedTable = (typeof keyedTables)[number];

/** The key before the first of space `space`. */
export const keySpaceBase = (space: number): number => space * ITEM_KEY_SPACE;

/**
 * SQL for the largest key of `table` in the space starting after `base` (an SQL
 * expression, e.g. a named parameter), `base` itself when the space has none.
 */
export const lastKeySql = (table: KeyedTable, base: string): string =>
  `(SELECT coalesce(max(rowid), ${base}) FROM ${table} WHERE rowid > ${base} AND rowid < ${base} + ${ITEM_KEY_SPACE})`;

/**
 * The next keys of a connection's saves, one statement per keyed table — prepared at
 * first use, so a connection to a file of an older schema (read-only, never migrated)
 * can still be opened by whatever holds one.
 */
export class ItemKeys {
  private statements:
    | { readonly spaceOf: SqliteStatement; readonly last: Record<KeyedTable, SqliteStatement> }
    | undefined;
  private readonly bases = new Map<string, number>();

  constructor(private readonly db: SqliteDatabase) {}

  private prepared() {
    if (this.statements === undefined) {
      const last = {} as Record<KeyedTable, SqliteStatement>;
      for (const t of keyedTables) {
        last[t] = this.db.prepare(`SELECT ${lastKeySql(t, "@base")}`).pluck();
      }
      this.statements = {
        spaceOf: this.db.prepare("SELECT key_space FROM saves WHERE save_id = ?").pluck(),
        last,
      };
    }
    return this.statements;
  }

  /** The base of the save's key space (a save's space never changes). */
  base(saveId: string): number {
    let base = this.bases.get(saveId);
    if (base === undefined) {
      const space = this.prepared().spaceOf.get(saveId) as number | null | undefined;
      if (space === undefined || space === null) {
        throw new Error(`item keys: save ${saveId} has no key space`);
      }
      base = keySpaceBase(space);
      this.bases.set(saveId, base);
    }
    return base;
  }

  /** The key the save's next item of `table` gets. */
  next(table: KeyedTable, saveId: string): number {
    const base = this.base(saveId);
    const key = Number(this.prepared().last[table].get({ base })) + 1;
    if (key >= base + ITEM_KEY_SPACE) {
      throw new Error(`item keys: save ${saveId} has used every key of ${table}`);
    }
    return key;
  }
}
