/**
 * The dialogue rows the view keeps (`TurnRows`): each NPC's last few turns carry the row
 * a dossier's dialogue quotes, equal to the table's, whether the view was caught up event
 * by event or loaded afresh; no more than that are kept however long the talk goes on;
 * a dossier at the head reads no turn row, and its dialogue is the one read from the table.
 */
import {
  KEPT_TURN_ROWS,
  makeHashingEmbedder,
  RetrievalEngine,
  type SaveView,
} from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  ev,
  npcEvents,
  openWorld,
  Prng,
  sentence,
  type TestWorld,
  turnEntries,
  viewTurns,
} from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });
const embedder = makeHashingEmbedder({ dimensions: 32 });
const NPCS = 5;

/**
 * Dialogue among `NPCS` NPCs, a turn or two a tick: a speaker and zero to three listeners,
 * a few conversations whose indices sometimes repeat (the store keeps the first such turn).
 */
const talk = (p: Prng, turns: number, t0 = 10) =>
  Array.from({ length: turns }, (_, i) => {
    const speaker = p.int(0, NPCS - 1);
    const listeners = [...new Set(Array.from({ length: p.int(0, 3) }, () => p.int(0, NPCS - 1)))]
      .filter((n) => n !== speaker)
      .map((n) => `npc-${n}`);
    return ev("ConversationTurn", t0 + Math.floor(i / 2), {
      conversationId: `conv-${p.int(0, 3)}`,
      turnIndex: p.chance(0.1) ? p.int(0, i) : i,
      speakerId: `npc-${speaker}`,
      listenerIds: listeners,
      locationId: "square",
      text: sentence(p, p.int(0, 4)),
    });
  });

const tableRow = (w: TestWorld, rowid: number) =>
  w.db
    .prepare(
      "SELECT conversation_id, turn_index, speaker_id, text, t FROM conversation_turns WHERE rowid = ?",
    )
    .get(rowid);

/** Checks each NPC's kept rows: exactly its last `KEPT_TURN_ROWS` turns, each the table's row. */
const checkKept = (w: TestWorld, view: SaveView): number => {
  const held = new Set<unknown>();
  for (const [npc, list] of view.turns) {
    turnEntries(list).forEach((ref, i) => {
      const kept = i >= list.length - KEPT_TURN_ROWS;
      expect(ref.row !== undefined, `${npc} turn ${i} of ${list.length}`).toBe(kept);
      if (ref.row !== undefined) {
        expect(ref.row).toEqual(tableRow(w, ref.rowid));
        held.add(ref.row);
      }
    });
  }
  return held.size;
};

const appendIn = (w: TestWorld, engine: RetrievalEngine, events: Array<unknown>, size: number) => {
  for (let at = 0; at < events.length; at += size) {
    const r = w.log.append(w.saveId, w.log.head(w.saveId), events.slice(at, at + size) as never);
    engine.view(w.saveId, r.appended);
  }
};

describe("the view's dialogue rows", () => {
  it("property: caught up or loaded afresh, each NPC's last turns carry their table rows", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (seed, n, perAppend) => {
          const w = openWorld();
          w.append(npcEvents(NPCS));
          const live = new RetrievalEngine(w.db, { log: w.log, embedder });
          live.view(w.saveId);
          appendIn(w, live, talk(Prng.derive(seed, "talk"), n), perAppend);
          const view = live.view(w.saveId);
          checkKept(w, view);
          const fresh = new RetrievalEngine(w.db, { log: w.log, embedder }).view(w.saveId);
          checkKept(w, fresh);
          expect(viewTurns(view)).toEqual(viewTurns(fresh));
          w.db.close();
        },
      ),
      runs(25),
    );
  });

  it("keeps at most KEPT_TURN_ROWS rows per NPC over a long talk", () => {
    const w = openWorld();
    w.append(npcEvents(NPCS));
    const engine = new RetrievalEngine(w.db, { log: w.log, embedder });
    engine.view(w.saveId);
    const events = talk(Prng.derive(7, "long"), 3000);
    let most = 0;
    for (let at = 0; at < events.length; at += 500) {
      appendIn(w, engine, events.slice(at, at + 500), 10);
      most = Math.max(most, checkKept(w, engine.view(w.saveId)));
    }
    const turns = [...engine.view(w.saveId).turns.values()].reduce((n, l) => n + l.length, 0);
    expect(turns).toBeGreaterThan(3000);
    expect(most).toBeGreaterThan(KEPT_TURN_ROWS);
    expect(most).toBeLessThanOrEqual(NPCS * KEPT_TURN_ROWS);
    w.db.close();
  });

  it("property: a dossier at the head reads no turn row and shows what the table holds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom("moment", "stable", "steady") as fc.Arbitrary<
          "moment" | "stable" | "steady"
        >,
        (seed, n, rules) => {
          const w = openWorld();
          w.append(npcEvents(NPCS));
          const live = new RetrievalEngine(w.db, { log: w.log, embedder });
          live.view(w.saveId);
          const events = talk(Prng.derive(seed, "dossier"), n);
          appendIn(w, live, events, 3);
          // The same dossiers with every row read from the table: a view whose rows are dropped.
          const reader = new RetrievalEngine(w.db, { log: w.log, embedder });
          for (const list of reader.view(w.saveId).turns.values())
            for (let i = Math.max(0, list.length - KEPT_TURN_ROWS); i < list.length; i++)
              list.setRow(i, undefined);
          const reads = vi.spyOn(live.source, "turn");
          const last = 10 + Math.floor((n - 1) / 2);
          for (let i = 0; i < NPCS; i++) {
            const ask = { saveId: w.saveId, npcId: `npc-${i}`, t: last, query: null, scene: null };
            const d = live.dossier({ ...ask, rules });
            expect(d).toEqual(reader.dossier({ ...ask, rules }));
          }
          expect(reads).not.toHaveBeenCalled();
          // An earlier time may ask for turns older than the kept ones: read, the same.
          for (let i = 0; i < NPCS; i++) {
            const ask = { saveId: w.saveId, npcId: `npc-${i}`, t: 10, query: null, scene: null };
            expect(live.dossier({ ...ask, rules })).toEqual(reader.dossier({ ...ask, rules }));
          }
          w.db.close();
        },
      ),
      runs(15),
    );
  });
});
