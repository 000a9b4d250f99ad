/**
 * What a run spent on its brain, read from the `llm_calls` read model: calls, tokens and
 * latency, per purpose, per NPC and per game day. `hearsay stats` and the end summary of
 * a run print it; the inspector shows the same figures.
 */
import { type FallbackKind, fallbackKindOf } from "./fallbackKind.ts";
import type { SqliteDatabase } from "./openDatabase.ts";

export interface CallFigures {
  readonly calls: number;
  /** Calls answered by a fallback (the configured model failed or was refused). */
  readonly fellBack: number;
  /** Calls no brain answered. */
  readonly failed: number;
  /** Model answers refused (invalid, unknown ids), repairs included. */
  readonly rejected: number;
  /** Every token sent and received, refused answers' included. */
  readonly promptTokens: number;
  readonly outputTokens: number;
  /** Of those, the tokens of refused answers' requests. */
  readonly rejectedPromptTokens: number;
  readonly rejectedOutputTokens: number;
  readonly meanLatencyMs: number;
  readonly maxLatencyMs: number;
}

export interface LlmCallStats {
  readonly total: CallFigures;
  readonly byPurpose: ReadonlyArray<{ readonly purpose: string } & CallFigures>;
  readonly byBrain: ReadonlyArray<{ readonly brain: string; readonly model: string } & CallFigures>;
  readonly byNpc: ReadonlyArray<{ readonly npcId: string | null } & CallFigures>;
  readonly byDay: ReadonlyArray<{ readonly day: number } & CallFigures>;
  /** Per priority class of the brain policy; null: calls recorded without one. */
  readonly byPriority: ReadonlyArray<{ readonly priority: string | null } & CallFigures>;
  /** Per priority class, why its calls fell back (see fallbackKind.ts), in byPriority's order. */
  readonly fallbacksByPriority: ReadonlyArray<
    { readonly priority: string | null } & Readonly<Record<FallbackKind, number>>
  >;
}

// Whether a call was answered, and what it refused, are read from its event (seq).
const answered = "(events.payload ->> '$.output') IS NOT NULL";
const refused = (field: string) => `COALESCE(SUM(events.payload ->> '$.rejected.${field}'), 0)`;
const figures = `COUNT(*) AS calls,
  COALESCE(SUM(l.error IS NOT NULL AND ${answered}), 0) AS fellBack,
  COALESCE(SUM(NOT ${answered}), 0) AS failed,
  ${refused("answers")} AS rejected,
  COALESCE(SUM(l.prompt_tokens), 0) AS promptTokens, COALESCE(SUM(l.output_tokens), 0) AS outputTokens,
  ${refused("promptTokens")} AS rejectedPromptTokens, ${refused("outputTokens")} AS rejectedOutputTokens,
  COALESCE(AVG(l.latency_ms), 0) AS meanLatencyMs, COALESCE(MAX(l.latency_ms), 0) AS maxLatencyMs`;

/** Brain spending of one save (its own calls; a branch's inherited ones are its parent's). */
export const llmCallStats = (db: SqliteDatabase, saveId: string): LlmCallStats => {
  const q = <R>(group: string, select: string): Array<R> =>
    db
      .prepare(
        `SELECT ${select}${select ? ", " : ""}${figures} FROM llm_calls AS l
          JOIN events ON events.save_id = l.save_id AND events.seq = l.seq
          WHERE l.save_id = ? ${group}`,
      )
      .all(saveId) as Array<R>;
  const total = q<CallFigures>("", "")[0]!;
  const byPriority = q<{ priority: string | null } & CallFigures>(
    "GROUP BY priority ORDER BY calls DESC, priority",
    "events.payload ->> '$.policy.priority' AS priority",
  );
  return {
    total,
    byPurpose: q<{ purpose: string } & CallFigures>(
      "GROUP BY l.purpose ORDER BY calls DESC, l.purpose",
      "l.purpose AS purpose",
    ),
    byBrain: q<{ brain: string; model: string } & CallFigures>(
      "GROUP BY l.brain, l.model ORDER BY calls DESC, l.brain, l.model",
      "l.brain AS brain, l.model AS model",
    ),
    byNpc: q<{ npcId: string | null } & CallFigures>(
      "GROUP BY l.npc_id ORDER BY calls DESC, l.npc_id",
      "l.npc_id AS npcId",
    ),
    byDay: q<{ day: number } & CallFigures>(
      "GROUP BY l.t / 1440 ORDER BY day",
      "l.t / 1440 AS day",
    ),
    byPriority,
    fallbacksByPriority: fallbacksBy(db, saveId, byPriority),
  };
};

/** Why each class's calls fell back, counted over the save's calls with a reason. */
const fallbacksBy = (
  db: SqliteDatabase,
  saveId: string,
  classes: ReadonlyArray<{ readonly priority: string | null }>,
): LlmCallStats["fallbacksByPriority"] => {
  const counts = new Map(
    classes.map((c) => [c.priority, { priority: c.priority, held: 0, budget: 0, model: 0 }]),
  );
  const rows = db
    .prepare(
      `SELECT events.payload ->> '$.policy.priority', l.error FROM llm_calls AS l
        JOIN events ON events.save_id = l.save_id AND events.seq = l.seq
        WHERE l.save_id = ? AND l.error IS NOT NULL`,
    )
    .raw(true)
    .iterate(saveId) as IterableIterator<[string | null, string]>;
  for (const [priority, error] of rows) {
    const kind = fallbackKindOf(error);
    const c = counts.get(priority);
    if (kind !== null && c !== undefined) c[kind] += 1;
  }
  return [...counts.values()];
};
