import { eventTypes } from "@hearsay/core";
import { projectionTables } from "@hearsay/store";
import { arbEventBatches, arbEventSequence, arbInterleaving, splitBatches } from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, checkFts, freshStore, newSave, runs } from "./harness.ts";

describe("projections", () => {
  it("incremental projection equals a rebuild from scratch (one save and all saves)", () => {
    fc.assert(
      fc.property(arbEventBatches(), (batches) => {
        const { db, log } = freshStore();
        newSave(log, "s");
        appendBatches(log, "s", batches);
        checkFts(db);
        const incremental = log.projectionHash("s");
        const state = log.projectionState("s");
        expect(log.rebuildProjections("s")).toBe(log.head("s"));
        expect(log.projectionHash("s")).toBe(incremental);
        checkFts(db);
        log.rebuildProjections();
        expect(log.projectionState("s")).toEqual(state);
        checkFts(db);
      }),
      { numRuns: runs(40) },
    );
  });

  it("an append that fails part-way leaves search as if it was never tried", () => {
    // A live fold holds its FTS writes until the end of the batch (FTS5 would otherwise
    // start a segment per entry): a batch that aborts after some of its events were folded
    // must not leave them held for the next append.
    fc.assert(
      fc.property(arbEventBatches({ minSteps: 20 }), fc.nat(), (batches, pick) => {
        const whole = freshStore();
        newSave(whole.log, "s");
        appendBatches(whole.log, "s", batches);
        const k = pick % batches.length;
        const { db, log } = freshStore();
        newSave(log, "s");
        for (const [i, batch] of batches.entries()) {
          if (i === k && batch.length > 1) {
            // Abort at the batch's last event, after the others were folded.
            const last = log.head("s") + batch.length;
            db.exec(
              `CREATE TEMP TRIGGER boom BEFORE INSERT ON events WHEN NEW.seq = ${last} BEGIN SELECT RAISE(ABORT, 'boom'); END`,
            );
            expect(() => log.append("s", log.head("s"), batch)).toThrow(/boom/);
            db.exec("DROP TRIGGER temp.boom");
          }
          log.append("s", log.head("s"), batch);
        }
        checkFts(db);
        expect(log.projectionState("s")).toEqual(whole.log.projectionState("s"));
        expect(log.projectionHash("s")).toBe(whole.log.projectionHash("s"));
      }),
      { numRuns: runs(30) },
    );
  });

  it("a generated sequence fills every projection table and covers every event type", () => {
    const [events] = fc.sample(arbEventSequence({ minSteps: 40 }), { numRuns: 1, seed: 42 });
    expect(new Set(events!.map((e) => e.type))).toEqual(new Set(eventTypes));
    const { log } = freshStore();
    newSave(log, "s");
    log.append("s", 0, events!);
    const state = log.projectionState("s");
    for (const table of projectionTables) expect(state[table].length, table).toBeGreaterThan(0);
  });

  it("two saves written in any interleaving never see each other's rows", () => {
    const pair = fc.tuple(arbEventSequence({ maxSteps: 30 }), arbEventSequence({ maxSteps: 30 }));
    fc.assert(
      fc.property(
        pair.chain(([a, b]) =>
          fc.tuple(
            fc.constant(a),
            fc.constant(b),
            arbInterleaving(splitBatches(a, [5, 10, 20]), splitBatches(b, [3, 9, 15])),
          ),
        ),
        ([a, b, order]) => {
          // Each alone, in its own database.
          const alone = (events: typeof a, id: string, campaign: string) => {
            const { log } = freshStore();
            newSave(log, id, campaign);
            log.append(id, 0, events);
            return log.projectionState(id);
          };
          const soloA = alone(a, "a", "camp-a");
          const soloB = alone(b, "b", "camp-b");
          // Together, interleaved batch by batch.
          const { db, log } = freshStore();
          newSave(log, "a", "camp-a");
          newSave(log, "b", "camp-b");
          for (const step of order) {
            const id = step.side === 0 ? "a" : "b";
            log.append(id, log.head(id), step.item);
          }
          expect(log.projectionState("a")).toEqual(soloA);
          expect(log.projectionState("b")).toEqual(soloB);
          // Every row of every table carries its own save's campaign.
          for (const table of projectionTables) {
            const bad = db
              .prepare(
                `SELECT count(*) FROM ${table} WHERE NOT ((save_id = 'a' AND campaign_id = 'camp-a') OR (save_id = 'b' AND campaign_id = 'camp-b'))`,
              )
              .pluck()
              .get();
            expect(bad, table).toBe(0);
          }
          // Rebuilding one save leaves the other's rows alone.
          log.rebuildProjections("a");
          expect(log.projectionState("b")).toEqual(soloB);
          expect(log.projectionState("a")).toEqual(soloA);
          checkFts(db);
        },
      ),
      { numRuns: runs(20) },
    );
  });
});
