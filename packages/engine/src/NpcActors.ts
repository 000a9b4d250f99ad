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
 *
 * Each NPC's own facts (`NpcFacts`: profile, memories, rumours, regard, the tasks it
 * holds) live in its actor's context. The engine keeps no copy: it routes every event it
 * emits (and, on a resume, every event it reads back) here, where `foldNpcFacts` applies
 * it to the NPC it concerns. Before the actors start — genesis, a resume's fold, a talk, which runs no
 * actors — and after they stop, the facts rest here, waiting for (or outliving) their actor.
 */
import {
  type Consolidation,
  type ConsolidationGroup,
  concernedNpc,
  consolidationGroups,
  type DebateEmitted,
  type DebateEvent,
  type DebateInput,
  type DebateOutput,
  defaultMemoryDecay,
  emptyNpcFacts,
  endOf,
  type ForgetAsk,
  type Forgetting,
  foldNpcFacts,
  foldTasks,
  forgetting,
  type HeldTask,
  isOpen,
  isTaskEvent,
  type MemoryDecay,
  type NpcEmitted,
  type NpcEvent,
  type NpcFacts,
  type NpcInput,
  npcMachine,
  openTasksOf,
  partyTasksOf,
  type Regard,
  type TaskEvent,
  taskHolder,
  type WorldClockInput,
} from "@hearsay/actors";
import type { Event, GameTime, MemoryId, NpcId, TaskId } from "@hearsay/core";
import { type Actor, type AnyActorRef, createActor } from "xstate";
import { DueIndex } from "./DueIndex.ts";
import { WorldClock } from "./WorldClock.ts";

interface Emitter<E> {
  send(event: unknown): void;
  on(type: "*", handler: (e: E) => void): unknown;
  getSnapshot(): { value: unknown; status: string; output?: unknown };
}

/** A memory an NPC forgets, whose it is, and why. */
export interface Forgotten {
  readonly memoryId: MemoryId;
  readonly owner: NpcId;
  readonly reason: "expired" | "forgotten";
}

/**
 * What the host folds from the log, as a snapshot keeps it: every NPC's facts (from its
 * actor or resting) and the schedules and routing kept beside them.
 */
export interface NpcFold {
  readonly facts: Map<NpcId, NpcFacts>;
  readonly expiries: DueIndex<NpcId>;
  readonly holders: Map<TaskId, NpcId | null>;
  readonly worldTasks: Map<TaskId, HeldTask>;
  readonly deadlines: DueIndex<TaskId>;
}

/** A cap answer (`NpcActors.capped`): when, with which cap, and what it dropped. */
interface CapHeld {
  readonly t: GameTime;
  readonly cap: number;
  readonly dropped: ReadonlyArray<MemoryId>;
}

export const emptyNpcFold = (): NpcFold => ({
  facts: new Map(),
  expiries: new DueIndex(),
  holders: new Map(),
  worldTasks: new Map(),
  deadlines: new DueIndex(),
});

export class NpcActors {
  private clockRef: WorldClock | null = null;
  private readonly npcs = new Map<NpcId, Actor<typeof npcMachine>>();
  /** Facts of NPCs with no running actor: before `spawn`, and after `stop`. */
  private resting = new Map<NpcId, NpcFacts>();
  /**
   * When each NPC's next memory runs out or fades away: a schedule (like wake-ups), not
   * its facts. A reinforcement only puts a fading off, so a time due here may find
   * nothing to forget; the NPC's answer then says when to ask again.
   */
  private expiries = new DueIndex<NpcId>();
  /** Who holds each task (null: the world), so a task's events reach its holder. */
  private holders = new Map<TaskId, NpcId | null>();
  /** Tasks between no NPCs: the world's, not any NPC's. */
  private worldTasks = new Map<TaskId, HeldTask>();
  /** When each open task's deadline passes: a schedule. */
  private deadlines = new DueIndex<TaskId>();
  private readonly npcOut: Array<NpcEmitted> = [];
  /**
   * Each NPC's last cap answer while it still holds: asked again, no earlier, with the
   * same cap, once the memories it dropped are gone, the NPC drops nothing (`capped`).
   * Only a memory recorded or reinforced (which may revive one that ended) can give it
   * more live memories than that answer left; time only ends them.
   */
  private capsHeld = new Map<NpcId, CapHeld>();

