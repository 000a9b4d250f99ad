/**
 * Tasks whose parties change their terms: an assignee gives one up, a proposer withdraws
 * one, a deadline moves by the other party's agreement. The rules are pure
 * (`TaskTerms.ts`); the stateful model drives the real engine functions against a model
 * of what each task must be; a run shows the scripted brain doing it by rule.
 */
import type { HeldTask } from "@hearsay/actors";
import {
  type GameTime,
  ids,
  type LocationId,
  MINUTES_PER_DAY,
  type NpcId,
  type TaskId,
  type TaskStatus,
  TaskStatus as TaskStatusSchema,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultEngineConfig } from "../src/EngineConfig.ts";
import { EngineState } from "../src/EngineState.ts";
import { NpcActors } from "../src/NpcActors.ts";
import { askNewDeadline, cancelTask } from "../src/Renegotiation.ts";
import { canMove, expireTasks, propose } from "../src/Tasks.ts";
import {
  agreeingParty,
  MAX_DEADLINE_DAYS,
  MAX_DEADLINE_MOVES,
  mayCancel,
  movedDeadline,
} from "../src/TaskTerms.ts";
import type { TickContext } from "../src/TickContext.ts";
import { TickWriter } from "../src/TickWriter.ts";

const statuses = TaskStatusSchema.literals as ReadonlyArray<TaskStatus>;
const ended: ReadonlyArray<TaskStatus> = statuses.filter((s) => s !== "proposed" && s !== "active");
const people = ["ana", "bo", "cy"].map(ids.npc);

const arbTask = fc.record({
  status: fc.constantFrom(...statuses),
  assignee: fc.option(fc.constantFrom(...people), { nil: null }),
  proposedBy: fc.option(fc.constantFrom(...people), { nil: null }),
  deadline: fc.option(
    fc.integer({ min: 0, max: 100 * MINUTES_PER_DAY }).map((t) => t as GameTime),
    { nil: null },
  ),
  deadlineMoves: fc.nat({ max: 3 }),
});

describe("task terms, as rules", () => {
  it("property: no move leaves completed, failed, rejected, expired or cancelled", () => {
    for (const from of ended) for (const to of statuses) expect(canMove(from, to)).toBe(false);
    fc.assert(
      fc.property(arbTask, fc.constantFrom(...people), (task, npc) => {
        if (ended.includes(task.status)) {
          expect(mayCancel(task, npc, "give_up")).toBe(false);
          expect(mayCancel(task, npc, "withdraw")).toBe(false);
          expect(agreeingParty(task, npc)).toBeNull();
        }
      }),
    );
  });

  it("property: only the assignee gives a task up, only its proposer withdraws it", () => {
    fc.assert(
      fc.property(arbTask, fc.constantFrom(...people), (task, npc) => {
        const open = task.status === "proposed" || task.status === "active";
        expect(mayCancel(task, npc, "give_up")).toBe(open && task.assignee === npc);
        expect(mayCancel(task, npc, "withdraw")).toBe(open && task.proposedBy === npc);
        // Whoever must agree to a new deadline is a party to it, and only a party may ask.
        const other = agreeingParty(task, npc);
        if (other !== null) {
          expect([task.assignee, task.proposedBy]).toContain(npc);
          expect(other === npc || [task.assignee, task.proposedBy].includes(other)).toBe(true);
          expect(task.deadlineMoves).toBeLessThan(MAX_DEADLINE_MOVES);
        }
        if (task.assignee !== npc && task.proposedBy !== npc) expect(other).toBeNull();
      }),
    );
  });

  it("property: a moved deadline is always later than now and than the old one, by at most the cap", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -5, max: 100 }),
        (old, now, days) => {
          const to = movedDeadline(old as GameTime | null, now as GameTime, days);
          expect(to).toBeGreaterThan(now);
          if (old !== null) expect(to).toBeGreaterThan(old);
          expect(to - Math.max(old ?? now, now)).toBeLessThanOrEqual(
            MAX_DEADLINE_DAYS * MINUTES_PER_DAY,
          );
        },
      ),
    );
  });
});

// ---- the stateful model: the engine's functions against what each task must be ----

const here = ids.location("green");
const away = ids.location("quay");

interface Bench {
  readonly state: EngineState;
  readonly actors: NpcActors;
  writer: TickWriter;
  t: number;
  ctx: TickContext;
}

const contextOf = (b: Omit<Bench, "ctx">): TickContext =>
  ({
    state: b.state,
    actors: b.actors,
    writer: b.writer,
    t: b.t as GameTime,
    from: (b.t - 60) as GameTime,
    config: defaultEngineConfig,
    names: { npcName: (id: NpcId) => `Name of ${id}` },
  }) as unknown as TickContext;

