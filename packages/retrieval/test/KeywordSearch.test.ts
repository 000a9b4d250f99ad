import { ftsTerms, KeywordSearch } from "@hearsay/retrieval";
import { openDatabase, type SqliteDatabase } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globalRumour, openWorld } from "./fixtures.ts";

const runs = process.env.HEARSAY_DEEP ? 2000 : 120;

// A small vocabulary, so terms cross the "common" threshold within a few inserts.
const vocabulary = ["salt", "moot", "ferry", "harbour", "lantern", "quarrel", "tithe", "weir"];
const words = fc
  .array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 4 })
  .map((ws) => ws.join(" "));

interface Real {
  readonly db: SqliteDatabase;
  /** The long-lived searcher, warmed by every search before. */
  readonly warm: KeywordSearch;
  rowid: number;
}
interface Model {
  docs: number;
}

const MAX_DF = 3;

class Insert implements fc.Command<Model, Real> {
  constructor(readonly text: string) {}
  check = () => true;
  run(m: Model, r: Real): void {
    r.rowid += 1;
    r.db
      .prepare("INSERT INTO memories_fts(rowid, text, entities) VALUES (?, ?, '')")
      .run(r.rowid, this.text);
    m.docs += 1;
  }
  toString = () => `insert(${this.text})`;
}

class Search implements fc.Command<Model, Real> {
  constructor(readonly text: string) {}
  check = () => true;
  run(_m: Model, r: Real): void {
    const fresh = new KeywordSearch(r.db, { maxDf: MAX_DF });
    const expected = fresh.search("memories", this.text, 10);
    expect(r.warm.search("memories", this.text, 10)).toEqual(expected);
    // And a term matching more than maxDf rows is never matched.
    for (const hit of expected) expect(hit.relevance).toBeGreaterThan(0);
  }
  toString = () => `search(${this.text})`;
}

