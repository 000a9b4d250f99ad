/**
 * What a run spent on its brain, read from the `llm_calls` read model: calls, tokens and
 * latency, per purpose, per NPC and per game day. `hearsay stats` and the end summary of
 * a run print it; the inspector shows the same figures.
 */
import type { SqliteDatabase } from "./openDatabase.ts";

export interface CallFigures {
  readonly calls: number;
  readonly failed: number;
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly meanLatencyMs: number;
  readonly maxLatencyMs: number;
}

export interface LlmCallStats {
  readonly total: CallFigures;
  readonly byPurpose: ReadonlyArray<{ readonly purpose: string } & CallFigures>;
  readonly byBrain: ReadonlyArray<{ readonly brain: string; readonly model: string } & CallFigures>;
  readonly byNpc: ReadonlyArray<{ readonly npcId: string | null } & CallFigures>;
  readonly byDay: ReadonlyArray<{ readonly day: number } & CallFigures>;
}

const figures = `COUNT(*) AS calls, SUM(error IS NOT NULL) AS failed,
  COALESCE(SUM(prompt_tokens), 0) AS promptTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens,
  COALESCE(AVG(latency_ms), 0) AS meanLatencyMs, COALESCE(MAX(latency_ms), 0) AS maxLatencyMs`;

const clean = <R extends CallFigures>(r: R): R => ({ ...r, failed: r.failed ?? 0 });

/** Brain spending of one save (its own calls; a branch's inherited ones are its parent's). */
export const llmCallStats = (db: SqliteDatabase, saveId: string): LlmCallStats => {
  const q = <R>(group: string, select: string): Array<R> =>
    db
      .prepare(
        `SELECT ${select}${select ? ", " : ""}${figures} FROM llm_calls WHERE save_id = ? ${group}`,
      )
      .all(saveId) as Array<R>;
  const total = clean(q<CallFigures>("", "")[0]!);
  return {
    total,
    byPurpose: q<{ purpose: string } & CallFigures>(
      "GROUP BY purpose ORDER BY calls DESC, purpose",
      "purpose",
    ).map(clean),
    byBrain: q<{ brain: string; model: string } & CallFigures>(
      "GROUP BY brain, model ORDER BY calls DESC, brain, model",
      "brain, model",
    ).map(clean),
    byNpc: q<{ npcId: string | null } & CallFigures>(
      "GROUP BY npc_id ORDER BY calls DESC, npc_id",
      "npc_id AS npcId",
    ).map(clean),
    byDay: q<{ day: number } & CallFigures>(
      "GROUP BY t / 1440 ORDER BY day",
      "t / 1440 AS day",
    ).map(clean),
  };
};
