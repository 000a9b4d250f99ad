/**
 * The retrieval view's catch-up fed the events an append returned: it reads nothing back
 * from the log when they follow on from the view, reads the log for what they do not
 * cover (another writer's events in between), and either way ends where a view loaded
 * afresh from the read models is — the same dossiers for every NPC.
 */
import type { StoredEvent } from "@hearsay/core";
import { makeHashingEmbedder, RetrievalEngine } from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { memoryEvents, npcEvents, openWorld, Prng } from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });
const embedder = makeHashingEmbedder({ dimensions: 32 });
const NPCS = 4;

describe("RetrievalEngine.view fed appended events", () => {
  it("property: reads no event back when fed its writer's appends, and ends as a fresh view", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (seed, sizes, foreign) => {
          const w = openWorld();
          w.append(npcEvents(NPCS));
          const fed = new RetrievalEngine(w.db, { log: w.log, embedder });
          fed.view(w.saveId);
          const read = vi.spyOn(w.log, "read");
          const events = memoryEvents(Prng.derive(seed, "catch-up"), NPCS, sizes.length * 30);
          let at = 0;
          let expectedReads = 0;
          sizes.forEach((n, i) => {
            const batch = events.slice(at, at + n);
            at += n;
            if (batch.length === 0) return;
            const head = w.log.head(w.saveId);
            if (foreign[i] === true) {
              // Another writer's batch lands first: the view must read that one from the log.
              const other = w.log.append(w.saveId, head, batch.slice(0, 1));
              const mine = w.log.append(w.saveId, other.head, batch.slice(1));
              fed.view(w.saveId, mine.appended);
              expectedReads += 1;
            } else {
              const mine = w.log.append(w.saveId, head, batch);
              fed.view(w.saveId, mine.appended as ReadonlyArray<StoredEvent>);
            }
          });
          expect(read).toHaveBeenCalledTimes(expectedReads);
          read.mockRestore();
          const fresh = new RetrievalEngine(w.db, { log: w.log, embedder });
          const t = 10 + at;
          for (let n = 0; n < NPCS; n++) {
            const ask = {
              saveId: w.saveId,
              npcId: `npc-${n}`,
              t,
              query: "grain mill",
              scene: null,
            };
            expect(fed.dossier(ask)).toEqual(fresh.dossier(ask));
          }
          w.db.close();
        },
      ),
      runs(15),
    );
  });
});
