/**
 * The digest a bulk fold keeps up along the way (`DigestTracker`, a map of the save's row
 * lanes kept current from the keys its TEMP triggers note): after any mix of
 * inserts, updates (key columns included) and deletes on two tables, in the tracked save
 * and in another, with digests taken at any points between, each digest equals the one
 * recomputed from the save's rows. (Rowid tables — memories, expired by updates — are
 * tracked at every Checkpoint of the SqlFold and BulkFold properties.)
 */
import { projectionDigestColumns, recomputeDigest } from "@hearsay/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DigestTracker } from "../src/DigestTracker.ts";
import { freshStore, newSave, runs } from "./harness.ts";

type Op =
  | {
      readonly op: "insert" | "update" | "delete" | "rekey";
      readonly save: 0 | 1;
      readonly key: number;
      readonly t: number;
    }
  | { readonly op: "digest" };

const arbOp: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constantFrom("insert", "update", "delete", "rekey"),
    save: fc.constantFrom(0 as const, 1 as const),
    key: fc.integer({ min: 0, max: 5 }),
    t: fc.integer({ min: 0, max: 9 }),
  }),
  fc.constant({ op: "digest" as const }),
);

const saves = ["tracked", "other"] as const;

describe("DigestTracker", () => {
  it("equals the digest recomputed from the rows after any inserts, updates and deletes", () => {
    fc.assert(
      fc.property(
        fc.array(arbOp, { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
        (ops, seeded) => {
          const { db, log } = freshStore();
          for (const s of saves) newSave(log, s);
          const s = {
            // knowledge: a 4-column key…
            kInsert: db.prepare(
              `INSERT INTO knowledge (save_id, campaign_id, npc_id, item_kind, item_id, t, via, from_npc_id, confidence)
               VALUES (?, 'c', 'npc', 'memory', ?, ?, 'told', NULL, 1) ON CONFLICT DO NOTHING`,
            ),
            kUpdate: db.prepare(
              "UPDATE knowledge SET t = ?, via = 'witnessed' WHERE save_id = ? AND item_id = ?",
            ),
            kDelete: db.prepare("DELETE FROM knowledge WHERE save_id = ? AND item_id = ?"),
            kRekey: db.prepare(
              "UPDATE OR IGNORE knowledge SET item_id = item_id || 'x' WHERE save_id = ? AND item_id = ?",
            ),
            // …and relationships: a 3-column key.
            rInsert: db.prepare(
              `INSERT INTO relationships (save_id, campaign_id, from_id, to_id, trust, respect, suspicion, summary, updated_at)
               VALUES (?, 'c', 'a', ?, 0, 0, 0, 'met', ?) ON CONFLICT DO NOTHING`,
            ),
            rUpdate: db.prepare(
              "UPDATE relationships SET trust = trust + 1, updated_at = ? WHERE save_id = ? AND to_id = ?",
            ),
            rDelete: db.prepare("DELETE FROM relationships WHERE save_id = ? AND to_id = ?"),
          };
          db.transaction(() => {
            // Rows the save holds before tracking starts are hashed up front.
            for (const key of seeded) {
              s.kInsert.run("tracked", `m${key}`, 0);
              s.rInsert.run("tracked", `n${key}`, 0);
            }
            const tracker = new DigestTracker(db, "tracked", projectionDigestColumns);
            const check = () =>
              expect(tracker.digest()).toBe(
                recomputeDigest(db, "tracked", projectionDigestColumns),
              );
            for (const o of ops) {
              if (o.op === "digest") {
                check();
                continue;
              }
              const save = saves[o.save];
              const item = `m${o.key}`;
              const to = `n${o.key}`;
              if (o.op === "insert") {
                s.kInsert.run(save, item, o.t);
                s.rInsert.run(save, to, o.t);
              } else if (o.op === "update") {
                s.kUpdate.run(o.t, save, item);
                s.rUpdate.run(o.t, save, to);
              } else if (o.op === "delete") {
                s.kDelete.run(save, item);
                s.rDelete.run(save, to);
              } else s.kRekey.run(save, item);
            }
            check();
            tracker.close();
          })();
          db.close();
        },
      ),
      { numRuns: runs(150) },
    );
  });
});
