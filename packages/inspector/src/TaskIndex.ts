/**
 * Each task's status after any seq, folded from `TaskProposed` and `TaskStatusChanged`
 * (the `tasks` read model keeps only the latest status), and when deadlines were moved
 * (`TaskDeadlineMoved`).
 */
import type { SqliteDatabase } from "@hearsay/store";
import { eventRows } from "./EventRows.ts";

/** Statuses a task is still open in. */
export const openStatuses: ReadonlySet<string> = new Set(["proposed", "active"]);

export class TaskIndex {
  private readonly history = new Map<string, Array<{ seq: number; status: string }>>();
  /** Seqs of deadline moves, ascending (ingested in seq order). */
  private readonly moves: Array<number> = [];

  ingest(db: SqliteDatabase, saveId: string, fromSeq: number, toSeq: number): void {
    const proposed = [...eventRows(db, saveId, "TaskProposed", fromSeq, toSeq, ["taskId"])];
    const changed = [
      ...eventRows(db, saveId, "TaskStatusChanged", fromSeq, toSeq, ["taskId", "to"]),
    ];
    const all = [
      ...proposed.map((r) => ({ seq: r[0] as number, task: r[2] as string, status: "proposed" })),
      ...changed.map((r) => ({
        seq: r[0] as number,
        task: r[2] as string,
        status: r[3] as string,
      })),
    ].sort((a, b) => a.seq - b.seq);
    for (const r of eventRows(db, saveId, "TaskDeadlineMoved", fromSeq, toSeq, []))
      this.moves.push(r[0] as number);
    for (const e of all) {
      let h = this.history.get(e.task);
      if (!h) {
        h = [];
        this.history.set(e.task, h);
      }
      h.push({ seq: e.seq, status: e.status });
    }
  }

  /** The task's status after `seq`, or null before it was proposed. */
  statusAt(taskId: string, seq: number): string | null {
    let status: string | null = null;
    for (const e of this.history.get(taskId) ?? []) {
      if (e.seq > seq) break;
      status = e.status;
    }
    return status;
  }

  /** How many tasks were in each status after `seq` (statuses with none left out). */
  byStatusAt(seq: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of this.history.keys()) {
      const s = this.statusAt(id, seq);
      if (s !== null) out[s] = (out[s] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(out).sort());
  }

  /** How many deadlines had been moved by agreement by `seq`. */
  deadlinesMovedAt(seq: number): number {
    let n = 0;
    while (n < this.moves.length && this.moves[n]! <= seq) n += 1;
    return n;
  }

  /** How many tasks were open (proposed or active) after `seq`. */
  openAt(seq: number): number {
    let n = 0;
    for (const id of this.history.keys()) {
      const s = this.statusAt(id, seq);
      if (s !== null && openStatuses.has(s)) n += 1;
    }
    return n;
  }
}