const place = (b: Bench, npcId: NpcId, locationId: LocationId): void => {
  b.writer.emit("NpcActivityChanged", {
    npcId,
    activity: "idle",
    locationId,
    destination: null,
    until: null,
    taskId: null,
    attendingTo: [],
    holding: [],
    note: "",
  });
};

const bench = (): Bench => {
  const state = new EngineState();
  const actors = new NpcActors();
  const writer = new TickWriter(state, actors, 0 as GameTime, 0);
  const b = { state, actors, writer, t: 0 } as Bench;
  b.ctx = contextOf(b);
  for (const npcId of people) {
    writer.emit("NpcRegistered", {
      npcId,
      name: npcId,
      role: "villager",
      factionId: null,
      locationId: here,
      traits: [],
    });
    place(b, npcId, here);
  }
  return b;
};

/** Starts a new tick `minutes` later: what was written so far is appended. */
const advance = (b: Bench, minutes: number): void => {
  b.writer.drain();
  b.t += minutes;
  b.writer = new TickWriter(b.state, b.actors, b.t as GameTime, b.state.seq);
  b.ctx = contextOf(b);
};

interface ModelTask {
  status: TaskStatus;
  deadline: number | null;
  moves: number;
  readonly assignee: NpcId | null;
  readonly proposedBy: NpcId | null;
}

interface Model {
  readonly tasks: Map<TaskId, ModelTask>;
  readonly at: Map<NpcId, LocationId>;
  /** `from>to` pairs where `from` distrusts `to`. */
  readonly distrust: Set<string>;
}

const isOpen = (s: TaskStatus) => s === "proposed" || s === "active";

/** Every task the engine holds is what the model says, in its holder and proposer copies. */
const agree = (m: Model, b: Bench): void => {
  for (const [id, want] of m.tasks) {
    const held = b.actors.task(id);
    const copies: Array<HeldTask> = held === undefined ? [] : [held];
    for (const f of b.actors.allFacts()) {
      const c = f.tasks.get(id);
      if (c !== undefined) copies.push(c);
    }
    expect(copies.length, `${id} held`).toBeGreaterThan(0);
    for (const c of copies) {
      expect(c.status, `${id} status`).toBe(want.status);
      expect(c.deadline, `${id} deadline`).toBe(want.deadline);
      expect(c.deadlineMoves).toBe(want.moves);
    }
  }
  expect(b.actors.allTasks().length).toBe(m.tasks.size);
  // An ended task frees its assignee: it is no longer offered as work.
  for (const npc of people) {
    const open = [...m.tasks]
      .filter(([, t]) => t.assignee === npc && isOpen(t.status))
      .map(([id]) => id)
      .sort();
    expect(b.actors.openTasksOf(npc).map((t) => t.id)).toEqual(open);
  }
};

type Cmd = fc.Command<Model, Bench>;

/**
 * What others remember of `actor`'s change since event `from` of this batch: their
 * quotations pair up and never nest, and the actor's own words ("I …") are quoted, never
 * run on after a third-person account.
 */
