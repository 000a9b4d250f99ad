import { KeywordSearch } from "@hearsay/retrieval";
import { openDatabase, type SqliteDatabase } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

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
