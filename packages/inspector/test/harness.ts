/**
 * A small recorded world for the inspector's tests: the default world (Haskerry) run for
 * a few game days with the scripted brain, its calls recorded, written once per test file
 * to a temporary database. Also a fake dossier source built from the store's rows.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Dossier,
  dossierSectionNames,
  estimateTokens,
  type GameTime,
  ids,
  type NpcId,
  type SaveId,
} from "@hearsay/core";
import {
  type DossierSource,
  loadSimulation,
  runSimulation,
  type SimulationSpec,
} from "@hearsay/engine";
import { type BrainShape, ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";

/** Writes `days` game days of Haskerry to a fresh database file; returns its path. */
export const recordHaskerry = async (
  days = 2,
  brain: BrainShape = ScriptedBrain.make(),
  dossiers: (log: SqliteEventLog, saveId: SaveId) => DossierSource = () => ({
    dossier: () => null,
  }),
  over: Pick<SimulationSpec, "carried"> = {},
): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), "hearsay-inspector-"));
  const path = join(dir, "haskerry.db");
  const sim = loadSimulation();
  const db = openDatabase(path);
  try {
    await runSimulation({
      world: sim.world,
      worldHash: sim.worldHash,
      lore: sim.lore,
      log: new SqliteEventLog(db),
      saveId: ids.save("main"),
      days,
      seed: 3,
      brain,
      recordBrain: true,
      dossiers,
      resume: false,
      ...over,
    });
  } finally {
    db.close();
  }
  return path;
};

/** Requests a fake dossier source was asked. */
export type DossierRequest = Parameters<DossierSource["dossier"]>[0];

/**
 * A dossier factory that answers from the store: the NPC's memories alive at t, scored
 * by importance, cut to a 120-token memories budget. Records every request it gets.
 */
export const fakeDossiers =
  (asked: Array<DossierRequest>) => (log: SqliteEventLog, saveId: SaveId) => ({
    dossier: (req: DossierRequest): Dossier => {
      asked.push(req);
      const rows = log.db
        .prepare(
          `SELECT memory_id, text, importance FROM memories WHERE save_id = ? AND owner_npc_id = ? AND recorded_at <= ?
         AND (expires_at IS NULL OR expires_at > ?) AND (gone_at IS NULL OR gone_at > ?) ORDER BY importance DESC, memory_id`,
        )
        .all(saveId, req.npcId, req.t, req.t, req.t) as Array<{
        memory_id: string;
        text: string;
        importance: number;
      }>;
      let used = 0;
      const items: Array<Dossier["sections"][number]["items"][number]> = [];
      for (const r of rows) {
        const tokens = estimateTokens(r.text);
        if (used + tokens > 120) break;
        used += tokens;
        items.push({
          kind: "memory" as const,
          id: r.memory_id,
          score: r.importance,
          tokens,
          text: r.text,
        });
      }
      return {
        saveId,
        npcId: req.npcId as NpcId,
        npcName: req.npcId,
        t: req.t as GameTime,
        day: Math.floor(req.t / 1440),
        query: req.query,
        budget: 600,
        totalTokens: used,
        sections: dossierSectionNames.map((name) => ({
          name,
          budget: name === "memories" ? 120 : 60,
          tokens: name === "memories" ? used : 0,
          items: name === "memories" ? items : [],
        })),
      };
    },
  });

/** GETs a JSON route of a running inspector. */
export const getJson = async <T = unknown>(
  base: string,
  path: string,
): Promise<{ status: number; body: T }> => {
  const res = await fetch(new URL(path, base));
  return { status: res.status, body: (await res.json()) as T };
};