const othersTold = (b: Bench, from: number, actor: NpcId): void => {
  for (const e of b.writer.emitted().slice(from))
    if (e.type === "MemoryRecorded" && e.payload.ownerNpcId !== actor) {
      const text = e.payload.text;
      expect((text.match(/"/g) ?? []).length % 2, text).toBe(0);
      expect(text, text).not.toMatch(/""|[a-z]": I /);
    }
};

class Propose implements Cmd {
  constructor(
    readonly assignee: NpcId | null,
    readonly proposedBy: NpcId | null,
    readonly days: number,
  ) {}
  check = () => true;
  run(m: Model, b: Bench): void {
    const deadline = (b.t + this.days * MINUTES_PER_DAY) as GameTime;
    const id = propose(b.ctx, {
      title: "Mend the nets",
      description: "They are torn.",
      proposedBy: this.proposedBy,
      assignee: this.assignee,
      locationId: here,
      factionId: null,
      deadline,
    });
    m.tasks.set(id, {
      status: "proposed",
      deadline,
      moves: 0,
      assignee: this.assignee,
      proposedBy: this.proposedBy,
    });
    agree(m, b);
  }
  toString = () => `propose(${this.assignee}, by ${this.proposedBy}, ${this.days}d)`;
}

const nth = (m: Model, i: number): [TaskId, ModelTask] | undefined =>
  [...m.tasks.entries()][i % Math.max(1, m.tasks.size)];

class Cancel implements Cmd {
  constructor(
    readonly npc: NpcId,
    readonly i: number,
    readonly move: "give_up" | "withdraw",
  ) {}
  check = (m: Model) => m.tasks.size > 0;
  run(m: Model, b: Bench): void {
    const [id, task] = nth(m, this.i)!;
    const party = this.move === "give_up" ? task.assignee : task.proposedBy;
    const may = isOpen(task.status) && party === this.npc;
    const before = b.writer.size;
    expect(cancelTask(b.ctx, this.npc, id, this.move, "I have too much to do.")).toBe(may);
    othersTold(b, before, this.npc);
    if (may) task.status = "cancelled";
    else expect(b.writer.size).toBe(before);
    agree(m, b);
  }
  toString = () => `${this.move}(${this.npc}, #${this.i})`;
}

class AskMore implements Cmd {
  constructor(
    readonly npc: NpcId,
    readonly i: number,
    readonly days: number,
  ) {}
  check = (m: Model) => m.tasks.size > 0;
  run(m: Model, b: Bench): void {
    const [id, task] = nth(m, this.i)!;
    const other =
      task.assignee === this.npc
        ? task.proposedBy
        : task.proposedBy === this.npc
          ? (task.assignee ?? this.npc)
          : null;
    const may =
      isOpen(task.status) &&
      task.deadline !== null &&
      task.moves < MAX_DEADLINE_MOVES &&
      other !== null &&
      (other === this.npc ||
        (m.at.get(other) === m.at.get(this.npc) && !m.distrust.has(`${other}>${this.npc}`)));
    const before = b.writer.size;
    expect(askNewDeadline(b.ctx, this.npc, id, this.days, 'I lost a week to the "storm"')).toBe(
      may,
    );
    othersTold(b, before, this.npc);
    if (may) {
      const to = movedDeadline(task.deadline as GameTime, b.t as GameTime, this.days);
      expect(to).toBeGreaterThan(b.t);
      task.deadline = to;
      task.moves += 1;
    }
    agree(m, b);
  }
  toString = () => `ask(${this.npc}, #${this.i}, ${this.days}d)`;
}

class GoTo implements Cmd {
  constructor(
    readonly npc: NpcId,
    readonly to: LocationId,
  ) {}
  check = () => true;
  run(m: Model, b: Bench): void {
    place(b, this.npc, this.to);
    m.at.set(this.npc, this.to);
  }
  toString = () => `goto(${this.npc}, ${this.to})`;
}

class Regard implements Cmd {
  constructor(
    readonly from: NpcId,
    readonly to: NpcId,
    readonly trust: number,
  ) {}
  check = () => this.from !== this.to;
  run(m: Model, b: Bench): void {
    b.writer.emit("RelationshipChanged", {
      fromId: this.from,
      toId: this.to,
      trust: this.trust,
      respect: 0,
      suspicion: 0,
      summary: "",
      reason: "a test",
    });
    if (this.trust < -0.1) m.distrust.add(`${this.from}>${this.to}`);
    else m.distrust.delete(`${this.from}>${this.to}`);
  }
  toString = () => `regard(${this.from} → ${this.to}: ${this.trust})`;
}

class Pass implements Cmd {
  constructor(readonly minutes: number) {}
  check = () => true;
  run(m: Model, b: Bench): void {
    advance(b, this.minutes);
    expireTasks(b.ctx);
    for (const task of m.tasks.values())
      if (isOpen(task.status) && task.deadline !== null && task.deadline <= b.t)
        task.status = "expired";
    agree(m, b);
  }
  toString = () => `pass(${this.minutes})`;
}

const npcArb = fc.constantFrom(...people);
const commands = [
  fc
    .tuple(
      fc.option(npcArb, { nil: null }),
      fc.option(npcArb, { nil: null }),
      fc.integer({ min: 1, max: 4 }),
    )
    .map(([a, p, d]) => new Propose(a, p, d)),
  fc
    .tuple(npcArb, fc.nat(20), fc.constantFrom("give_up" as const, "withdraw" as const))
    .map(([n, i, mv]) => new Cancel(n, i, mv)),
  fc
    .tuple(npcArb, fc.nat(20), fc.integer({ min: 1, max: 20 }))
    .map(([n, i, d]) => new AskMore(n, i, d)),
  fc.tuple(npcArb, fc.constantFrom(here, away)).map(([n, l]) => new GoTo(n, l)),
  fc.integer({ min: 60, max: 3 * MINUTES_PER_DAY }).map((n) => new Pass(n)),
  fc
    .tuple(npcArb, npcArb, fc.constantFrom(-0.6, 0.4))
    .map(([f, t, trust]) => new Regard(f, t, trust)),
];

describe("task terms, against a model", () => {
  it("fc.commands: cancels and deadline moves happen exactly when the rules allow, and expiry follows the moved deadline", () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        const b = bench();
        const model: Model = {
          tasks: new Map(),
          at: new Map(people.map((p) => [p, here])),
          distrust: new Set(),
        };
        fc.modelRun(() => ({ model, real: b }), cmds);
      }),
      { numRuns: 150 },
    );
  });
});
