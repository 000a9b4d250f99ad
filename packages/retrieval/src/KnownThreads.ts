/**
 * The threads a save's view keeps for the dossier's threads section: every thread opened
 * (the store's `threads` projection: a thread id opens once, and closes once while open)
 * and each NPC's earliest `thread` knowledge fact (core's rule, as the view folds it).
 * `openKnown` answers what `ThreadSource` asks of the tables — the open threads an NPC
 * knows of at t, newest first, at most 16 — so a run reads no table for it
 * (retrieval/test/KnownThreads.test.ts holds the two equal).
 */
import type { ThreadKind } from "@hearsay/core";
import type { ThreadReads, ThreadRow } from "./ThreadSection.ts";

interface Thread {
  readonly row: ThreadRow;
  closedAt: number | null;
}

/** As the SQL query: LIMIT 16. */
const MOST = 16;

export class KnownThreads implements ThreadReads {
  private readonly threads = new Map<string, Thread>();
  /** Per NPC, per thread it knows of: the time of its earliest fact. */
  private readonly known = new Map<string, Map<string, number>>();

  /** A thread opened (a second opening of the same id changes nothing). */
  opened(row: ThreadRow, closedAt: number | null = null): void {
    if (!this.threads.has(row.thread_id)) this.threads.set(row.thread_id, { row, closedAt });
  }

  /** A thread closed at t, if it is open. */
  closed(threadId: string, t: number): void {
    const thread = this.threads.get(threadId);
    if (thread !== undefined && thread.closedAt === null) thread.closedAt = t;
  }

  /** The NPC's fact about a thread at t (the earliest is kept). */
  learn(npcId: string, threadId: string, t: number): void {
    let mine = this.known.get(npcId);
    if (!mine) {
      mine = new Map();
      this.known.set(npcId, mine);
    }
    const prior = mine.get(threadId);
    if (prior === undefined || t < prior) mine.set(threadId, t);
  }

  /** The time of the NPC's fact about the thread, if it has one. */
  factTime(npcId: string, threadId: string): number | undefined {
    return this.known.get(npcId)?.get(threadId);
  }

  /** Open threads `npcId` knows of at `t`, newest first (at most 16), as `ThreadSource`'s. */
  openKnown(_saveId: string, npcId: string, t: number): ReadonlyArray<ThreadRow> {
    const mine = this.known.get(npcId);
    if (!mine) return [];
    const out: Array<ThreadRow> = [];
    for (const [threadId, at] of mine) {
      if (at > t) continue;
      const thread = this.threads.get(threadId);
      if (thread === undefined || thread.row.opened_at > t) continue;
      if (thread.closedAt !== null && thread.closedAt <= t) continue;
      out.push(thread.row);
    }
    out.sort(
      (a, b) =>
        b.opened_at - a.opened_at ||
        (a.thread_id < b.thread_id ? -1 : a.thread_id > b.thread_id ? 1 : 0),
    );
    return out.length > MOST ? out.slice(0, MOST) : out;
  }
}

/** A thread's row as the store writes it from its ThreadOpened. */
export const threadRow = (
  threadId: string,
  kind: ThreadKind,
  text: string,
  npcIds: ReadonlyArray<string>,
  openedAt: number,
): ThreadRow => ({
  thread_id: threadId,
  kind,
  text,
  npc_ids: JSON.stringify(npcIds),
  opened_at: openedAt,
});
