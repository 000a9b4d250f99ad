/**
 * Keyword candidates from the FTS5 tables, ranked by bm25 — with the cost bounded.
 * bm25 must score every row a query matches, and a common word matches most of a
 * table (slow on a large one), so each query term is first probed: a term that
 * matches more than `maxDf` rows is dropped (its IDF is near zero anyway; the vector
 * path still sees it). Only the rarer terms — names, unusual words, which is where
 * keywords beat vectors — are matched and ranked.
 *
 * A query's ranking is composed from its terms' own: FTS5's bm25 of a row is minus the
 * sum, in the query's term order from 0, of each term's part — the term's IDF times its
 * saturated frequency in the row — and a term's part does not depend on the other terms,
 * so it is the negated bm25 of a one-term query. Each rarer term is ranked once (at most
 * `maxDf` rows) and every query of those terms is added up in memory, to the same
 * doubles FTS5 computes; ties go to the lower rowid. Queries differ from turn to turn, but
 * their words repeat. Probe verdicts, term rankings and ranked hits are
 * cached only while the collection searched is unchanged (`CollectionChanges`; without its
 * marks, while the connection's `total_changes()` is), so a search's result is a function
 * of the stored rows alone, never of which searches ran before it: a run and the same run
 * resumed (with a fresh cache) see the same hits. Keyed on the collection rather than the
 * whole database, the cache of world events, lore and debates outlives the ticks that
 * write only memories and activities.
 *
 * Hits are candidates, never results: the caller keeps only rows of its save that the
 * NPC knows.
 */
import type { SqliteDatabase } from "@hearsay/store";
import { CollectionChanges, type CollectionMark } from "./CollectionChanges.ts";
import { type CollectionName, collections } from "./collections.ts";
import { prepare, type Statement } from "./prepare.ts";
import { contentWords } from "./words.ts";

/** Quoted FTS5 terms of free text (content words longer than two letters, at most `max`). */
export const ftsTerms = (text: string, max = 8): Array<string> =>
  [...new Set(contentWords(text))]
    .filter((w) => w.length > 2)
    .slice(0, max)
    .map((w) => `"${w.replace(/"/g, '""')}"`);

/** An FTS5 MATCH expression for free text, or null when it has no content words. */
export const ftsQuery = (text: string, maxTerms = 8): string | null => {
  const terms = ftsTerms(text, maxTerms);
  return terms.length === 0 ? null : terms.join(" OR ");
};

/** A keyword hit: the row and its relevance in (0, 1], 1 for the best match. */
export interface KeywordHit {
  readonly rowid: number;
  readonly relevance: number;
}

/** Options for {@link KeywordSearch}. */
export interface KeywordOptions {
  /** Terms matching more rows than this are not matched (default 64). */
  readonly maxDf?: number;
  /** Called before each search reads the index: brings the FTS tables level with the log. */
  readonly ready?: () => void;
}

/** What is cached of one collection, valid while its mark is unchanged. */
interface Generation {
  readonly mark: CollectionMark | number;
  /** Per quoted term: does it match more than `maxDf` rows? */
  readonly common: Map<string, boolean>;
  /** Per rarer quoted term: each row it matches with the term's part of that row's bm25. */
  readonly parts: Map<string, ReadonlyArray<readonly [rowid: number, part: number]>>;
  /** Per match expression and limit: the ranked hits. */
  readonly hits: Map<string, ReadonlyArray<KeywordHit>>;
  /**
   * The collection holds at most `maxDf` rows, so no term can be common and none is
   * probed (lore's few dozen chunks); undefined until first asked.
   */
  small?: boolean;
}

/** Cached entries per collection before the cache is emptied (a bound on memory). */
const MAX_CACHED = 50_000;

export class KeywordSearch {
  private readonly rank = new Map<CollectionName, Statement>();
  private readonly probe = new Map<CollectionName, Statement>();
  private readonly count = new Map<CollectionName, Statement>();
  private readonly generations = new Map<CollectionName, Generation>();
  private readonly maxDf: number;
  private readonly changes: Statement;
  private readonly marks: CollectionChanges | null;
  private readonly ready: () => void;

  constructor(
    private readonly db: SqliteDatabase,
    options: KeywordOptions = {},
  ) {
    this.maxDf = options.maxDf ?? 64;
    this.ready = options.ready ?? (() => {});
    this.changes = prepare(db, "SELECT total_changes()").pluck();
    this.marks = CollectionChanges.of(db);
  }

