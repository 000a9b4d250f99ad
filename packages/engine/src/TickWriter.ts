/**
 * Collects one tick's events. Each event is applied at once to the engine state and to
 * the NPC actor it concerns — so later steps of the same tick see it — and is appended
 * with the rest of the tick in one transaction at the end. Ids are deterministic and
 * unique within a save's history: an event's id is `e<the seq it will get>`, and an item
 * born in the batch is `<prefix><first seq of the batch>.<n>`.
 */
import {
  type Event,
  type EventOf,
  type EventType,
  type GameTime,
  ids,
  makeEvent,
} from "@hearsay/core";
import type { EngineState } from "./EngineState.ts";
import type { NpcActors } from "./NpcActors.ts";

export class TickWriter {
  private readonly events: Array<Event> = [];
  /** Owners of the memories recorded in this batch, in first-recorded order. */
  private readonly owners = new Set<string>();
  private n = 0;
  private minted = 0;

  constructor(
    private readonly state: EngineState,
    private readonly actors: NpcActors,
    private now: GameTime,
    /** The save's head before this batch. */
    private readonly base: number,
    /** Told of each event as it is emitted (the world clock folds what a tick writes). */
    private readonly observe?: (event: Event) => void,
    /**
     * Told of each event before it is applied: what keeps a turn's own dossier rows as
     * they stood at the tick's start (`ActorDossierReads.before`).
     */
    private readonly before?: (event: Event) => void,
  ) {}

  /** The game time events are stamped with. */
  get t(): GameTime {
    return this.now;
  }

  /** Moves the stamp forward (a skip runs many ticks' world steps in one batch). */
  advanceTo(t: GameTime): void {
    if (t < this.now) throw new RangeError(`TickWriter: time cannot go back (${t} < ${this.now})`);
    this.now = t;
  }

  /** Emits an event: stamps its id and time, applies it to the state and actors, buffers it. */
  emit<T extends EventType>(type: T, payload: EventOf<T>["payload"]): EventOf<T> {
    const event = makeEvent(type, {
      id: ids.event(`e${this.base + ++this.n}`),
      t: this.now,
      payload,
    } as Omit<EventOf<T>, "type" | "version">);
    this.before?.(event);
    this.state.apply(event);
    this.actors.apply(event);
    this.observe?.(event);
    this.events.push(event);
    if (type === "MemoryRecorded")
      this.owners.add((payload as EventOf<"MemoryRecorded">["payload"]).ownerNpcId);
    return event;
  }

  /**
   * Emits, as the batch's first event, a `Checkpoint` of the log before this batch
   * (`throughSeq`, the head the batch is appended at) with its hash left empty: the store
   * hashes its read models as it writes the batch (on its append worker, once the batches
   * before it are written), so the run never waits for them. The checkpoint is applied at
   * once like any event (what it folds into, the last checkpoint's seq, does not read the
   * hash).
   */
  checkpoint(throughSeq: number): void {
    if (this.events.length > 0)
      throw new RangeError("TickWriter: a checkpoint opens its batch (the store hashes it there)");
    this.emit("Checkpoint", { throughSeq, stateHash: "" });
  }

  /** A fresh id for an item born in this batch (`m1234.3`), unique within the save. */
  mint(prefix: string): string {
    return `${prefix}${this.base + 1}.${this.minted++}`;
  }

  /** Owners of the memories recorded so far this tick. */
  memoryOwners(): ReadonlyArray<string> {
    return [...this.owners];
  }

  /** Whether `owner` has recorded a memory in this batch (so the batch's cap reaches it). */
  recordedFor(owner: string): boolean {
    return this.owners.has(owner);
  }

  get size(): number {
    return this.events.length;
  }

  /** The events of this batch so far, in order (not drained). */
  emitted(): ReadonlyArray<Event> {
    return this.events;
  }

  drain(): ReadonlyArray<Event> {
    this.owners.clear();
    return this.events.splice(0, this.events.length);
  }
}
