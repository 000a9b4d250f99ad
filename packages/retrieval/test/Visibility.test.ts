/**
 * The leak property: for random worlds and knowledge facts written through the store's
 * event log, no search result and no dossier item is something the NPC does not know
 * at that time (checked against core's `KnowledgeLedger` and the store's `knowsAt`),
 * every dossier is within its budget, and a view caught up event by event answers
 * exactly like one loaded fresh from the projections.
 */
import {
  type Dossier,
  type Event,
  estimateTokens,
  foldKnowledge,
  type GameTime,
  type ItemKind,
  ids,
  knows,
  type NpcId,
  renderDossier,
} from "@hearsay/core";
import {
  defaultSearchTuning,
  makeHashingEmbedder,
  RetrievalEngine,
  type SearchHit,
  VectorIndexes,
} from "@hearsay/retrieval";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { arbEventBatches, smallWorld } from "@hearsay/testkit";
import { Effect } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const embedder = makeHashingEmbedder({ dimensions: 48 });
const knowable: ReadonlySet<string> = new Set(["memory", "world_event", "debate"]);
const queries = ["dragon mill", "storm river oath", "secret bread", "", "bell harvest coin"];

/** Everything wrong with one result list or dossier, as readable strings (empty: fine). */
const problems = (
  db: ReturnType<typeof openDatabase>,
  log: SqliteEventLog,
  saveId: string,
  events: ReadonlyArray<Event>,
  npc: NpcId,
  t: number,
  items: ReadonlyArray<{ kind: string; id: string }>,
): Array<string> => {
  const ledger = foldKnowledge(events);
  const out: Array<string> = [];
  for (const item of items) {
    const at = `${item.kind} ${item.id} for ${npc} at ${t}`;
    if (knowable.has(item.kind)) {
      const ref = { kind: item.kind as ItemKind, id: item.id };
      if (!knows(ledger, npc, ref, t as GameTime)) out.push(`leak (ledger): ${at}`);
      if (!log.knowsAt(saveId, npc, ref.kind, ref.id, t as GameTime))
        out.push(`leak (store): ${at}`);
    } else if (item.kind === "summary") {
      const row = db
        .prepare(
          "SELECT t FROM conversation_summaries WHERE save_id = ? AND conversation_id = ? AND npc_id = ?",
        )
        .get(saveId, item.id, npc) as { t: number } | undefined;
      if (!row || row.t > t) out.push(`leak (summary): ${at}`);
    } else if (item.kind === "dialogue") {
      const [conv, turn] = item.id.split("#");
      const row = db
        .prepare(
          "SELECT t, speaker_id, listener_ids FROM conversation_turns WHERE save_id = ? AND conversation_id = ? AND turn_index = ?",
        )
        .get(saveId, conv, Number(turn)) as
        | { t: number; speaker_id: string; listener_ids: string }
        | undefined;
      const heard =
        row &&
        (row.speaker_id === npc || (JSON.parse(row.listener_ids) as Array<string>).includes(npc));
      if (!row || !heard || row.t > t) out.push(`leak (dialogue): ${at}`);
    } else if (item.kind === "relationship") {
      if (!item.id.startsWith(`${npc}->`)) out.push(`leak (edge): ${at}`);
    } else if (item.kind === "task") {
      const row = db
        .prepare("SELECT assignee, proposed_by FROM tasks WHERE save_id = ? AND task_id = ?")
        .get(saveId, item.id) as
        | { assignee: string | null; proposed_by: string | null }
        | undefined;
      if (!row || (row.assignee !== npc && row.proposed_by !== npc)) out.push(`leak (task): ${at}`);
    } else if (item.kind === "profile" && item.id !== npc) out.push(`leak (profile): ${at}`);
  }
  return out;
};