  /** `decay`: how the run's memories fade (engine config `memoryDecay`). */
  constructor(readonly decay: MemoryDecay = defaultMemoryDecay) {}

  get clock(): WorldClock {
    if (this.clockRef === null) throw new Error("the world clock was not started");
    return this.clockRef;
  }

  /** What this host has folded, for a snapshot (the structures themselves, not copies). */
  folded(): NpcFold {
    return {
      facts: new Map(this.allFacts().map((f) => [f.npcId, f])),
      expiries: this.expiries,
      holders: this.holders,
      worldTasks: this.worldTasks,
      deadlines: this.deadlines,
    };
  }

  /** Takes over a fold restored from a snapshot: only before any actor or the clock starts. */
  restore(fold: NpcFold): void {
    if (this.npcs.size > 0 || this.clockRef !== null)
      throw new Error("actors are restored before they start");
    this.resting = new Map(fold.facts);
    this.capsHeld = new Map();
    this.expiries = fold.expiries;
    this.holders = fold.holders;
    this.worldTasks = fold.worldTasks;
    this.deadlines = fold.deadlines;
  }

  /** Starts the world clock: the run's ticks begin. */
  startClock(clock: WorldClockInput): void {
    if (this.clockRef !== null) throw new Error("the world clock was already started");
    this.clockRef = new WorldClock(clock);
  }

  /**
   * Spawns (or rebuilds) an NPC's actor in the system, as a child of the clock; it takes
   * over the facts folded for it so far.
   */
  spawn(input: Omit<NpcInput, "facts">): void {
    if (this.npcs.has(input.npcId)) throw new Error(`actor ${input.npcId} was already spawned`);
    const facts = this.resting.get(input.npcId);
    if (facts === undefined) throw new Error(`actor ${input.npcId} was never registered`);
    const ref = createActor(npcMachine, {
      id: input.npcId,
      input: { ...input, facts },
      parent: this.clock.actor,
    });
    ref.on("*", (e) => this.npcOut.push(e as NpcEmitted));
    ref.start();
    this.resting.delete(input.npcId);
    this.npcs.set(input.npcId, ref);
  }

  /**
   * Folds an event into the facts of the NPC it concerns — the one way those facts
   * change, live (the tick's writer) and on a resume (the log read back) alike.
   */
  apply(event: Event): void {
    if (isTaskEvent(event)) {
      this.applyTask(event);
      return;
    }
    if (event.type === "ThreadOpened") {
      // A thread is between several NPCs: each keeps its own record of it.
      for (const id of event.payload.npcIds) {
        const facts = this.facts(id);
        if (facts !== undefined) foldNpcFacts(facts, event);
      }
      return;
    }
    const id = concernedNpc(event);
    if (id === null) return;
    if (event.type === "NpcRegistered") {
      this.resting.set(id, emptyNpcFacts(id));
      return;
    }
    const facts = this.facts(id);
    if (facts === undefined) return;
    foldNpcFacts(facts, event);
    if (event.type === "MemoryRecorded" || event.type === "MemoryReinforced")
      this.capsHeld.delete(id);
    if (event.type === "MemoryRecorded") {
      const end = endOf(facts.memories.get(event.payload.memoryId)!, this.decay);
      const due = this.expiries.dueAt(id);
      if (end !== null && (due === undefined || end.at < due)) this.expiries.set(id, end.at);
    }
  }

