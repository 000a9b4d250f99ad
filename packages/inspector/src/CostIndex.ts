/**
 * Running totals of recorded model calls — overall, per purpose, per NPC, and per game
 * day, priority class and purpose — from the `llm_calls` read model (which keeps each
 * call's seq), so any panel can ask for the totals after any seq by binary search
 * instead of re-aggregating a year of calls.
 */
import { fallbackKindOf, type SqliteDatabase } from "@hearsay/store";
import { SeqSeries } from "./SeqSeries.ts";

/** Per day, class and purpose: calls, answered by the model, and fallbacks by why. */
export interface ClassTotals {
  readonly day: number;
  /** The brain policy's class; null: recorded without a policy. */
  readonly priority: string | null;
  readonly purpose: string;
  readonly calls: number;
  readonly model: number;
  readonly held: number;
  readonly budget: number;
  readonly failed: number;
}

/** Columns: calls, errors, prompt tokens, output tokens, latency (ms). */
export interface Totals {
  readonly calls: number;
  readonly errors: number;
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
}

const zero: Totals = { calls: 0, errors: 0, promptTokens: 0, outputTokens: 0, latencyMs: 0 };

const totalsAt = (s: SeqSeries | undefined, seq: number): Totals => {
  const i = s ? s.indexAt(seq) : -1;
  if (!s || i < 0) return zero;
  return {
    calls: s.value(i, 0),
    errors: s.value(i, 1),
    promptTokens: s.value(i, 2),
    outputTokens: s.value(i, 3),
    latencyMs: s.value(i, 4),
  };
};

/** `a - b`, column by column. */
export const minus = (a: Totals, b: Totals): Totals => ({
  calls: a.calls - b.calls,
  errors: a.errors - b.errors,
  promptTokens: a.promptTokens - b.promptTokens,
  outputTokens: a.outputTokens - b.outputTokens,
  latencyMs: a.latencyMs - b.latencyMs,
});

export class CostIndex {
  readonly all = new SeqSeries(5, 1024);
  private readonly byPurpose = new Map<string, SeqSeries>();
  private readonly byNpc = new Map<string, SeqSeries>();
  /** Columns: calls, model, held, budget, failed; keyed by day, class and purpose. */
  private readonly byClass = new Map<
    string,
    { day: number; priority: string | null; purpose: string; series: SeqSeries }
  >();
  private lastSeq = 0;

  /** Folds the save's calls recorded after the last fold, up to `toSeq`. */
  ingest(db: SqliteDatabase, saveId: string, toSeq: number): void {
    const rows = db
      .prepare(
        `SELECT seq, npc_id, purpose, (error IS NOT NULL), prompt_tokens, output_tokens, latency_ms
         FROM llm_calls WHERE save_id = ? AND seq > ? AND seq <= ? ORDER BY seq, call_id`,
      )
      .raw(true)
      .iterate(saveId, this.lastSeq, toSeq) as IterableIterator<
      [number, string | null, string, number, number, number, number]
    >;
    for (const [seq, npc, purpose, error, prompt, output, latency] of rows) {
      this.all.pushDelta(seq, 1, error, prompt, output, latency);
      const series = (map: Map<string, SeqSeries>, key: string) => {
        let s = map.get(key);
        if (!s) {
          s = new SeqSeries(5);
          map.set(key, s);
        }
        return s;
      };
      series(this.byPurpose, purpose).pushDelta(seq, 1, error, prompt, output, latency);
      if (npc !== null) series(this.byNpc, npc).pushDelta(seq, 1, error, prompt, output, latency);
    }
    this.ingestClasses(db, saveId, toSeq);
    this.lastSeq = toSeq;
  }

  private ingestClasses(db: SqliteDatabase, saveId: string, toSeq: number): void {
    const rows = db
      .prepare(
        `SELECT l.seq, l.t / 1440, events.payload ->> '$.policy.priority', l.purpose, l.brain, l.error
         FROM llm_calls AS l JOIN events ON events.save_id = l.save_id AND events.seq = l.seq
         WHERE l.save_id = ? AND l.seq > ? AND l.seq <= ? ORDER BY l.seq, l.call_id`,
      )
      .raw(true)
      .iterate(saveId, this.lastSeq, toSeq) as IterableIterator<
      [number, number, string | null, string, string, string | null]
    >;
    for (const [seq, day, priority, purpose, brain, error] of rows) {
      const key = `${day}\u0000${priority ?? ""}\u0000${purpose}`;
      let entry = this.byClass.get(key);
      if (!entry) {
        entry = { day, priority, purpose, series: new SeqSeries(5) };
        this.byClass.set(key, entry);
      }
      const kind = fallbackKindOf(error);
      const model = error === null && brain !== "scripted" ? 1 : 0;
      entry.series.pushDelta(
        seq,
        1,
        model,
        kind === "held" ? 1 : 0,
        kind === "budget" ? 1 : 0,
        kind === "model" ? 1 : 0,
      );
    }
  }

  /** Per day, class and purpose at or before `seq` (keys with at least one call). */
  classesAt(seq: number): ReadonlyArray<ClassTotals> {
    const out: Array<ClassTotals> = [];
    for (const { day, priority, purpose, series } of this.byClass.values()) {
      const i = series.indexAt(seq);
      if (i < 0) continue;
      out.push({
        day,
        priority,
        purpose,
        calls: series.value(i, 0),
        model: series.value(i, 1),
        held: series.value(i, 2),
        budget: series.value(i, 3),
        failed: series.value(i, 4),
      });
    }
    return out.sort(
      (a, b) =>
        a.day - b.day ||
        ((a.priority ?? "") < (b.priority ?? "")
          ? -1
          : (a.priority ?? "") > (b.priority ?? "")
            ? 1
            : 0) ||
        (a.purpose < b.purpose ? -1 : a.purpose > b.purpose ? 1 : 0),
    );
  }

  /** Totals of every call at or before `seq`. */
  totalAt(seq: number): Totals {
    return totalsAt(this.all, seq);
  }

  /** Totals per purpose at or before `seq`, by purpose name. */
  purposesAt(seq: number): ReadonlyArray<Totals & { readonly purpose: string }> {
    return [...this.byPurpose]
      .map(([purpose, s]) => ({ purpose, ...totalsAt(s, seq) }))
      .filter((p) => p.calls > 0)
      .sort((a, b) => (a.purpose < b.purpose ? -1 : 1));
  }

  /** Totals per NPC at or before `seq` (NPCs with at least one call). */
  npcsAt(seq: number): ReadonlyArray<Totals & { readonly npcId: string }> {
    return [...this.byNpc]
      .map(([npcId, s]) => ({ npcId, ...totalsAt(s, seq) }))
      .filter((n) => n.calls > 0);
  }
}
