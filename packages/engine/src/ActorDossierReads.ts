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
import type { Regard } from "@hearsay/actors";
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

/** Which rows each kind of change touches (`before`). */
const ALL_ROWS: ReadonlyArray<keyof Rows> = ["character", "profile", "activity", "edges", "tasks"];
const PLACE_ROWS: ReadonlyArray<keyof Rows> = ["character", "activity"];
const PROFILE_ROWS: ReadonlyArray<keyof Rows> = ["profile"];
const TASK_ROWS: ReadonlyArray<keyof Rows> = ["tasks"];

/**
 * An NPC's traits as the read model stores them. Traits are fixed when the NPC is
 * registered, and the character row is read on every move, so each array is written once.
 */
const traitsText = new WeakMap<ReadonlyArray<string>, string>();
const traitsJson = (traits: ReadonlyArray<string>): string => {
  let text = traitsText.get(traits);
  if (text === undefined) {
    text = JSON.stringify(traits);
    traitsText.set(traits, text);
  }
  return text;
};

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** An outgoing edge as the read model's row holds it. */
const edgeRow = (to: string, r: Regard): EdgeRow => ({
  to_id: to,
  trust: r.trust,
  respect: r.respect,
  suspicion: r.suspicion,
  summary: r.summary,
});

export class ActorDossierReads implements OwnDossierRows {
  /** The rows changed this tick, of each NPC, as they stood at its start. */
  private readonly kept = new Map<string, Partial<Rows>>();
  /**
   * The edges changed this tick, of each NPC, as they stood at its start (null: none to
   * that NPC then). An edge changes with every line spoken or overheard, and an NPC's
   * edges grow with the run: each change keeps the one edge it changes, not all of them.
   */
  private readonly keptEdges = new Map<string, Map<string, EdgeRow | null>>();

  constructor(
    private readonly actors: NpcActors,
    private readonly state: EngineState,
  ) {}

  /**
   * Keeps the rows `event` is about to change, those of them this tick has not changed
   * yet: only the rows it changes, since most NPCs whose rows change in a tick (those that
   * move or change activity) have no dossier read before the tick is appended.
   */
  before(event: Event): void {
    switch (event.type) {
      case "NpcRegistered":
        this.keep(event.payload.npcId, ALL_ROWS);
        return;
      case "NpcMoved":
      case "NpcActivityChanged":
        // An activity change may also move the NPC: its character row holds its place.
        this.keep(event.payload.npcId, PLACE_ROWS);
        return;
      case "ProfileGenerated":
      case "ProfileRevised":
        this.keep(event.payload.npcId, PROFILE_ROWS);
        return;
      case "RelationshipChanged":
        this.keepEdge(event.payload.fromId, event.payload.toId);
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
    this.keptEdges.clear();
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
    if (kept !== undefined && key in kept) return kept[key] as Rows[K];
    if (key === "edges") {
      const edges = this.keptEdges.get(npcId);
      if (edges !== undefined) return this.edgesBefore(npcId as NpcId, edges) as Rows[K];
    }
    return this.read(npcId as NpcId, key);
  }

  private keepEdge(npcId: NpcId, to: string): void {
    let edges = this.keptEdges.get(npcId);
    if (edges === undefined) {
      edges = new Map();
      this.keptEdges.set(npcId, edges);
    }
    if (edges.has(to)) return;
    const r = this.actors.facts(npcId)?.regard.get(to);
    edges.set(to, r === undefined ? null : edgeRow(to, r));
  }

  /** Its edges as they stood at the tick's start: those unchanged since, and those kept. */
  private edgesBefore(npcId: NpcId, kept: ReadonlyMap<string, EdgeRow | null>): Array<EdgeRow> {
    const out: Array<EdgeRow> = [];
    this.actors.facts(npcId)?.regard.forEach((r, to) => {
      if (!kept.has(to)) out.push(edgeRow(to, r));
    });
    kept.forEach((row) => {
      if (row !== null) out.push(row);
    });
    return out.sort((a, b) => byId(a.to_id, b.to_id));
  }

  private keepParties(assignee: NpcId | null, proposedBy: NpcId | null): void {
    if (assignee !== null) this.keep(assignee, TASK_ROWS);
    if (proposedBy !== null) this.keep(proposedBy, TASK_ROWS);
  }

  private keep(npcId: NpcId, keys: ReadonlyArray<keyof Rows>): void {
    let kept = this.kept.get(npcId);
    if (kept === undefined) {
      kept = {};
      this.kept.set(npcId, kept);
    }
    const into = kept as Record<keyof Rows, Rows[keyof Rows]>;
    for (const key of keys) if (!(key in into)) into[key] = this.read(npcId, key);
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
      traits: traitsJson(npc.traits),
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
    regard.forEach((r, to) => {
      out.push(edgeRow(to, r));
    });
    return out.sort((a, b) => byId(a.to_id, b.to_id));
  }

  private tasksNow(npcId: NpcId): Array<TaskRow> {
    const facts = this.actors.facts(npcId);
    if (facts === undefined || facts.open.size === 0) return [];
    const out: Array<TaskRow> = [];
    for (const k of facts.open.values()) {
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