  /**
   * A task's event reaches its holder and, when another NPC proposed it, the proposer's
   * own copy; its deadline schedule follows it (set, moved, or dropped once it ends).
   */
  private applyTask(event: TaskEvent): void {
    const taskId = event.payload.taskId;
    if (event.type === "TaskProposed") {
      this.holders.set(
        taskId,
        taskHolder(event, (id) => this.facts(id) !== undefined),
      );
      this.deadlines.set(taskId, event.payload.deadline);
    } else if (event.type === "TaskDeadlineMoved") {
      if (this.deadlines.dueAt(taskId) !== undefined) this.deadlines.set(taskId, event.payload.to);
    } else if (!isOpen(event.payload.to)) {
      this.deadlines.delete(taskId);
    }
    if (!this.holders.has(taskId)) return;
    const holder = this.holders.get(taskId)!;
    if (holder === null) foldTasks(this.worldTasks, event);
    else foldNpcFacts(this.facts(holder)!, event);
    const proposer = this.proposerCopy(taskId, holder);
    if (proposer !== undefined) foldNpcFacts(proposer, event);
  }

  /** The facts of the NPC who proposed a task someone else holds, if that is an NPC. */
  private proposerCopy(taskId: TaskId, holder: NpcId | null): NpcFacts | undefined {
    const held =
      holder === null ? this.worldTasks.get(taskId) : this.facts(holder)?.tasks.get(taskId);
    const by = held?.proposedBy ?? null;
    return by === null || by === holder ? undefined : this.facts(by);
  }

  /** A task, from whoever holds it. */
  task(taskId: TaskId): HeldTask | undefined {
    const holder = this.holders.get(taskId);
    if (holder === undefined) return undefined;
    return holder === null ? this.worldTasks.get(taskId) : this.facts(holder)?.tasks.get(taskId);
  }

  /** The open tasks assigned to an NPC, in id order. */
  openTasksOf(npcId: NpcId): ReadonlyArray<HeldTask> {
    const facts = this.facts(npcId);
    return facts === undefined ? [] : openTasksOf(facts);
  }

  /** The open tasks an NPC is a party to (assignee or proposer), in id order. */
  partyTasksOf(npcId: NpcId): ReadonlyArray<HeldTask> {
    const facts = this.facts(npcId);
    return facts === undefined ? [] : partyTasksOf(facts);
  }

  /** Every task once, as its holder (or the world) keeps it, in no particular order. */
  allTasks(): ReadonlyArray<HeldTask> {
    const out: Array<HeldTask> = [];
    for (const id of this.holders.keys()) {
      const task = this.task(id);
      if (task !== undefined) out.push(task);
    }
    return out;
  }

  /** Open tasks whose deadline passed by `t`, in id order. */
  pastDeadline(t: GameTime): ReadonlyArray<TaskId> {
    return this.deadlines.takeDue(t);
  }

  /** What an NPC knows of itself, read from its actor (or resting, with no actor running). */
  facts(npcId: NpcId): NpcFacts | undefined {
    const ref = this.npcs.get(npcId);
    return ref === undefined ? this.resting.get(npcId) : ref.getSnapshot().context.facts;
  }

  /** How `from` regards `to`: its outgoing edge, if it has one. */
  regard(from: NpcId, to: string): Regard | undefined {
    return this.facts(from)?.regard.get(to);
  }

  /** Every NPC's facts, in id order. */
  allFacts(): ReadonlyArray<NpcFacts> {
    const out: Array<NpcFacts> = [...this.resting.values()];
    for (const ref of this.npcs.values()) out.push(ref.getSnapshot().context.facts);
    return out.sort((a, b) => (a.npcId < b.npcId ? -1 : a.npcId > b.npcId ? 1 : 0));
  }

  /** How many NPCs have a running actor. */
  get running(): number {
    return this.npcs.size;
  }

  /** Facts held outside any actor: none while a run's actors are up. */
  get resters(): number {
    return this.resting.size;
  }

