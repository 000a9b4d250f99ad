/**
 * Keyword candidates from the FTS5 tables, ranked by bm25 — with the cost bounded.
 * bm25 must score every row a query matches, and a common word matches most of a
 * table (slow on a large one), so each query term is first probed: a term that
 * matches more than `maxDf` rows is dropped (its IDF is near zero anyway; the vector
 * path still sees it). Only the rarer terms — names, unusual words, which is where
 * keywords beat vectors — are matched and ranked. Probe verdicts are cached only while
 * the database is unchanged (SQLite's `total_changes()` of the connection), so a search's
 * result is a function of the stored rows alone, never of which searches ran before it:
 * a run and the same run resumed (with a fresh cache) see the same hits.
 *
 * Hits are candidates, never results: the caller keeps only rows of its save that the
 * NPC knows.
 */
import type { SqliteDatabase } from "@hearsay/store";
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
}

interface Verdict {
  readonly common: boolean;
  /** `total_changes()` when it was probed: the verdict holds while that is unchanged. */
  readonly at: number;
}

export class KeywordSearch {
  private readonly rank = new Map<CollectionName, Statement>();
  private readonly probe = new Map<CollectionName, Statement>();
  private readonly verdicts = new Map<string, Verdict>();
  private readonly maxDf: number;
  private readonly changes: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    options: KeywordOptions = {},
  ) {
    this.maxDf = options.maxDf ?? 64;
    this.changes = prepare(db, "SELECT total_changes()").pluck();
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

  /** True when a quoted term matches more than `maxDf` rows of the collection. */
  private isCommon(c: CollectionName, term: string, at: number): boolean {
    const key = `${c}\u0000${term}`;
    const v = this.verdicts.get(key);
    if (v && v.at === at) return v.common;
    const common = this.stmt(c, "probe").all(term, this.maxDf + 1).length > this.maxDf;
    if (this.verdicts.size > 50_000) this.verdicts.clear();
    this.verdicts.set(key, { common, at });
    return common;
  }

  /** Up to `limit` rows of the collection matching the rarer words of `text`, best first. */
  search(c: CollectionName, text: string, limit: number): Array<KeywordHit> {
    const at = Number(this.changes.get());
    const terms = ftsTerms(text).filter((t) => !this.isCommon(c, t, at));
    if (terms.length === 0) return [];
    const rows = this.stmt(c, "rank").all(terms.join(" OR "), limit) as Array<[number, number]>;
    if (rows.length === 0) return [];
    const best = Math.min(...rows.map((r) => r[1]));
    return rows.map(([rowid, rank]) => ({ rowid, relevance: best < 0 ? rank / best : 1 }));
  }
}
