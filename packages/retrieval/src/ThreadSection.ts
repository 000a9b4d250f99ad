/**
 * The dossier's "What is unresolved" section: the open threads (promises, feuds, debts,
 * open questions — see core's events/threads.ts) an NPC knows of at t. A thread is shown
 * from the time the NPC learnt of it until it closes, read from the store's `threads`
 * projection joined with the NPC's `thread` knowledge, so a dossier taken for a past t
 * shows what was open then. Threads with someone present rank first, then the newest.
 */
import { formatGameTime, type GameTime, type ThreadKind } from "@hearsay/core";
import type { SqliteDatabase } from "@hearsay/store";
import { prepare, type Statement } from "./prepare.ts";
import type { SectionCandidate } from "./tokenBudget.ts";

/** An open thread as the section reads it. */
export interface ThreadRow {
  readonly thread_id: string;
  readonly kind: ThreadKind;
  readonly text: string;
  readonly npc_ids: string;
  readonly opened_at: number;
}

/** What the section reads: the open threads an NPC knows of at t. */
export interface ThreadReads {
  openKnown(saveId: string, npcId: string, t: number): ReadonlyArray<ThreadRow>;
}

/** Reads the threads an NPC knows of and that are open at t. */
export class ThreadSource implements ThreadReads {
  private readonly open: Statement;

  constructor(db: SqliteDatabase) {
    // Driven from the NPC's own thread knowledge (a primary-key range), each thread then
    // fetched by its key: CROSS JOIN fixes that order, so the cost follows what the NPC
    // knows, not how many threads the save has ever opened.
    this.open = prepare(
      db,
      `SELECT th.thread_id, th.kind, th.text, th.npc_ids, th.opened_at
       FROM knowledge k CROSS JOIN threads th ON th.save_id = k.save_id AND th.thread_id = k.item_id
       WHERE k.save_id = ? AND k.npc_id = ? AND k.item_kind = 'thread' AND k.t <= ?
         AND th.opened_at <= ? AND (th.closed_at IS NULL OR th.closed_at > ?)
       ORDER BY th.opened_at DESC, th.thread_id LIMIT 16`,
    );
  }

  /** Open threads `npcId` knows of at `t`, newest first (at most 16). */
  openKnown(saveId: string, npcId: string, t: number): ReadonlyArray<ThreadRow> {
    return this.open.all(saveId, npcId, t, t, t) as Array<ThreadRow>;
  }
}

const labels: Readonly<Record<ThreadKind, string>> = {
  promise: "A promise",
  feud: "Bad blood",
  debt: "A debt",
  question: "An open question",
  secret: "A secret",
};

const npcList = (json: string): ReadonlyArray<string> => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/**
 * The section's ranked candidates for `npcId` at `t`, given who is present (none: the
 * newest first, as the `steady` dossier rules rank them); each carries its opening time
 * as its arrival order (`DossierItem.order`).
 */
export const threadCandidates = (
  source: ThreadReads,
  saveId: string,
  npcId: string,
  t: number,
  present: ReadonlyArray<string>,
): Array<SectionCandidate> =>
  source
    .openKnown(saveId, npcId, t)
    .map((row, i) => ({
      kind: "thread" as const,
      id: row.thread_id,
      score: (npcList(row.npc_ids).some((id) => present.includes(id)) ? 100 : 50) - i / 100,
      order: row.opened_at,
      text: `${labels[row.kind] ?? "Unresolved"} (since ${formatGameTime(row.opened_at as GameTime)}): ${row.text}`,
    }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
