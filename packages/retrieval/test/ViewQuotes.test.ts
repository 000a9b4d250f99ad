/**
 * The words a dossier quotes of a searched item come from the view (`ItemTable.quote`),
 * not from a table read per hit: so the view's quote and time of every live item must be
 * the row's, whether the view was caught up event by event (summaries rewritten in place,
 * lore re-imported) or loaded afresh from the read models.
 */
import {
  type CollectionName,
  collectionNames,
  collections,
  importLore,
  makeHashingEmbedder,
  RetrievalEngine,
  type SaveView,
} from "@hearsay/retrieval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ev, npcEvents, openWorld, Prng, sentence, type TestWorld, viewTurns } from "./fixtures.ts";

const runs = (n: number) => ({ numRuns: process.env.HEARSAY_DEEP ? n * 10 : n });
const embedder = makeHashingEmbedder({ dimensions: 32 });

/** Quoted columns and the column of its time, per collection, as the tables hold them. */
const quoted: Readonly<Record<CollectionName, { cols: Array<string>; t: string | null }>> = {
  memories: { cols: ["text"], t: "recorded_at" },
  world_events: { cols: ["text"], t: "t" },
  lore: { cols: ["heading_path", "text"], t: null },
  conversation_summaries: { cols: ["summary", "partner_id"], t: "t" },
  background_debates: { cols: ["topic", "summary", "outcome"], t: "t" },
};

/** Every live item of the view: collection, id, time and quote. */
const quotesOf = (view: SaveView) =>
  collectionNames.flatMap((c) => {
    const tab = view.items[c];
    return tab.ids.flatMap((id, local) =>
      tab.dead[local]
        ? []
        : [{ c, id, rowid: tab.rowids[local]!, t: tab.t[local]!, q: tab.quoteOf(local) }],
    );
  });

/** The same, read from the tables by rowid. */
const rowQuote = (w: TestWorld, c: CollectionName, rowid: number) => {
  const { cols, t } = quoted[c];
  const row = w.db
    .prepare(
      `SELECT ${[...cols, t ?? "0 AS t0"].join(", ")} FROM ${collections[c].table} WHERE rowid = ?`,
    )
    .get(rowid) as Record<string, unknown>;
  return {
    t: Number(t === null ? 0 : row[t]),
    q: Object.fromEntries(cols.map((k) => [k, String(row[k])])),
  };
};

/** A random history touching every collection, rewriting summaries and lore, with dialogue. */
const history = (p: Prng, steps: number) => {
  const out: Array<Array<unknown>> = [];
  for (let i = 0; i < steps; i++) {
    const t = 10 + i * 5;
    const npc = `npc-${p.int(0, 2)}`;
    const other = `npc-${(p.int(0, 1) + 1 + Number(npc.slice(4))) % 3}`;
    switch (p.int(0, 5)) {
      case 0:
        out.push([
          ev("MemoryRecorded", t, {
            memoryId: `m-${i}`,
            ownerNpcId: npc,
            text: sentence(p, p.int(0, 4)),
            category: "observation",
            importance: 0.5,
            expiresAt: null,
            locationId: "square",
            entities: [],
            about: null,
          }),
        ]);
        break;
      case 1:
        out.push([
          ev("WorldEventOccurred", t, {
            worldEventId: `w-${i}`,
            kind: "rumor",
            text: sentence(p, p.int(0, 4)),
            locationId: null,
            factionId: null,
            visibility: "global",
            importance: 0.7,
            participants: [npc],
            entities: [],
            lapsesAt: null,
          }),
        ]);
        break;
      case 2:
        out.push([
          ev("DebateHeld", t, {
            debateId: `d-${i}`,
            topic: sentence(p, p.int(0, 4)),
            participants: [npc, other],
            locationId: "square",
            factionId: null,
            summary: sentence(p, p.int(0, 4)),
            outcome: sentence(p, p.int(0, 4)),
          }),
        ]);
        break;
      case 3:
        // Few conversations, so a holder's summary is often rewritten in place.
        out.push([
          ev("ConversationSummarized", t, {
            conversationId: `conv-${p.int(0, 1)}`,
            npcId: npc,
            partnerId: other,
            throughTurn: i,
            summary: sentence(p, p.int(0, 4)),
          }),
        ]);
        break;
      case 4:
        out.push([
          ev("ConversationTurn", t, {
            conversationId: `conv-${p.int(0, 1)}`,
            turnIndex: i,
            speakerId: npc,
            listenerIds: [other],
            locationId: "square",
            text: sentence(p, p.int(0, 4)),
          }),
        ]);
        break;
      default:
        out.push([`lore-${p.int(0, 1)}`, `# Part ${i}\n\n${sentence(p, p.int(0, 4))}\n`]);
    }
  }
  return out;
};

describe("the view's quotes", () => {
  it("property: caught up or loaded afresh, every live item's quote and time are its row's", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 6 }),
        (seed, n, perAppend) => {
          const w = openWorld();
          w.append(npcEvents(3));
          const live = new RetrievalEngine(w.db, { log: w.log, embedder });
          live.view(w.saveId);
          // Events go in appends of up to `perAppend`: the view reads a batch's rows at once.
          let batch: Array<unknown> = [];
          const flush = () => {
            if (batch.length === 0) return;
            const r = w.log.append(w.saveId, w.log.head(w.saveId), batch as never);
            live.view(w.saveId, r.appended);
            batch = [];
          };
          for (const step of history(Prng.derive(seed, "quotes"), n)) {
            if (typeof step[0] === "string") {
              flush();
              importLore(w.db, w.log, {
                saveId: w.saveId,
                t: 1,
                files: [{ path: `${step[0]}.md`, bytes: String(step[1]) }],
              });
            } else {
              batch.push(...step);
              if (batch.length >= perAppend) flush();
            }
          }
          flush();
          const view = live.view(w.saveId);
          const caughtUp = quotesOf(view);
          for (const item of caughtUp) {
            expect({ t: item.t, q: item.q }).toEqual(rowQuote(w, item.c, item.rowid));
          }
          const freshView = new RetrievalEngine(w.db, { log: w.log, embedder }).view(w.saveId);
          expect(caughtUp).toEqual(quotesOf(freshView));
          expect(viewTurns(view)).toEqual(viewTurns(freshView));
          w.db.close();
        },
      ),
      runs(20),
    );
  });
});
