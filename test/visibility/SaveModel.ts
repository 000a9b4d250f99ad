/**
 * The visibility suite's model of one save: the events its history holds (its own and,
 * for a branch, the parent's up to the branch point), folded into core's
 * `KnowledgeLedger` — the rule, computed independently of the store and of retrieval —
 * plus the few facts the dossier's non-knowledge items are judged by (who spoke or heard
 * a turn, who holds a summary, whose task or edge or profile a text is).
 *
 * Ids are minted from a per-save counter on purpose: two saves, or a branch and its
 * parent after the branch point, mint the same ids for different items, so only a
 * reader that keeps saves apart shows the right text for an id. Every text carries a
 * canary token whose origin (save and seq) this model records.
 */
import {
  type CampaignId,
  type Event,
  type EventOf,
  type EventType,
  type GameTime,
  ids,
  KnowledgeLedger,
  type LocationId,
  makeEvent,
  memoryAliveAt,
  type NpcId,
  type SaveId,
} from "@hearsay/core";

/** Who may see a canary's text, by the kind of item it is in. */
export interface CanaryOrigin {
  /** `<saveId>#<seq>` of the event that wrote it. */
  readonly origin: string;
  readonly kind:
    | "memory"
    | "world_event"
    | "debate"
    | "dialogue"
    | "summary"
    | "task"
    | "relationship"
    | "profile"
    | "lore";
  readonly id: string;
  readonly t: number;
  /** For dialogue, summaries, tasks, edges and profiles: the NPCs whose own item it is. */
  readonly npcs: ReadonlyArray<string>;
}

interface MemoryFacts {
  readonly owner: NpcId;
  readonly t: number;
  readonly expiresAt: number | null;
  goneAt: number | null;
}

/** Events being drafted for one append (one "tick"), stamped at one time. */
export class Draft {
  readonly events: Array<Event> = [];

  constructor(
    readonly t: GameTime,
    private counter: number,
  ) {}

  /** A fresh id, unique within the save's history: `<prefix><n>`. */
  mint(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  emit<T extends EventType>(type: T, payload: EventOf<T>["payload"]): void {
    this.events.push(
      makeEvent(type, {
        id: ids.event(this.mint("ev")),
        t: this.t,
        payload,
      } as Omit<EventOf<T>, "type" | "version">),
    );
  }

  get minted(): number {
    return this.counter;
  }
}

export class SaveModel {
  readonly ledger = new KnowledgeLedger();
  /** The history: each event with where it was first written and the id counter after it. */
  readonly entries: Array<{ event: Event; origin: string; counter: number }> = [];
  readonly history = new Set<string>();
  readonly locations = new Map<NpcId, LocationId>();
  readonly memories = new Map<string, MemoryFacts>();
  readonly turns = new Map<string, { t: number; npcs: ReadonlyArray<string> }>();
  /** World event id → when it lapses (null: never), from its first record. */
  readonly lapses = new Map<string, number | null>();
  readonly summaries = new Map<string, number>();
  readonly tasks = new Map<string, { t: number; npcs: ReadonlyArray<string> }>();
  readonly lore = new Set<string>();
  t = 0;
  counter = 0;

  constructor(
    readonly saveId: SaveId,
    readonly campaignId: CampaignId,
    /** A short name for messages: `A`, `B`, `A/1`, … */
    readonly label: string,
    readonly parent: { readonly label: string; readonly seq: number } | null = null,
  ) {}

  get head(): number {
    return this.entries.length;
  }

  /** Starts a batch `dt` minutes after the save's current time. */
  draft(dt: number): Draft {
    return new Draft((this.t + Math.max(0, Math.trunc(dt))) as GameTime, this.counter);
  }

  /** Folds one stored event in (its seq in this save is `head + 1`). */
  apply(event: Event, origin: string, counter: number): void {
    this.entries.push({ event, origin, counter });
    this.history.add(origin);
    this.counter = Math.max(this.counter, counter);
    this.t = Math.max(this.t, event.t);
    // Which memories live and when they go is core's fold: the model keeps what it reports.
    for (const c of this.ledger.apply(event)) {
      if (c.type === "recorded") {
        this.memories.set(c.memoryId, {
          owner: c.life.owner,
          t: c.life.recordedAt,
          expiresAt: c.life.expiresAt,
          goneAt: null,
        });
      } else if (c.type === "died") {
        const m = this.memories.get(c.memoryId);
        if (m) m.goneAt = c.t;
      } else if (c.type === "lapses") {
        this.lapses.set(c.worldEventId, c.lapsesAt);
      }
    }
    switch (event.type) {
      case "NpcRegistered":
        this.locations.set(event.payload.npcId, event.payload.locationId);
        return;
      case "NpcMoved":
        this.locations.set(event.payload.npcId, event.payload.to);
        return;
      case "ConversationTurn": {
        const p = event.payload;
        this.turns.set(`${p.conversationId}#${p.turnIndex}`, {
          t: event.t,
          npcs: [p.speakerId, ...p.listenerIds],
        });
        return;
      }
      case "ConversationSummarized": {
        const key = `${event.payload.conversationId}|${event.payload.npcId}`;
        if (!this.summaries.has(key)) this.summaries.set(key, event.t);
        return;
      }
      case "TaskProposed": {
        const p = event.payload;
        this.tasks.set(p.taskId, {
          t: event.t,
          npcs: [p.proposedBy, p.assignee].filter((n): n is NpcId => n !== null),
        });
        return;
      }
      case "LoreImported":
        for (const c of event.payload.chunks) this.lore.add(c.chunkId);
        return;
      default:
        return;
    }
  }

  /** A branch of this save at `seq`: a new model holding this one's first `seq` events. */
  branch(saveId: SaveId, label: string, seq: number): SaveModel {
    const child = new SaveModel(saveId, this.campaignId, label, { label: this.label, seq });
    for (const e of this.entries.slice(0, seq)) child.apply(e.event, e.origin, e.counter);
    return child;
  }

  /** NPCs at a place now. */
  presentAt(location: LocationId): ReadonlyArray<NpcId> {
    return [...this.locations.entries()]
      .filter(([, l]) => l === location)
      .map(([n]) => n)
      .sort();
  }

  /** Is the memory gone (expired or forgotten) at t? */
  memoryGone(id: string, t: number): boolean {
    const m = this.memories.get(id);
    if (!m) return false;
    return !memoryAliveAt(m.expiresAt, m.goneAt, t);
  }

  /** The time of the event at a seq (1-based), for reads at a past moment. */
  timeAt(seq: number): number {
    return this.entries[Math.max(0, Math.min(this.head, seq) - 1)]?.event.t ?? 0;
  }
}
