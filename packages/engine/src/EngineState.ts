/**
 * The engine's working memory of a run: a fold over the log, and nothing else. What an
 * NPC knows of itself (profile, memories, rumours, regard, its tasks) is not here: its actor owns it
 * (`NpcActors`, `NpcFacts`); this keeps what routes events between NPCs — who is where,
 * doing what — and the world's shared books. The live
 * engine changes it only by applying the events it emits, in order, and a resumed engine
 * builds it by folding the same events — so both make the same next decision. This is
 * what lets a run resume from the log alone.
 */
import type {
  Activity,
  CarriedPurpose,
  Event,
  FactionId,
  GameTime,
  LocationId,
  NpcId,
  TaskId,
  WorldEventId,
} from "@hearsay/core";
import { HappeningBook } from "./HappeningBook.ts";
import { NameFinder } from "./NameFinder.ts";
import { NarrativeLedger } from "./NarrativeLedger.ts";
import { ThreadBook } from "./ThreadBook.ts";

/**
 * Who an NPC is and where it is, doing what: what routing needs (who is present, who is
 * awake for company, whom a scene or a line reaches) and what rebuilds its actor on a
 * resume. What it knows of itself is its actor's (`NpcFacts`).
 */
export interface NpcRuntime {
  readonly id: NpcId;
  readonly name: string;
  readonly role: string;
  readonly factionId: FactionId | null;
  readonly traits: ReadonlyArray<string>;
  locationId: LocationId;
  activity: Activity;
  destination: LocationId | null;
  until: GameTime | null;
  taskId: TaskId | null;
  attendingTo: ReadonlyArray<NpcId>;
  /** What its current activity is about, in its own words (a dossier's scene). */
  note: string;
  /** What it carries, as its activity announced (JSON); null until it announces one. */
  holding: string | null;
  /** When its current activity began. */
  since: GameTime;
}

export interface WorldEventRuntime {
  readonly text: string;
  readonly importance: number;
  readonly visibility: string;
  readonly locationId: LocationId | null;
  /** Who took part in it: whether news of it matters to an NPC depends on them. */
  readonly participants: ReadonlyArray<NpcId>;
}

export class EngineState {
  t = 0 as GameTime;
  seq = 0;
  started = false;
  /** The seed, brain and end day in force (from SimulationStarted, then RunResumed). */
  seed = 0;
  brain = "";
  endDay = 0;
  /** Purposes the run asks inside another's answer (`SimulationStarted.carried`). */
  carried: ReadonlySet<CarriedPurpose> = new Set();
  lastCheckpointSeq = 0;
  readonly npcs = new Map<NpcId, NpcRuntime>();
  /** Location → NPC ids there, kept sorted on read. */
  readonly presence = new Map<LocationId, Set<NpcId>>();
  readonly worldEvents = new Map<WorldEventId, WorldEventRuntime>();
  readonly loreHashes = new Set<string>();
  /** Open scenes, summary cursors and world changes waiting to be remembered. */
  readonly narrative = new NarrativeLedger();
  /** Open threads, who knows of them, and this tick's events that may open or close one. */
  readonly threads = new ThreadBook();
  /** Planned happenings, their props, and what NPCs carried off from them. */
  readonly happenings = new HappeningBook();
  /** NPCs by name, to tell whom a line speaks of. */
  readonly names = new NameFinder();

  apply(event: Event, seq?: number): void {
    // Live, the writer applies events in the order they will be appended: seq by seq.
    this.seq = seq ?? this.seq + 1;
    this.narrative.apply(event, this.seq, this.npcs);
    this.threads.apply(event);
    this.happenings.apply(event);
    switch (event.type) {
      case "SimulationStarted":
        this.started = true;
        this.t = event.t;
        this.seed = event.payload.seed;
        this.brain = event.payload.brain;
        this.endDay = event.payload.endDay;
        this.carried = new Set(event.payload.carried ?? []);
        return;
      case "RunResumed":
        this.seed = event.payload.seed;
        this.brain = event.payload.brain;
        this.endDay = event.payload.endDay;
        return;
      case "NpcRegistered": {
        const p = event.payload;
        this.npcs.set(p.npcId, {
          id: p.npcId,
          name: p.name,
          role: p.role,
          factionId: p.factionId,
          traits: p.traits,
          locationId: p.locationId,
          activity: "asleep",
          destination: null,
          until: null,
          taskId: null,
          attendingTo: [],
          note: "",
          holding: null,
          since: event.t,
        });
        this.place(p.npcId, p.locationId);
        this.names.add(p.npcId, p.name);
        return;
      }
      case "NpcActivityChanged": {
        const p = event.payload;
        const npc = this.npcs.get(p.npcId);
        if (!npc) return;
        npc.activity = p.activity;
        npc.destination = p.destination;
        npc.until = p.until;
        npc.taskId = p.taskId;
        npc.attendingTo = p.attendingTo;
        npc.note = p.note;
        npc.holding = JSON.stringify(p.holding);
        npc.since = event.t;
        if (npc.locationId !== p.locationId) this.move(npc, p.locationId);
        return;
      }
      case "NpcMoved": {
        const npc = this.npcs.get(event.payload.npcId);
        if (npc) this.move(npc, event.payload.to);
        return;
      }
      case "WorldEventOccurred": {
        const p = event.payload;
        this.worldEvents.set(p.worldEventId, {
          text: p.text,
          importance: p.importance,
          visibility: p.visibility,
          locationId: p.locationId,
          participants: p.participants,
        });
        return;
      }
      case "ClockAdvanced":
        this.t = event.payload.to;
        return;
      case "Checkpoint":
        this.lastCheckpointSeq = seq ?? this.seq;
        return;
      case "LoreImported":
        this.loreHashes.add(event.payload.contentHash);
        return;
      default:
        return;
    }
  }

  /** NPC ids at a location, in id order. */
  presentAt(location: LocationId): ReadonlyArray<NpcId> {
    return [...(this.presence.get(location) ?? [])].sort();
  }

  private place(id: NpcId, location: LocationId): void {
    let here = this.presence.get(location);
    if (!here) {
      here = new Set();
      this.presence.set(location, here);
    }
    here.add(id);
  }

  private move(npc: NpcRuntime, to: LocationId): void {
    this.presence.get(npc.locationId)?.delete(npc.id);
    npc.locationId = to;
    this.place(npc.id, to);
  }
}