  /**
   * The memories that ran out or faded away by `t`, in id order: each NPC due asks its
   * own actor (its next end is then scheduled from its answer).
   */
  expired(t: GameTime): ReadonlyArray<Forgotten> {
    const out: Array<Forgotten> = [];
    for (const owner of this.expiries.takeDue(t)) {
      const answer = this.forget(owner, { type: "EXPIRE", t, decay: this.decay });
      for (const { memoryId, reason } of answer.memories)
        if (reason !== "capped") out.push({ memoryId, owner, reason });
      if (answer.nextExpiry !== null) this.expiries.set(owner, answer.nextExpiry);
    }
    return out.sort((a, b) => (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));
  }

  /** The groups of an NPC's memories its consolidation puts together at `t` (`consolidationGroups`). */
  consolidationGroups(
    npcId: NpcId,
    t: GameTime,
    rules: Consolidation,
  ): ReadonlyArray<ConsolidationGroup> {
    const facts = this.facts(npcId);
    return facts === undefined ? [] : consolidationGroups(facts.memories, t, this.decay, rules);
  }

  /**
   * The memories a cap of `cap` drops from an NPC, in drop order. An NPC whose last cap
   * answer still holds (`capsHeld`) is not asked again: it would drop nothing — as when it
   * talked and was capped, then is capped again at the tick's end.
   */
  capped(npcId: NpcId, t: GameTime, cap: number): ReadonlyArray<MemoryId> {
    const facts = this.facts(npcId);
    if (facts === undefined || facts.memories.size <= cap) return [];
    const held = this.capsHeld.get(npcId);
    if (
      held !== undefined &&
      held.cap === cap &&
      held.t <= t &&
      held.dropped.every((id) => !facts.memories.has(id))
    )
      return [];
    const dropped = this.forget(npcId, { type: "CAP", t, cap, decay: this.decay }).memories.map(
      (m) => m.memoryId,
    );
    this.capsHeld.set(npcId, { t, cap, dropped });
    return dropped;
  }

  /**
   * An NPC's answer to what it forgets: its actor's when one runs (even after the clock's
   * last tick: forgetting is bookkeeping, not acting), else the same pure rule on its facts.
   */
  private forget(npcId: NpcId, ask: ForgetAsk): Forgetting {
    const ref = this.npcs.get(npcId);
    if (ref === undefined) {
      const facts = this.resting.get(npcId);
      return facts === undefined
        ? { type: "forget", memories: [], nextExpiry: null }
        : forgetting(facts, ask);
    }
    ref.send(ask);
    const out = this.npcOut.splice(0, this.npcOut.length);
    const answer = out.find((e): e is Forgetting => e.type === "forget");
    if (answer === undefined) throw new Error(`actor ${npcId} did not answer ${ask.type}`);
    return answer;
  }

  /** Sends an NPC an event; returns what it emitted in response, in order. */
  send(npcId: NpcId, event: NpcEvent): ReadonlyArray<NpcEmitted> {
    const ref = this.npcs.get(npcId);
    // Once the clock's last tick has begun, its children are done: they hear nothing.
    if (!ref || !this.clockRef?.childrenHear) return [];
    ref.send(event);
    return this.npcOut.splice(0, this.npcOut.length);
  }

  /** The state an NPC's machine is in (`idle`, `deciding`, …). */
  stateOf(npcId: NpcId): string | undefined {
    return this.npcs.get(npcId)?.getSnapshot().context.value;
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
   * and XState stops only a root actor directly, so they are dropped with the clock; their
   * facts stay readable (a run's summary counts their memories).
   */
  stop(): void {
    for (const [id, ref] of this.npcs) this.resting.set(id, ref.getSnapshot().context.facts);
    this.npcs.clear();
    this.clockRef?.stop();
  }

  private child(id: string): AnyActorRef {
    const ref = (
      this.clock.actor.getSnapshot().children as Record<string, AnyActorRef | undefined>
    )[id];
    if (!ref) throw new Error(`actor ${id} was not spawned`);
    return ref;
  }
}
