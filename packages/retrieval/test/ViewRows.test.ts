/**
 * What the view's catch-up hands the vector index instead of a read of the tables, so the
 * read models may lag the log (`SqliteEventLog.appendLogOnly`): the embedded columns of
 * every row a catch-up made or changed (`TouchedRows`, what `CollectionIndex.update`
 * embeds). Fed any log appended log-only, the view gives what the
 * tables hold once caught up; and vectors brought up to date from those rows equal
 * vectors read from the tables.
 */
import { ids, type StoredEvent } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectionNames, collections } from "../src/collections.ts";
import { makeHashingEmbedder } from "../src/HashingEmbedder.ts";
import { SaveView, type TouchedRows } from "../src/SaveView.ts";
import { VectorIndexes } from "../src/VectorIndex.ts";

const newLog = () => {
  const db = openDatabase(":memory:");
  const log = new SqliteEventLog(db, { sqlFoldFrom: 1 });
  log.createSave({ saveId: ids.save("s"), campaignId: ids.campaign("c"), name: "s" });
  return { db, log };
};

/** Every vector of every collection, by rowid. */
const vectorsOf = (index: VectorIndexes) =>
  Object.fromEntries(
    collectionNames.map((c) => {
      const store = index.store(c);
      const { rowids } = store?.entries() ?? { rowids: [] };
      return [
        c,
        [...rowids]
          .sort((a, b) => a - b)
          .map((r) => [r, store!.fingerprint(r), [...(store!.vector(r) ?? [])]]),
      ];
    }),
  );

describe("a view fed log-only appends", () => {
  it("property: its touched rows are the tables' once caught up, and so are the vectors made from them", () => {
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 10 }), (batches) => {
        const { db, log } = newLog();
        const cut = Math.ceil(batches.length / 2);
        for (const b of batches.slice(0, cut)) log.append("s", log.head("s"), b);
        const view = SaveView.load(db, "s");
        const embedder = makeHashingEmbedder();
        const fed = Effect.runSync(VectorIndexes.open(db, embedder, { dbPath: null })).index;
        const given: TouchedRows = {};
        for (const b of batches.slice(cut)) {
          const r = log.appendLogOnly("s", log.head("s"), b);
          const rows: TouchedRows = {};
          const touched = view.catchUp(r.appended as ReadonlyArray<StoredEvent>, rows);
          expect(fed.updateSync(touched, { saveId: "s", rows })).toBe(true);
          for (const c of collectionNames) {
            for (const [rowid, values] of rows[c] ?? []) {
              given[c] ??= new Map();
              given[c]!.set(rowid, values);
            }
          }
        }
        log.caughtUp("s");

        for (const c of collectionNames) {
          const spec = collections[c];
          const read = db.prepare(
            `SELECT ${spec.textColumns.join(", ")} FROM ${spec.table} WHERE rowid = ?`,
          );
          for (const [rowid, values] of given[c] ?? []) {
            const row = read.raw().get(rowid) as Array<unknown> | undefined;
            expect(values, `${c} ${rowid}`).toEqual(row ?? null);
          }
        }
        const read = Effect.runSync(VectorIndexes.open(db, embedder, { dbPath: null })).index;
        expect(vectorsOf(fed)).toEqual(vectorsOf(read));
        db.close();
      }),
      { numRuns: process.env.HEARSAY_DEEP ? 200 : 15 },
    );
  });
});
