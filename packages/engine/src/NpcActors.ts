/**
 * The run's one actor system: the world clock actor at its root, an npc actor per NPC
 * and a debate actor per debate as its children. The engine talks to an actor only when
 * something concerns it, and reads what it emits in reply.
 *
 * NPC actors are created with the clock as their parent (so they share its system), not
 * spawned through the clock's machine: XState copies a machine's whole `children` map on
 * every spawn and stop, which makes spawning n NPCs — and the clock's final stop — cost
 * O(n²), which a world of thousands of NPCs feels. This class keeps them by id and,
 * as when they were the clock's spawned children, sends them nothing once the clock is done.
 * Debates, few and short-lived, stay spawned children of the clock's machine.
 */
import {
  type DebateEmitted,
  type DebateEvent,
  type DebateInput,
  type DebateOutput,
  type NpcEmitted,
  type NpcEvent,
  type NpcInput,
  npcMachine,
  type WorldClockInput,
} from "@hearsay/actors";
import type { NpcId } from "@hearsay/core";
import { type Actor, type AnyActorRef, createActor } from "xstate";
import { WorldClock } from "./WorldClock.ts";

interface Emitter<E> {
  send(event: unknown): void;
  on(type: "*", handler: (e: E) => void): unknown;
  getSnapshot(): { value: unknown; status: string; output?: unknown };
}

export class NpcActors {
  readonly clock: WorldClock;
  private readonly npcs = new Map<NpcId, Actor<typeof npcMachine>>();
  private readonly npcOut: Array<NpcEmitted> = [];

  constructor(clock: WorldClockInput) {
    this.clock = new WorldClock(clock);
  }

  /** Spawns (or rebuilds) an NPC's actor in the system, as a child of the clock. */
  spawn(input: NpcInput): void {
    if (this.npcs.has(input.npcId)) throw new Error(`actor ${input.npcId} was already spawned`);
    const ref = createActor(npcMachine, { id: input.npcId, input, parent: this.clock.actor });
    ref.on("*", (e) => this.npcOut.push(e as NpcEmitted));
    ref.start();
    this.npcs.set(input.npcId, ref);
  }

  /** Sends an NPC an event; returns what it emitted in response, in order. */
  send(npcId: NpcId, event: NpcEvent): ReadonlyArray<NpcEmitted> {
    const ref = this.npcs.get(npcId);
    // Once the clock's last tick has begun, its children are done: they hear nothing.
    if (!ref || !this.clock.childrenHear) return [];
    ref.send(event);
    return this.npcOut.splice(0, this.npcOut.length);
  }

  /** The state an NPC's machine is in (`idle`, `deciding`, …). */
  stateOf(npcId: NpcId): string | undefined {
    return this.npcs.get(npcId)?.getSnapshot().value as string | undefined;
  }

  /** Runs a debate actor to its end, answering its requests with `answer`. */
  async debate(
    input: DebateInput,
    gathered: ReadonlyArray<NpcId>,
    answer: (request: DebateEmitted) => Promise<DebateEvent>,
  ): Promise<DebateOutput> {
    const id = `debate:${input.debateId}`;
    this.clock.actor.send({ type: "SPAWN_DEBATE", input });
    const ref = this.child(id) as unknown as Emitter<DebateEmitted>;
    const asks: Array<DebateEmitted> = [];
    ref.on("*", (e) => asks.push(e));
    ref.send({ type: "GATHERED", participants: gathered });
    while (ref.getSnapshot().status === "active" && asks.length > 0) {
      const ask = asks.shift()!;
      ref.send(await answer(ask));
    }
    const output = ref.getSnapshot().output as DebateOutput;
    this.clock.actor.send({ type: "STOP_CHILD", id });
    return output;
  }

  /**
   * Stops the system. NPC actors hold no timers or resources (machines take no delays),
   * and XState stops only a root actor directly, so they are dropped with the clock.
   */
  stop(): void {
    this.npcs.clear();
    this.clock.stop();
  }

  private child(id: string): AnyActorRef {
    const ref = (
      this.clock.actor.getSnapshot().children as Record<string, AnyActorRef | undefined>
    )[id];
    if (!ref) throw new Error(`actor ${id} was not spawned`);
    return ref;
  }
}
