/**
 * The view makes a new item's row from its event and its key by the store's rule
 * (`ItemKeyFold`), reading nothing: fed any log's appends, in any save's key space, it
 * holds exactly the items, keys, times and quoted words a view loaded afresh from the
 * read models holds.
 */
import { ids, type StoredEvent } from "@hearsay/core";
import { SqliteEventLog as Log, openDatabase, type SqliteEventLog } from "@hearsay/store";
import { arbEventBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectionNames } from "../src/collections.ts";
import { SaveView } from "../src/SaveView.ts";
import { turnEntries } from "./fixtures.ts";

/** What a view holds of its live items and dialogue, by names rather than interned numbers. */
const contents = (view: SaveView) => ({
  items: Object.fromEntries(
    collectionNames.map((c) => {
      const table = view.items[c];
      const rows: Array<unknown> = [];
      for (let local = 0; local < table.length; local++) {
        if (table.dead[local]) continue;
        rows.push({
          id: table.ids[local],
          key: table.rowids[local],
          t: table.t[local],
          quote: table.quoteOf(local),
          expiresAt: table.expiresAt[local],
          goneAt: table.goneAt[local],
          importance: table.importance[local],
          owner: table.owner[local]! < 0 ? null : view.npcs.value(table.owner[local]!),
          entities: table.entities[local]!.map((e) => view.entities.value(e)).sort(),
          participants: table.participants[local]!.map((p) => view.npcs.value(p)).sort(),
        });
      }
      return [c, rows.sort((a, b) => (a as { key: number }).key - (b as { key: number }).key)];
    }),
  ),
  turns: Object.fromEntries(
    [...view.turns.entries()]
      .map(([npc, list]) => [
        view.npcs.value(npc),
        turnEntries(list).sort((a, b) => a.rowid - b.rowid),
      ])
      .sort(),
  ),
});

const save = (log: SqliteEventLog, id: string, parent?: { saveId: string; seq: number }) =>
  log.createSave({
    saveId: ids.save(id),
    campaignId: ids.campaign("campaign-1"),
    name: id,
    ...(parent ? { parent: { saveId: ids.save(parent.saveId), seq: parent.seq } } : {}),
  });

describe("a view fed its writer's appends", () => {
  it("property: holds what a fresh view of the read models holds, in any save's key space", () => {
    fc.assert(
      fc.property(
        arbEventBatches({ minSteps: 10 }),
        fc.nat(),
        fc.boolean(),
        (batches, at, bySql) => {
          const db = openDatabase(":memory:");
          const log = new Log(db, { sqlFoldFrom: bySql ? 1 : 100_000 });
          save(log, "first");
          save(log, "s");
          const cut = Math.ceil(batches.length / 2);
          for (const b of batches.slice(0, cut)) log.append("s", log.head("s"), b);
          const fed = SaveView.load(db, "s");
          for (const b of batches.slice(cut)) {
            const r = log.append("s", log.head("s"), b);
            fed.catchUp(r.appended as ReadonlyArray<StoredEvent>);
          }
          expect(contents(fed)).toEqual(contents(SaveView.load(db, "s")));

          // A branch (its own key space) caught up from an empty view of it.
          save(log, "b", { saveId: "s", seq: at % (log.head("s") + 1) });
          const branch = SaveView.load(db, "b");
          // The events after the branch point (those before it are the branch's already).
          const more = log.append("b", log.head("b"), batches.flat());
          branch.catchUp(more.appended as ReadonlyArray<StoredEvent>);
          expect(contents(branch)).toEqual(contents(SaveView.load(db, "b")));
          db.close();
        },
      ),
      { numRuns: process.env.HEARSAY_DEEP ? 200 : 15 },
    );
  });
});