describe("KeywordSearch", () => {
  it("answers from the stored rows alone: a searcher warmed by earlier searches agrees with a fresh one", () => {
    fc.assert(
      fc.property(
        fc.commands([words.map((w) => new Insert(w)), words.map((w) => new Search(w))], {
          maxCommands: 60,
        }),
        (commands) => {
          const db = openDatabase(":memory:");
          const real: Real = { db, warm: new KeywordSearch(db, { maxDf: MAX_DF }), rowid: 0 };
          fc.modelRun(() => ({ model: { docs: 0 }, real }), commands);
          db.close();
        },
      ),
      { numRuns: runs },
    );
  });

  it("inside one transaction, with rows written as the projector writes them, a warm searcher agrees with a fresh one", () => {
    // The projector writes a base row and its FTS entry together, and searches run
    // between appends of one transaction (a talk): FTS5 has not written a segment yet,
    // so only the base table's change can tell the cache it is stale.
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), words), { minLength: 1, maxLength: 40 }),
        (steps) => {
          const db = openDatabase(":memory:");
          const base = db.prepare(
            "INSERT INTO memories (save_id, campaign_id, memory_id, owner_npc_id, text, category, importance, recorded_at, entities) VALUES ('s', 'c', ?, 'n', ?, 'observation', 0.5, 0, '')",
          );
          const fts = db.prepare(
            "INSERT INTO memories_fts(rowid, text, entities) VALUES (?, ?, '')",
          );
          const warm = new KeywordSearch(db, { maxDf: MAX_DF });
          db.exec("BEGIN");
          let n = 0;
          for (const [write, text] of steps) {
            if (write) {
              const r = base.run(`m${++n}`, text);
              fts.run(r.lastInsertRowid, text);
            } else {
              const fresh = new KeywordSearch(db, { maxDf: MAX_DF });
              expect(warm.search("memories", text, 10)).toEqual(fresh.search("memories", text, 10));
            }
          }
          db.exec("COMMIT");
          db.close();
        },
      ),
      { numRuns: runs },
    );
  });

  it("ranks a query as FTS5's bm25 of the whole query does, to the same doubles, from its terms' rankings", () => {
    // Short texts of a few words, repeated words and repeated rows: ties in bm25 are
    // common, and a limit often cuts through them.
    const doc = fc.tuple(
      fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 6 }),
      fc.array(fc.constantFrom(...vocabulary), { maxLength: 2 }),
    );
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 24 }),
        fc.array(fc.tuple(words, fc.integer({ min: 1, max: 8 })), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 30 }),
        (docs, queries, maxDf) => {
          const db = openDatabase(":memory:");
          const insert = db.prepare(
            "INSERT INTO memories_fts(rowid, text, entities) VALUES (?, ?, ?)",
          );
          docs.forEach(([text, ents], i) => {
            insert.run(i + 1, text.join(" "), ents.join(" "));
          });
          const probe = db.prepare("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?");
          const rank = db.prepare(
            "SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts), rowid LIMIT ?",
          );
          const search = new KeywordSearch(db, { maxDf });
          for (const [text, limit] of queries) {
            const terms = ftsTerms(text).filter((t) => (probe.pluck().get(t) as number) <= maxDf);
            const rows =
              terms.length === 0
                ? []
                : (rank.raw().all(terms.join(" OR "), limit) as Array<[number, number]>);
            const best = rows.length === 0 ? 0 : rows[0]![1];
            const expected = rows.map(([rowid, r]) => ({
              rowid,
              relevance: best < 0 ? r / best : 1,
            }));
            expect(search.search("memories", text, limit)).toEqual(expected);
          }
          db.close();
        },
      ),
      { numRuns: runs },
    );
  });

  it("sees a world event appended after its words were ranked, and ranks as a fresh searcher does", () => {
    const world = openWorld();
    world.append([
      globalRumour("w1", 10, "Wolves were seen past the weir."),
      globalRumour("w2", 20, "The ferry stopped for the tithe."),
    ]);
    const warm = new KeywordSearch(world.db);
    const rowidOf = (id: string) =>
      world.db
        .prepare("SELECT rowid FROM world_events WHERE world_event_id = ?")
        .pluck()
        .get(id) as number;
    const ids = (hits: ReadonlyArray<{ rowid: number }>) => hits.map((h) => h.rowid);
    expect(ids(warm.search("world_events", "wolves at the ferry", 10))).toEqual([
      rowidOf("w1"),
      rowidOf("w2"),
    ]);
    world.append([globalRumour("w3", 30, "Wolves, wolves and more wolves at the ferry.")]);
    const after = warm.search("world_events", "wolves at the ferry", 10);
    expect(ids(after)[0]).toBe(rowidOf("w3"));
    expect(ids(after)).toHaveLength(3);
    expect(after).toEqual(
      new KeywordSearch(world.db).search("world_events", "wolves at the ferry", 10),
    );
    // A query never asked before, of words ranked before the append, sees it too.
    expect(ids(warm.search("world_events", "wolves", 10))).toContain(rowidOf("w3"));
  });

  it("drops a term once it matches more than maxDf rows, and keeps the rarer ones", () => {
    const db = openDatabase(":memory:");
    const insert = db.prepare("INSERT INTO memories_fts(rowid, text, entities) VALUES (?, ?, '')");
    const search = new KeywordSearch(db, { maxDf: MAX_DF });
    insert.run(1, "salt weir");
    expect(search.search("memories", "salt", 10).map((h) => h.rowid)).toEqual([1]);
    for (let i = 2; i <= MAX_DF + 1; i++) insert.run(i, "salt");
    // "salt" is now common: only the rare "weir" is matched, by the same searcher.
    expect(search.search("memories", "salt", 10)).toEqual([]);
    expect(search.search("memories", "salt weir", 10).map((h) => h.rowid)).toEqual([1]);
    db.close();
  });
});
