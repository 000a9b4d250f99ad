/**
 * The SQL reads the dossier needs besides search: an NPC's character row, profile,
 * activity, relationship edges, open tasks and dialogue turns (searched items' texts are
 * kept by the view, `ItemTable.quoteOf`, and so are the rows of each NPC's last turns,
 * `TurnRows`: a turn's row is read only for an older one).
 * All read-only, all prepared once; each is a primary-key or index lookup.
 */
import type { SqliteDatabase } from "@hearsay/store";
import { prepare, type Statement } from "./prepare.ts";
import { type ThreadReads, ThreadSource } from "./ThreadSection.ts";

export interface CharacterRow {
  readonly name: string;
  readonly role: string;
  readonly faction_id: string | null;
  readonly location_id: string;
  readonly traits: string;
}

export interface ActivityRow {
  readonly activity: string;
  readonly location_id: string;
  readonly destination: string | null;
  readonly note: string;
  readonly holding: string;
  readonly t: number;
}

export interface EdgeRow {
  readonly to_id: string;
  readonly trust: number;
  readonly respect: number;
  readonly suspicion: number;
  readonly summary: string;
}

export interface TaskRow {
  readonly task_id: string;
  readonly title: string;
  readonly description: string;
  readonly status: string;
  readonly deadline: number | null;
  readonly location_id: string | null;
  readonly proposed_at: number;
}

export interface TurnRow {
  readonly conversation_id: string;
  readonly turn_index: number;
  readonly speaker_id: string;
  readonly text: string;
  readonly t: number;
}

/**
 * A dossier's open tasks: the NPC's as holder or proposer, proposed or active, proposed by
 * t, newest first, at most 16. Two index lookups (tasks_assignee, tasks_proposer) joined,
 * not one scan of every open task in the world; UNION drops a task the NPC both proposed
 * and holds. Parameters: `saveId`, `npcId`, `t`.
 */
export const OPEN_TASKS_SQL = `SELECT task_id, title, description, status, deadline, location_id, proposed_at FROM tasks
  WHERE save_id = @saveId AND assignee = @npcId AND status IN ('proposed', 'active') AND proposed_at <= @t
  UNION
  SELECT task_id, title, description, status, deadline, location_id, proposed_at FROM tasks
  WHERE save_id = @saveId AND proposed_by = @npcId AND status IN ('proposed', 'active') AND proposed_at <= @t
  ORDER BY proposed_at DESC, task_id LIMIT 16`;

export class DossierSource {
  private readonly s: Record<string, Statement>;
  /** Open threads an NPC knows of (the dossier's `threads` section). */
  readonly threads: ThreadReads;

  constructor(db: SqliteDatabase) {
    const p = (sql: string) => prepare(db, sql);
    this.s = {
      character: p(
        "SELECT name, role, faction_id, location_id, traits FROM characters WHERE save_id = ? AND npc_id = ?",
      ),
      profile: p("SELECT profile FROM npc_profiles WHERE save_id = ? AND npc_id = ?").pluck(),
      activity: p(
        "SELECT activity, location_id, destination, note, holding, t FROM npc_activity WHERE save_id = ? AND npc_id = ?",
      ),
      edges: p(
        "SELECT to_id, trust, respect, suspicion, summary FROM relationships WHERE save_id = ? AND from_id = ? AND updated_at <= ? ORDER BY to_id",
      ),
      tasks: p(OPEN_TASKS_SQL),
      turn: p(
        "SELECT conversation_id, turn_index, speaker_id, text, t FROM conversation_turns WHERE rowid = ?",
      ),
    };
    this.threads = new ThreadSource(db);
  }

  character(saveId: string, npcId: string): CharacterRow | undefined {
    return this.s.character!.get(saveId, npcId) as CharacterRow | undefined;
  }

  profile(saveId: string, npcId: string): string | undefined {
    return this.s.profile!.get(saveId, npcId) as string | undefined;
  }

  activity(saveId: string, npcId: string): ActivityRow | undefined {
    return this.s.activity!.get(saveId, npcId) as ActivityRow | undefined;
  }

  edges(saveId: string, npcId: string, t: number): Array<EdgeRow> {
    return this.s.edges!.all(saveId, npcId, t) as Array<EdgeRow>;
  }

  openTasks(saveId: string, npcId: string, t: number): Array<TaskRow> {
    return this.s.tasks!.all({ saveId, npcId, t }) as Array<TaskRow>;
  }

  turn(rowid: number): TurnRow | undefined {
    return this.s.turn!.get(rowid) as TurnRow | undefined;
  }
}