  /** The collection's cache, emptied when the collection changed since it was filled. */
  private generation(c: CollectionName): Generation {
    const mark = this.marks ? this.marks.mark(c) : Number(this.changes.get());
    const g = this.generations.get(c);
    const same =
      g !== undefined &&
      (typeof mark === "number" || typeof g.mark === "number"
        ? g.mark === mark
        : CollectionChanges.same(g.mark, mark));
    if (same && g.common.size + g.parts.size + g.hits.size < MAX_CACHED) return g;
    const fresh: Generation = { mark, common: new Map(), parts: new Map(), hits: new Map() };
    this.generations.set(c, fresh);
    return fresh;
  }

  private stmt(c: CollectionName, kind: "rank" | "probe"): Statement {
    const map = kind === "rank" ? this.rank : this.probe;
    let s = map.get(c);
    if (!s) {
      const fts = collections[c].fts;
      s =
        kind === "rank"
          ? prepare(
              this.db,
              `SELECT rowid, bm25(${fts}) FROM ${fts} WHERE ${fts} MATCH ? ORDER BY bm25(${fts}) LIMIT ?`,
            ).raw()
          : prepare(this.db, `SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? LIMIT ?`).pluck();
      map.set(c, s);
    }
    return s;
  }

  /** Whether the collection's FTS index holds at most `maxDf` rows (reads at most one more). */
  private isSmall(c: CollectionName, g: Generation): boolean {
    if (g.small === undefined) {
      let s = this.count.get(c);
      if (!s) {
        // `_docsize` holds one row per indexed row: the index's own count, not the content table's.
        const fts = collections[c].fts;
        s = prepare(this.db, `SELECT count(*) FROM (SELECT 1 FROM ${fts}_docsize LIMIT ?)`).pluck();
        this.count.set(c, s);
      }
      g.small = (s.get(this.maxDf + 1) as number) <= this.maxDf;
    }
    return g.small;
  }

  /** True when a quoted term matches more than `maxDf` rows of the collection. */
  private isCommon(c: CollectionName, term: string, g: Generation): boolean {
    if (this.isSmall(c, g)) return false;
    const known = g.common.get(term);
    if (known !== undefined) return known;
    const common = this.stmt(c, "probe").all(term, this.maxDf + 1).length > this.maxDf;
    g.common.set(term, common);
    return common;
  }

  /** The rows a rarer term matches, with its part of their bm25 (negated one-term bm25). */
  private parts(
    c: CollectionName,
    term: string,
    g: Generation,
  ): ReadonlyArray<readonly [number, number]> {
    let parts = g.parts.get(term);
    if (parts === undefined) {
      const rows = this.stmt(c, "rank").all(term, this.maxDf + 1) as Array<[number, number]>;
      parts = rows.map(([rowid, bm25]) => [rowid, -bm25] as const);
      g.parts.set(term, parts);
    }
    return parts;
  }

  /** Up to `limit` rows of the collection matching the rarer words of `text`, best first. */
  search(c: CollectionName, text: string, limit: number): Array<KeywordHit> {
    this.ready();
    const g = this.generation(c);
    const terms = ftsTerms(text).filter((t) => !this.isCommon(c, t, g));
    if (terms.length === 0) return [];
    const match = terms.join(" OR ");
    const key = `${limit}\u0000${match}`;
    let hits = g.hits.get(key);
    if (hits === undefined) {
      // FTS5's sum: from 0, each term's part in query order (a term a row lacks adds 0).
      const sums = new Map<number, number>();
      for (const term of terms) {
        for (const [rowid, part] of this.parts(c, term, g)) {
          sums.set(rowid, (sums.get(rowid) ?? 0) + part);
        }
      }
      const rows = [...sums]
        .map(([rowid, sum]) => [rowid, -1 * sum] as const)
        .sort((a, b) => a[1] - b[1] || a[0] - b[0])
        .slice(0, limit);
      const best = rows.length === 0 ? 0 : rows[0]![1];
      hits = rows.map(([rowid, rank]) => ({ rowid, relevance: best < 0 ? rank / best : 1 }));
      g.hits.set(key, hits);
    }
    return [...hits];
  }
}
