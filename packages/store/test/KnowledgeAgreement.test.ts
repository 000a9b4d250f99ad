/**
 * The knowledge-fold agreement test for the store. Its SQL mirrors core's rule in two
 * places — SQLite's own share (SqlFold.ts) of each append and of a bulk fold, and the
 * bulk fold's buffered path for events at an older version — and
 * each is fed the same hostile logs (testkit's `arbKnowledgeLog`: any time order,
 * duplicates, re-records, early and repeated expiries) as core's `knowledgeStep`. They
 * must answer `knowsAt` as `knows` does for every NPC, item and time that matters, and
 * list the same facts (time, via, teller, confidence) in `knownItems`.
 */
import {
  currentVersions,
  type Event,
  type EventType,
  foldKnowledge,
  type GameTime,
  type KnowledgeLedger,
} from "@hearsay/core";
import type { SqliteEventLog } from "@hearsay/store";
import {
  arbKnowledgeLog,
  knowledgeDisagreements,
  knowledgeNpcs,
  knowledgeTimes,
} from "@hearsay/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendBatches, freshStore, newSave, runs } from "./harness.ts";

/** Where the store's answers differ from core's fold: `knows`, then whole fact rows. */
const storeDisagreements = (
  log: SqliteEventLog,
  events: ReadonlyArray<Event>,
  ledger: KnowledgeLedger,
): Array<string> => {
  const out = knowledgeDisagreements(
    events,
    (npc, item, t) => log.knowsAt("s", npc, item.kind, item.id, t as GameTime),
    undefined,
    ledger,
  );
  for (const t of knowledgeTimes(events)) {
    for (const npc of knowledgeNpcs) {
      const got = log.knownItems("s", npc, t as GameTime).map((k) => ({
        kind: k.kind,
        id: k.id,
        fact: { t: k.t, via: k.via, fromNpcId: k.fromNpcId, confidence: k.confidence },
      }));
      const want = ledger.knownAt(npc, t as GameTime);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        out.push(`${npc} at ${t}: store ${JSON.stringify(got)}, core ${JSON.stringify(want)}`);
      }
    }
  }
  return out;
};

/** Brings an event "written at version 0" back to its own (see the bulk-buffer case). */
const upcastAged = (raw: unknown): unknown => {
  const e = raw as { type: EventType; version: number };
  return e.version === 0 ? { ...e, version: currentVersions.get(e.type) } : e;
};

describe("the store's knowledge SQL agrees with core's knowledge fold", () => {
  it("property: on append and after a rebuild and a snapshot restore (SQLite's share), and after an import of aged events (the bulk buffer)", () => {
    fc.assert(
      fc.property(arbKnowledgeLog(), (batches) => {
        const events = batches.flat();
        const ledger = foldKnowledge(events);

        const { log } = freshStore(2);
        newSave(log, "s");
        appendBatches(log, "s", batches);
        expect(storeDisagreements(log, events, ledger).slice(0, 3)).toEqual([]);

        log.rebuildProjections("s");
        expect(storeDisagreements(log, events, ledger).slice(0, 3)).toEqual([]);

        // Rows seeded from a snapshot part way, the rest folded over them.
        const half = Math.floor(log.head("s") / 2);
        if (log.loadSnapshot("s", half) !== undefined) {
          log.restoreFromSnapshot("s", half);
          expect(storeDisagreements(log, events, ledger).slice(0, 3)).toEqual([]);
        }

        // Every event stored at version 0: the import folds it all through the projector.
        log.db.prepare("UPDATE events SET version = 0 WHERE save_id = 's'").run();
        const target = freshStore().log;
        target.importHistory(log, { saveId: "s" as never, upcast: upcastAged as never });
        expect(storeDisagreements(target, events, ledger).slice(0, 3)).toEqual([]);
      }),
      { numRuns: runs(60) },
    );
  });
});
