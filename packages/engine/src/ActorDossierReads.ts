/**
 * A run's turns read an NPC's own dossier rows — who it is, its profile, activity,
 * outgoing regard edges and open tasks — from its actor and the run's routing state, not
 * from the SQLite read models; in the shapes those give (`DossierSource`), so a dossier
 * reads the same either way. A test holds the two equal for every NPC at every tick
 * boundary of a run (the mirror rule: two implementations, one test); the read models
 * stay what `dossier`, `export`, the inspector and replay read.
 *
 * A turn's dossier is of the tick's start: the read models catch up when the tick is
 * appended, but the actors take each event as it is emitted. So before an event changes
 * an NPC's rows the first time in a tick (`before`, called by the tick's writer), its rows
 * as they stood are kept, and read until the tick is appended (`settled`).
 */
import type { Event, NpcId, TaskId } from "@hearsay/core";
import type { DossierSource } from "@hearsay/retrieval";
import type { EngineState } from "./EngineState.ts";
import type { NpcActors } from "./NpcActors.ts";

export type CharacterRow = NonNullable<ReturnType<DossierSource["character"]>>;
export type ActivityRow = NonNullable<ReturnType<DossierSource["activity"]>>;
export type EdgeRow = ReturnType<DossierSource["edges"]>[number];
export type TaskRow = ReturnType<DossierSource["openTasks"]>[number];

/** The rows a dossier reads of the NPC it is for, as `DossierSource` names them. */
export interface OwnDossierRows {
  character(saveId: string, npcId: string): CharacterRow | undefined;
  profile(saveId: string, npcId: string): string | undefined;
  activity(saveId: string, npcId: string): ActivityRow | undefined;
  edges(saveId: string, npcId: string, t: number): Array<EdgeRow>;
  openTasks(saveId: string, npcId: string, t: number): Array<TaskRow>;
}

/** As many open tasks as a dossier lists (`OPEN_TASKS_SQL`'s limit). */
const TASKS_SHOWN = 16;

interface Rows {
  readonly character: CharacterRow | undefined;
  readonly profile: string | undefined;
  readonly activity: ActivityRow | undefined;
  readonly edges: Array<EdgeRow>;
  readonly tasks: Array<TaskRow>;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class ActorDossierReads implements OwnDossierRows {
  /** Rows of the NPCs changed this tick, as they stood at its start. */
  private readonly kept = new Map<string, Rows>();

  constructor(
    private readonly actors: NpcActors,
    private readonly state: EngineState,
  ) {}

  /** Keeps the rows `event` is about to change, if this tick has not changed them yet. */
  before(event: Event): void {
    switch (event.type) {
      case "NpcRegistered":
      case "NpcMoved":
      case "NpcActivityChanged":
      case "ProfileGenerated":
      case "ProfileRevised":
        this.keep(event.payload.npcId);
        return;
      case "RelationshipChanged":
        this.keep(event.payload.fromId);
        return;
      case "TaskProposed":
        this.keepParties(event.payload.assignee, event.payload.proposedBy);
        return;
      case "TaskStatusChanged":
      case "TaskDeadlineMoved": {
        const task = this.actors.task(event.payload.taskId as TaskId);
        if (task !== undefined) this.keepParties(task.assignee, task.proposedBy);
        return;
      }
      default:
        return;
    }
  }

  /** The tick was appended: the actors' rows are the read models' again. */
  settled(): void {
    this.kept.clear();
  }

  character(_saveId: string, npcId: string): CharacterRow | undefined {
    return this.rows(npcId, "character");
  }

  profile(_saveId: string, npcId: string): string | undefined {
    return this.rows(npcId, "profile");
  }

  activity(_saveId: string, npcId: string): ActivityRow | undefined {
    return this.rows(npcId, "activity");
  }

  /** Its edges; all of them are from before the tick, so `t` filters none. */
  edges(_saveId: string, npcId: string, _t: number): Array<EdgeRow> {
    return this.rows(npcId, "edges");
  }

  /** Its open tasks (as holder or proposer), newest first; all proposed before the tick. */
  openTasks(_saveId: string, npcId: string, _t: number): Array<TaskRow> {
    return this.rows(npcId, "tasks");
  }

  private rows<K extends keyof Rows>(npcId: string, key: K): Rows[K] {
    const kept = this.kept.get(npcId);
    if (kept !== undefined) return kept[key];
    return this.read(npcId as NpcId, key);
  }

  private keepParties(assignee: NpcId | null, proposedBy: NpcId | null): void {
    if (assignee !== null) this.keep(assignee);
    if (proposedBy !== null) this.keep(proposedBy);
  }

  private keep(npcId: NpcId): void {
    if (this.kept.has(npcId)) return;
    this.kept.set(npcId, {
      character: this.read(npcId, "character"),
      profile: this.read(npcId, "profile"),
      activity: this.read(npcId, "activity"),
      edges: this.read(npcId, "edges"),
      tasks: this.read(npcId, "tasks"),
    });
  }

  private read<K extends keyof Rows>(npcId: NpcId, key: K): Rows[K] {
    const out: Rows[keyof Rows] =
      key === "character"
        ? this.characterNow(npcId)
        : key === "profile"
          ? this.profileNow(npcId)
          : key === "activity"
            ? this.activityNow(npcId)
            : key === "edges"
              ? this.edgesNow(npcId)
              : this.tasksNow(npcId);
    return out as Rows[K];
  }

  private characterNow(npcId: NpcId): CharacterRow | undefined {
    const npc = this.state.npcs.get(npcId);
    if (npc === undefined) return undefined;
    return {
      name: npc.name,
      role: npc.role,
      faction_id: npc.factionId,
      location_id: npc.locationId,
      traits: JSON.stringify(npc.traits),
    };
  }

  private profileNow(npcId: NpcId): string | undefined {
    const profile = this.actors.facts(npcId)?.profile ?? null;
    return profile === null ? undefined : JSON.stringify(profile);
  }

  private activityNow(npcId: NpcId): ActivityRow | undefined {
    const npc = this.state.npcs.get(npcId);
    if (npc === undefined || npc.holding === null) return undefined;
    return {
      activity: npc.activity,
      location_id: npc.locationId,
      destination: npc.destination,
      note: npc.note,
      holding: npc.holding,
      t: npc.since,
    };
  }

  private edgesNow(npcId: NpcId): Array<EdgeRow> {
    const regard = this.actors.facts(npcId)?.regard;
    if (regard === undefined || regard.size === 0) return [];
    const out: Array<EdgeRow> = [];
    for (const [to, r] of regard)
      out.push({
        to_id: to,
        trust: r.trust,
        respect: r.respect,
        suspicion: r.suspicion,
        summary: r.summary,
      });
    return out.sort((a, b) => byId(a.to_id, b.to_id));
  }

  private tasksNow(npcId: NpcId): Array<TaskRow> {
    const facts = this.actors.facts(npcId);
    if (facts === undefined || facts.tasks.size === 0) return [];
    const out: Array<TaskRow> = [];
    for (const k of facts.tasks.values()) {
      if (k.status !== "proposed" && k.status !== "active") continue;
      if (k.assignee !== npcId && k.proposedBy !== npcId) continue;
      out.push({
        task_id: k.id,
        title: k.title,
        description: k.description,
        status: k.status,
        deadline: k.deadline,
        location_id: k.locationId,
        proposed_at: k.proposedAt,
      });
    }
    out.sort((a, b) => b.proposed_at - a.proposed_at || byId(a.task_id, b.task_id));
    return out.length > TASKS_SHOWN ? out.slice(0, TASKS_SHOWN) : out;
  }
}