const budgetProblems = (d: Dossier): Array<string> => {
  const out: Array<string> = [];
  if (d.totalTokens > d.budget) out.push(`dossier over budget: ${d.totalTokens} > ${d.budget}`);
  const rendered = estimateTokens(renderDossier(d));
  if (rendered > d.totalTokens) out.push(`rendered ${rendered} tokens > counted ${d.totalTokens}`);
  for (const s of d.sections) if (s.tokens > s.budget) out.push(`${s.name} over its budget`);
  return out;
};

const deepTimeout = process.env.HEARSAY_DEEP ? 3_600_000 : 60_000;

const signature = (hits: ReadonlyArray<SearchHit>) =>
  hits.map((h) => `${h.kind}:${h.id}:${h.score.toFixed(9)}`);

describe("knowledge-filtered retrieval (property)", () => {
  it(
    "never returns an item the NPC does not know at that time, and keeps dossiers in budget",
    () => {
      const world = smallWorld(5);
      fc.assert(
        fc.property(
          arbEventBatches({ world, minSteps: 10, maxSteps: 90 }),
          // Which vector path large known sets take: the defaults (tiny worlds: exact
          // scans), the HNSW graph with post-filtering, or the contiguous known-set copies.
          fc.constantFrom("default", "graph", "matrix"),
          fc.constantFrom(120, 600, 3000),
          (batches, path, budget) => {
            const db = openDatabase(":memory:");
            try {
              const log = new SqliteEventLog(db);
              const saveId = ids.save("prop");
              log.createSave({ saveId, campaignId: world.campaignId, name: "prop" });
              const store = path === "default" ? {} : { hnswMinSize: 4 };
              const tuning =
                path === "graph"
                  ? { ...defaultSearchTuning, exactMax: 1, graphCost: 0 }
                  : path === "matrix"
                    ? { ...defaultSearchTuning, exactMax: 1, graphMax: 1 }
                    : defaultSearchTuning;
              const { index } = Effect.runSync(VectorIndexes.open(db, embedder, { store }));
              const engine = new RetrievalEngine(db, { log, embedder, index, tuning });
              const seen: Array<Event> = [];
              const issues: Array<string> = [];
              for (const batch of batches) {
                log.append(saveId, log.head(saveId), batch);
                seen.push(...batch);
                const now = seen[seen.length - 1]!.t;
                for (const t of [now, Math.floor(now / 2), 0]) {
                  for (const [i, npc] of world.npcs.entries()) {
                    const query = queries[(i + t) % queries.length]!;
                    const hits = engine.search({ saveId, npcId: npc.id, t, query, limit: 6 });
                    issues.push(...problems(db, log, saveId, seen, npc.id, t, hits));
                    const d = engine.dossier({
                      saveId,
                      npcId: npc.id,
                      t,
                      query: query || null,
                      scene: {
                        locationId: npc.locationId,
                        present: world.npcs.slice(0, 2).map((n) => n.id),
                      },
                      budget,
                      // Every other NPC's as a turn among NPCs, whose memories and world
                      // events are ranked as of the start of its day (the stable rules).
                      ...((i + t) % 2 === 0 ? { npcTurn: true } : {}),
                    });
                    if (d) {
                      issues.push(...budgetProblems(d));
                      issues.push(
                        ...problems(
                          db,
                          log,
                          saveId,
                          seen,
                          npc.id,
                          t,
                          d.sections.flatMap((s) => s.items),
                        ),
                      );
                    }
                  }
                }
              }
              // A view caught up event by event answers like one loaded fresh.
              const fresh = new RetrievalEngine(db, { log, embedder, index, tuning });
              const now = seen[seen.length - 1]!.t;
              for (const npc of world.npcs) {
                const req = { saveId, npcId: npc.id, t: now, query: "storm mill secret" };
                expect(signature(fresh.search(req))).toEqual(signature(engine.search(req)));
              }
              expect(issues).toEqual([]);
            } finally {
              db.close();
            }
          },
        ),
        { numRuns: process.env.HEARSAY_DEEP ? 400 : 15 },
      );
    },
    deepTimeout,
  );
});
