/**
 * Item keys (ItemKeys.ts) are a fold of the save's log: whichever way the store writes a
 * keyed row — an append folding event by event or by SQL, a rebuild, a branch's fold —
 * it gets the key `ItemKeyFold` gives it, in the save's own key space.
 */
import { ids } from "@hearsay/core";
import {
  ITEM_KEY_SPACE,
  ItemKeyFold,
  type KeyedTable,
  keyedTables,
  keySpaceBase,
  type SqliteDatabase,
  type SqliteEventLog,
} from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, checkFts, freshStore, newSave, runs } from "./harness.ts";

const idOf: Record<KeyedTable, string> = {
  memories: "memory_id",
  world_events: "world_event_id",
  lore_chunks: "chunk_id",
  background_debates: "debate_id",
  conversation_summaries: "conversation_id || char(0) || npc_id",
  conversation_turns: "conversation_id || char(0) || turn_index",
};

/** Every keyed row of a save: table → id → key. */
const storedKeys = (db: SqliteDatabase, save: string) =>
  Object.fromEntries(
    keyedTables.map((t) => [
      t,
      Object.fromEntries(
        db
          .prepare(`SELECT ${idOf[t]}, rowid FROM ${t} WHERE save_id = ? ORDER BY rowid`)
          .raw()
          .all(save) as Array<[string, number]>,
      ),
    ]),
  );

/** The keys the rule gives: the fold of the save's history from its space's base. */
const ruleKeys = (log: SqliteEventLog, save: string, space: number) => {
  const fold = new ItemKeyFold(keySpaceBase(space));
  const live = Object.fromEntries(keyedTables.map((t) => [t, {} as Record<string, number>]));
  for (const e of log.read(save)) {
    for (const c of fold.step(e)) {
      if (c.type === "added") live[c.table]![c.id] = c.key;
      else delete live[c.table]![c.id];
    }
  }
  return live;
};

describe("item keys", () => {
  it("property: appends (by event or by SQL), a rebuild and a branch key every row by the log, each save in its own space", () => {
    fc.assert(
      fc.property(
        arbEventBatches({ minSteps: 10 }),
        arbEventBatches({ minSteps: 2, maxSteps: 20 }),
        fc.nat(),
        fc.boolean(),
        (batches, other, at, bySql) => {
          const { db, log } = freshStore(0, bySql ? 1 : 100_000);
          // A save created first takes space 0; the one under test, space 1.
          newSave(log, "o");
          newSave(log, "s");
          const cut = Math.ceil(batches.length / 2);
          appendBatches(log, "s", batches.slice(0, cut));
          appendBatches(log, "o", other);
          appendBatches(log, "s", batches.slice(cut));
          const want = ruleKeys(log, "s", 1);
          expect(storedKeys(db, "s")).toEqual(want);
          expect(storedKeys(db, "o")).toEqual(ruleKeys(log, "o", 0));
          for (const t of keyedTables) {
            for (const key of Object.values(want[t]!)) {
              expect(key).toBeGreaterThan(ITEM_KEY_SPACE);
              expect(key).toBeLessThan(2 * ITEM_KEY_SPACE);
            }
          }
          checkFts(db);

          const seq = at % (log.head("s") + 1);
          log.createSave({
            saveId: ids.save("b"),
            campaignId: ids.campaign("campaign-1"),
            name: "b",
            parent: { saveId: ids.save("s"), seq },
          });
          expect(storedKeys(db, "b")).toEqual(ruleKeys(log, "b", 2));
          checkFts(db);

          log.rebuildProjections("s");
          expect(storedKeys(db, "s")).toEqual(want);
          log.rebuildProjections();
          expect(storedKeys(db, "s")).toEqual(want);
          expect(storedKeys(db, "b")).toEqual(ruleKeys(log, "b", 2));
          checkFts(db);
          db.close();
        },
      ),
      { numRuns: runs(12) },
    );
  });

  it("a re-imported lore source gives its keys back only when its chunks were the last", () => {
    const { db, log } = freshStore(0, 1);
    newSave(log, "s");
    const lore = (id: string, source: string, chunks: ReadonlyArray<string>) => ({
      type: "LoreImported" as const,
      version: 1,
      id,
      t: 0,
      payload: {
        sourceId: source,
        path: `lore/${source}.md`,
        contentHash: id,
        chunks: chunks.map((chunkId) => ({
          chunkId,
          headingPath: [source],
          text: `${chunkId} text`,
          tags: [],
          entities: [],
        })),
      },
    });
    const keys = () => storedKeys(db, "s").lore_chunks;
    log.append("s", 0, [lore("e1", "a", ["a#0", "a#1"])]);
    expect(keys()).toEqual({ "a#0": 1, "a#1": 2 });
    log.append("s", 1, [lore("e2", "a", ["a#0", "a#1", "a#2"])]);
    expect(keys()).toEqual({ "a#0": 1, "a#1": 2, "a#2": 3 });
    log.append("s", 2, [lore("e3", "b", ["b#0"]), lore("e4", "a", ["a#0"])]);
    expect(keys()).toEqual({ "b#0": 4, "a#0": 5 });
    expect(keys()).toEqual(ruleKeys(log, "s", 0).lore_chunks);
    checkFts(db);
    db.close();
  });
});
