/**
 * When a collection's searchable rows last changed, per collection, so a cache of what a
 * keyword search found can be kept while its own collection is unchanged, instead of
 * being dropped whenever anything at all is written (every tick writes memories and
 * activities; world events, lore and debates change a few times a day).
 *
 * A collection's mark is two things. A counter this connection's writes to the base
 * table bump, through TEMP triggers that call a function of this connection (the
 * projector writes a base row and its FTS entry together, so this sees every change it
 * makes, at once, inside a transaction as well). And the FTS index's structure record
 * (`<fts>_data`, id 10), which FTS5 rewrites whenever it writes a segment: it sees
 * writes to the FTS table alone, and other connections' commits. A connection where the
 * triggers cannot be made (no such table, or a transaction is open) gets no marks, and a
 * searcher on it falls back to the connection's `total_changes()`.
 */
import type { SqliteDatabase } from "@hearsay/store";
import { type CollectionName, collectionNames, collections } from "./collections.ts";
import { prepare, type Statement } from "./prepare.ts";

/** FTS5's structure record id in `<fts>_data`. */
const STRUCTURE_ROWID = 10;
const FN = "hearsay_collection_changed";

/** A collection's state as of one read: equal marks, the same searchable rows. */
export interface CollectionMark {
  readonly writes: number;
  readonly structure: Buffer | null;
}

export class CollectionChanges {
  private readonly writes = new Map<string, number>();
  private readonly structure = new Map<CollectionName, Statement>();

  private constructor(db: SqliteDatabase) {
    db.function(FN, { deterministic: false }, (table: unknown) => {
      const t = String(table);
      this.writes.set(t, (this.writes.get(t) ?? 0) + 1);
      return null;
    });
    for (const c of collectionNames) {
      const { table, fts } = collections[c];
      for (const op of ["INSERT", "UPDATE", "DELETE"]) {
        db.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS ${FN}_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table} BEGIN SELECT ${FN}('${table}'); END`,
        );
      }
      this.structure.set(
        c,
        prepare(db, `SELECT block FROM ${fts}_data WHERE id = ${STRUCTURE_ROWID}`).pluck(),
      );
    }
  }

  /** The connection's tracker (one per connection: its triggers and function are the connection's). */
  static of(db: SqliteDatabase): CollectionChanges | null {
    const known = trackers.get(db);
    if (known !== undefined) return known;
    // Triggers made inside a transaction would go if it rolled back, silently: none then.
    if (db.inTransaction) return null;
    let made: CollectionChanges | null;
    try {
      made = new CollectionChanges(db);
    } catch {
      made = null;
    }
    trackers.set(db, made);
    return made;
  }

  /** The collection's mark now. */
  mark(c: CollectionName): CollectionMark {
    const block = this.structure.get(c)!.get() as Buffer | undefined;
    return { writes: this.writes.get(collections[c].table) ?? 0, structure: block ?? null };
  }

  /** Whether nothing searchable in the collection changed between two marks. */
  static same(a: CollectionMark, b: CollectionMark): boolean {
    if (a.writes !== b.writes) return false;
    if (a.structure === null || b.structure === null) return a.structure === b.structure;
    return a.structure.equals(b.structure);
  }
}

const trackers = new WeakMap<SqliteDatabase, CollectionChanges | null>();
