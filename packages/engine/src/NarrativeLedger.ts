/**
 * What is waiting to be summarised, as a fold over the log: the scene open at each place
 * (its exchanges, with their seqs, and who has left it), the summary cursors per scope,
 * and the major world changes not yet turned into world memories with who knows of
 * each. `EngineState` feeds every event through `apply` before it folds the event
 * itself, so a departure is seen against where the NPC was.
 */
import {
  type DebateId,
  type Event,
  type GameTime,
  type LocationId,
  type NpcId,
  PLAYER_ID,
  type SceneId,
  type SummaryScope,
  type Via,
  type WorldEventId,
} from "@hearsay/core";

export interface SceneExchange {
  readonly seq: number;
  readonly speakerId: NpcId;
  readonly listenerIds: ReadonlyArray<NpcId>;
  readonly text: string;
}

export interface SceneDebateHeld {
  readonly seq: number;
  readonly debateId: DebateId;
  readonly topic: string;
  readonly participants: ReadonlyArray<NpcId>;
  readonly summary: string;
  readonly outcome: string;
}

export interface SceneHappening {
  readonly seq: number;
  readonly worldEventId: WorldEventId;
  readonly text: string;
}

/** An open scene: everything exchanged at its place since it opened. */
export interface OpenScene {
  readonly sceneId: SceneId;
  readonly locationId: LocationId;
  readonly openedAt: GameTime;
  readonly fromSeq: number;
  /** The seq of its last exchange. */
  throughSeq: number;
  readonly participants: Set<NpcId>;
  readonly lines: Array<SceneExchange>;
  readonly debates: Array<SceneDebateHeld>;
  readonly happenings: Array<SceneHappening>;
  /** Participants who set out, moved away or fell asleep since they joined. */
  readonly leavers: Set<NpcId>;
}

/** A major change of the world, waiting to become the world memory of those who know it. */
export interface WorldChange {
  readonly seq: number;
  readonly worldEventId: WorldEventId;
  readonly kind: string;
  readonly text: string;
  readonly locationId: LocationId | null;
  readonly importance: number;
  readonly participants: ReadonlyArray<NpcId>;
  /** Who came to know of it so far, and how (first fact wins). */
  readonly knowers: Map<NpcId, Via>;
}

/** World event kinds that are major changes: each becomes a world memory for its knowers. */
export const majorChangeKinds: ReadonlySet<string> = new Set([
  "task_completed",
  "debate_outcome",
  "place_cleared",
  "place_taken",
]);

/** The slice of an NPC the ledger reads to tell a departure. */
interface Whereabouts {
  readonly locationId: LocationId;
}

const cursorKey = (scope: SummaryScope, scopeId: string) => `${scope}:${scopeId}`;

export class NarrativeLedger {
  /** The open scene of each place. */
  readonly open = new Map<LocationId, OpenScene>();
  /** `scope:scopeId` → last seq summarised. */
  readonly cursors = new Map<string, number>();
  /** Major changes not yet remembered, in seq order. */
  readonly worldChanges = new Map<WorldEventId, WorldChange>();

  /** The last seq summarised for a scope (0: nothing yet). */
  cursor(scope: SummaryScope, scopeId: string): number {
    return this.cursors.get(cursorKey(scope, scopeId)) ?? 0;
  }

  apply(event: Event, seq: number, npcs: ReadonlyMap<NpcId, Whereabouts>): void {
    switch (event.type) {
      case "SceneOpened": {
        const p = event.payload;
        this.open.set(p.locationId, {
          sceneId: p.sceneId,
          locationId: p.locationId,
          openedAt: event.t,
          fromSeq: seq,
          throughSeq: seq,
          participants: new Set(p.participants),
          lines: [],
          debates: [],
          happenings: [],
          leavers: new Set(),
        });
        return;
      }
      case "SceneClosed":
        if (this.open.get(event.payload.locationId)?.sceneId === event.payload.sceneId)
          this.open.delete(event.payload.locationId);
        return;
      case "SummaryCursorAdvanced": {
        const p = event.payload;
        const key = cursorKey(p.scope, p.scopeId);
        this.cursors.set(key, Math.max(this.cursors.get(key) ?? 0, p.throughSeq));
        if (p.scope === "world")
          for (const [id, change] of this.worldChanges)
            if (change.seq <= p.throughSeq) this.worldChanges.delete(id);
        return;
      }
      case "ConversationTurn": {
        const p = event.payload;
        const scene = p.locationId === null ? undefined : this.open.get(p.locationId);
        // Talk with the player is digested by the chat, not by scenes.
        if (!scene || p.speakerId === PLAYER_ID || p.listenerIds.includes(PLAYER_ID)) return;
        scene.lines.push({ seq, speakerId: p.speakerId, listenerIds: p.listenerIds, text: p.text });
        scene.participants.add(p.speakerId);
        for (const l of p.listenerIds) scene.participants.add(l);
        scene.throughSeq = seq;
        return;
      }
      case "DebateHeld": {
        const p = event.payload;
        const scene = p.locationId === null ? undefined : this.open.get(p.locationId);
        if (!scene) return;
        scene.debates.push({
          seq,
          debateId: p.debateId,
          topic: p.topic,
          participants: p.participants,
          summary: p.summary,
          outcome: p.outcome,
        });
        for (const id of p.participants) scene.participants.add(id);
        scene.throughSeq = seq;
        return;
      }
      case "WorldEventOccurred": {
        const p = event.payload;
        if (majorChangeKinds.has(p.kind)) {
          this.worldChanges.set(p.worldEventId, {
            seq,
            worldEventId: p.worldEventId,
            kind: p.kind,
            text: p.text,
            locationId: p.locationId,
            importance: p.importance,
            participants: p.participants,
            knowers: new Map(),
          });
        }
        const scene = p.locationId === null ? undefined : this.open.get(p.locationId);
        // A debate's outcome is already in the scene as the debate itself.
        if (!scene || p.kind === "debate_outcome") return;
        scene.happenings.push({ seq, worldEventId: p.worldEventId, text: p.text });
        scene.throughSeq = seq;
        return;
      }
      case "KnowledgeGained": {
        const p = event.payload;
        if (p.itemKind !== "world_event") return;
        const change = this.worldChanges.get(p.itemId as WorldEventId);
        if (change && !change.knowers.has(p.npcId)) change.knowers.set(p.npcId, p.via);
        return;
      }
      case "NpcActivityChanged": {
        const p = event.payload;
        const npc = npcs.get(p.npcId);
        if (!npc) return;
        const gone =
          p.locationId !== npc.locationId || p.activity === "travelling" || p.activity === "asleep";
        if (gone) this.left(p.npcId, npc.locationId);
        return;
      }
      case "NpcMoved":
        this.left(event.payload.npcId, event.payload.from);
        return;
      default:
        return;
    }
  }

  private left(npcId: NpcId, from: LocationId): void {
    const scene = this.open.get(from);
    if (scene?.participants.has(npcId)) scene.leavers.add(npcId);
  }
}
