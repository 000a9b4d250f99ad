/**
 * The world clock against a model of what it owns: the tick, the wake-up schedule and
 * skips. Whatever the engine tells it and asks it, in any order the clock accepts, it
 * answers as the model does — every scheduled NPC comes due exactly once, at the first
 * answer at or after its time, in id order; a jump of N days moves exactly N days; a
 * debate comes due in the tick its hour falls in unless it was held. And a clock rebuilt
 * by folding what it observed (a resume) holds the same schedule, but for wake-ups it
 * already handed out, which come due again at once. The daily maintenance job comes due
 * exactly once for every day whose hour the clock has passed — ticked through, skipped
 * over, or reached by a clock resumed from the fold of what it observed.
 */
import {
  emptySchedule,
  foldSchedule,
  type WorldClockEmitted,
  worldClockMachine,
} from "@hearsay/actors";
import {
  type Activity,
  type DebateTopic,
  type Event,
  type GameTime,
  ids,
  MINUTES_PER_DAY,
  makeEvent,
  type NpcId,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Actor, createActor } from "xstate";

/** A debate on the ferry every day at 01:00. */
const ferry = {
  id: "ferry",
  topic: "the ferry",
  factionId: null,
  locationId: "quay",
  firstDay: 0,
  everyDays: 1,
  hour: 1,
  positions: [],
} as unknown as DebateTopic;

interface Model {
  from: number;
  t: number;
  /** Every event the clock was told of, in order: what a resume folds. */
  readonly observed: Array<Event>;
  readonly held: Set<string>;
  readonly endAt: number;
  readonly tick: number;
  readonly untils: Map<string, number>;
  readonly asleep: Set<string>;
  phase: "running" | "skipping" | "ending" | "finished";
  skipTo: number;
  /** The days the daily job ran for, in order. */
  readonly ran: Array<number>;
  /** The days the index job ran for, in order. */
  readonly indexed: Array<number>;
}

/** The daily job, at 03:00, and the index job every other day at 05:30. */
const jobs = [
  { job: "daily" as const, hour: 3 },
  { job: "index" as const, hour: 5.5, everyDays: 2 },
];

interface Real {
  actor: Actor<typeof worldClockMachine>;
  readonly seen: Array<WorldClockEmitted>;
}

type Cmd = fc.Command<Model, Real>;

const answer = (r: Real, event: Parameters<Real["actor"]["send"]>[0]) => {
  r.seen.length = 0;
  r.actor.send(event);
  return [...r.seen];
};

class Observe implements Cmd {
  constructor(
    readonly npc: string,
    readonly activity: Activity,
    readonly hours: number | null,
  ) {}
  check = (m: Readonly<Model>) => m.phase !== "finished";
  run(m: Model, r: Real): void {
    const until = this.hours === null ? null : Math.max(0, m.t + this.hours * 60);
    const event = makeEvent("NpcActivityChanged", {
      id: ids.event("e"),
      t: m.t as GameTime,
      payload: {
        npcId: this.npc as NpcId,
        activity: this.activity,
        locationId: ids.location("home"),
        destination: null,
        until: until as GameTime | null,
        taskId: null,
        attendingTo: [],
        holding: [],
        note: "",
      },
    });
    expect(answer(r, { type: "OBSERVE", events: [event] })).toEqual([]);
    m.observed.push(event);
    if (until === null) m.untils.delete(this.npc);
    else m.untils.set(this.npc, until);
    if (this.activity === "asleep") m.asleep.add(this.npc);
    else m.asleep.delete(this.npc);
  }
  toString = () => `observe(${this.npc} ${this.activity} +${this.hours}h)`;
}

class Advance implements Cmd {
  check = (m: Readonly<Model>) => m.phase === "running" || m.phase === "ending";
  run(m: Model, r: Real): void {
    const out = answer(r, { type: "ADVANCE" });
    if (m.phase === "ending") {
      expect(out).toEqual([]);
      expect(r.actor.getSnapshot().status).toBe("done");
      m.phase = "finished";
      return;
    }
    const to = Math.min(m.t + m.tick, m.endAt);
    expect(out).toEqual([{ type: "tick", from: m.t, to }]);
    m.from = m.t;
    m.t = to;
    m.phase = to >= m.endAt ? "ending" : "running";
    checkDebates(m, r);
    runJobs(m, r);
    expect(r.actor.getSnapshot().value).toBe(m.phase);
  }
  toString = () => "advance";
}

class WakesDue implements Cmd {
  check = (m: Readonly<Model>) => m.phase === "running" || m.phase === "ending";
  run(m: Model, r: Real): void {
    const due = [...m.untils].filter(([, u]) => u <= m.t).map(([id]) => id);
    due.sort();
    expect(answer(r, { type: "WAKES_DUE" })).toEqual([{ type: "wakes", due }]);
    for (const id of due) m.untils.delete(id);
  }
  toString = () => "wakesDue";
}

class Skip implements Cmd {
  constructor(readonly days: number | null) {}
  check = (m: Readonly<Model>) => m.phase === "running";
  run(m: Model, r: Real): void {
    let to: number;
    if (this.days === null) {
      to = m.t;
      for (const [id, u] of m.untils) if (!m.asleep.has(id) && u > to) to = u;
      to = Math.min(to, m.t + MINUTES_PER_DAY, m.endAt);
    } else to = Math.min(m.t + this.days * MINUTES_PER_DAY, m.endAt);
    const out = answer(
      r,
      this.days === null
        ? { type: "SKIP", mode: "elision" }
        : { type: "SKIP", mode: "jump", days: this.days },
    );
    if (to <= m.t) {
      expect(out).toEqual([]);
      return;
    }
    const mode = this.days === null ? "elision" : "jump";
    expect(out).toEqual([{ type: "skip", mode, from: m.t, to }]);
    if (this.days !== null)
      expect(to - m.t).toBe(Math.min(this.days * MINUTES_PER_DAY, m.endAt - m.t));
    m.phase = "skipping";
    m.skipTo = to;
  }
  toString = () => (this.days === null ? "elide" : `jump(${this.days}d)`);
}

class Step implements Cmd {
  check = (m: Readonly<Model>) => m.phase === "skipping";
  run(m: Model, r: Real): void {
    const out = answer(r, { type: "STEP" });
    if (m.t >= m.skipTo) {
      expect(out).toEqual([]);
      return;
    }
    const to = Math.min(m.t + m.tick, m.skipTo);
    expect(out).toEqual([{ type: "step", from: m.t, to }]);
    m.from = m.t;
    m.t = to;
    checkDebates(m, r);
    runJobs(m, r);
  }
  toString = () => "step";
}

class SkipDone implements Cmd {
  check = (m: Readonly<Model>) => m.phase === "skipping" && m.t >= m.skipTo;
  run(m: Model, r: Real): void {
    expect(answer(r, { type: "SKIP_DONE" })).toEqual([]);
    m.phase = m.t >= m.endAt ? "finished" : "running";
    expect(r.actor.getSnapshot().status).toBe(m.phase === "finished" ? "done" : "active");
  }
  toString = () => "skipDone";
}

/** Holds today's or tomorrow's debate (as a debate's DebateHeld, or one held early). */
class HoldDebate implements Cmd {
  constructor(readonly ahead: number) {}
  check = (m: Readonly<Model>) => m.phase !== "finished";
  run(m: Model, r: Real): void {
    const debateId = `ferry-day${Math.floor(m.t / MINUTES_PER_DAY) + this.ahead}`;
    const event = makeEvent("DebateHeld", {
      id: ids.event("e"),
      t: m.t as GameTime,
      payload: {
        debateId: debateId as never,
        topic: "the ferry",
        participants: [],
        locationId: null,
        factionId: null,
        summary: "",
        outcome: "",
      },
    });
    expect(answer(r, { type: "OBSERVE", events: [event] })).toEqual([]);
    m.observed.push(event);
    m.held.add(debateId);
  }
  toString = () => `hold(+${this.ahead}d)`;
}

/** The engine asks once per tick and per skip step which debates are due. */
const checkDebates = (m: Model, r: Real): void => {
  const due: Array<string> = [];
  for (let day = 0; day * MINUTES_PER_DAY <= m.t; day++) {
    const at = day * MINUTES_PER_DAY + 60;
    if (at > m.from && at <= m.t && !m.held.has(`ferry-day${day}`)) due.push(`ferry-day${day}`);
  }
  const out = answer(r, { type: "DEBATES_DUE" });
  expect(out.map((e) => (e.type === "debates" ? e.due.map((d) => d.debateId) : e.type))).toEqual([
    due,
  ]);
};

/**
 * The engine asks once per tick and per skip step which jobs are due and runs each (its
 * MaintenanceRan is observed). Every day whose 03:00 has passed has then run, once, in
 * order.
 */
const runJobs = (m: Model, r: Real): void => {
  const out = answer(r, { type: "JOBS_DUE" });
  expect(out.length).toBe(1);
  const due = out[0]!.type === "jobs" ? out[0]!.due : [];
  const events = due.map((d) =>
    makeEvent("MaintenanceRan", {
      id: ids.event("e"),
      t: m.t as GameTime,
      payload: { job: d.job, day: d.day, expired: 0, forgotten: 0, consolidated: 0 },
    }),
  );
  expect(answer(r, { type: "OBSERVE", events })).toEqual([]);
  m.observed.push(...events);
  m.ran.push(...due.filter((d) => d.job === "daily").map((d) => d.day));
  m.indexed.push(...due.filter((d) => d.job === "index").map((d) => d.day));
  checkRan(m);
};

/**
 * Each day's job ran once, days in order, and every day whose 03:00 has passed has run;
 * the index job likewise on even days whose 05:30 has passed, and on no other day.
 */
const checkRan = (m: Model): void => {
  expect(m.ran).toEqual([...new Set(m.ran)].sort((a, b) => a - b));
  for (let day = 0; day * MINUTES_PER_DAY + 180 <= m.t; day++) expect(m.ran).toContain(day);
  expect(m.indexed).toEqual([...new Set(m.indexed)].sort((a, b) => a - b));
  expect(m.indexed.filter((d) => d % 2 !== 0)).toEqual([]);
  for (let day = 0; day * MINUTES_PER_DAY + 330 <= m.t; day += 2) expect(m.indexed).toContain(day);
};

/**
 * Runs today's job outside the calendar, as a jump landing on a day may, before or after
 * its hour: the clock must not run that day's job again.
 */
class RunJobNow implements Cmd {
  check = (m: Readonly<Model>) =>
    m.phase !== "finished" && !m.ran.includes(Math.floor(m.t / MINUTES_PER_DAY));
  run(m: Model, r: Real): void {
    const day = Math.floor(m.t / MINUTES_PER_DAY);
    const event = makeEvent("MaintenanceRan", {
      id: ids.event("e"),
      t: m.t as GameTime,
      payload: { job: "daily", day, expired: 0, forgotten: 0, consolidated: 0 },
    });
    expect(answer(r, { type: "OBSERVE", events: [event] })).toEqual([]);
    m.observed.push(event);
    m.ran.push(day);
    checkRan(m);
  }
  toString = () => "runJobNow";
}

/**
 * A resume: the clock is rebuilt from the fold of everything observed, at the time the
 * last one stopped. Wake-ups already handed out come due again (a resumed clock holds
 * every NPC's last activity end).
 */
class Resume implements Cmd {
  check = (m: Readonly<Model>) => m.phase === "running";
  run(m: Model, r: Real): void {
    const schedule = emptySchedule();
    for (const e of m.observed) foldSchedule(schedule, e);
    r.actor.stop();
    r.actor = createActor(worldClockMachine, {
      input: {
        t: m.t as GameTime,
        tickMinutes: m.tick,
        endAt: m.endAt as GameTime,
        schedule,
        debateTopics: [ferry],
        jobs,
      },
    });
    r.actor.on("*", (e) => r.seen.push(e as WorldClockEmitted));
    r.actor.start();
    m.from = m.t;
    m.untils.clear();
    for (const [id, due] of schedule.wakes.entries()) m.untils.set(id, due);
  }
  toString = () => "resume";
}

/** What a resume would build: the fold of everything observed. */
class Rebuild implements Cmd {
  check = (m: Readonly<Model>) => m.phase !== "finished";
  run(m: Model, r: Real): void {
    const rebuilt = emptySchedule();
    for (const e of m.observed) foldSchedule(rebuilt, e);
    const live = r.actor.getSnapshot().context.schedule;
    expect(rebuilt.debatesHeld).toEqual(live.debatesHeld);
    expect(rebuilt.jobsRun).toEqual(live.jobsRun);
    expect(rebuilt.asleep).toEqual(live.asleep);
    const liveWakes = new Map(live.wakes.entries());
    for (const [id, due] of rebuilt.wakes.entries()) {
      if (liveWakes.has(id)) expect(liveWakes.get(id)).toBe(due);
      else expect(due).toBeLessThanOrEqual(m.t);
    }
    for (const id of liveWakes.keys()) expect(rebuilt.wakes.dueAt(id)).toBeDefined();
  }
  toString = () => "rebuild";
}

const commands = [
  fc.integer({ min: 0, max: 1 }).map((d) => new HoldDebate(d)),
  fc.constant(new Rebuild()),
  fc.constant(new Resume()),
  fc.constant(new RunJobNow()),
  fc
    .tuple(
      fc.constantFrom("ada", "bo", "cy"),
      fc.constantFrom<Activity>("asleep", "working", "travelling"),
      fc.option(fc.integer({ min: -2, max: 8 })),
    )
    .map(([n, a, h]) => new Observe(n, a, h)),
  // Ticks are most of what a clock does.
  fc.constant(new Advance()),
  fc.constant(new Advance()),
  fc.constant(new WakesDue()),
  fc.constant(new WakesDue()),
  fc.option(fc.integer({ min: 1, max: 3 }), { freq: 1 }).map((d) => new Skip(d)),
  fc.constant(new Step()),
  fc.constant(new Step()),
  fc.constant(new SkipDone()),
];

describe("world clock (model)", () => {
  it("answers every tick, wake-up and skip as the model does", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(60, 90, 240),
        // Runs short enough that the end, and skips cut short by it, come up often.
        fc.integer({ min: 2, max: 72 }),
        fc.commands(commands, { maxCommands: 80 }),
        (tick, hours, cmds) => {
          const endAt = hours * 60;
          fc.modelRun((): { model: Model; real: Real } => {
            const actor = createActor(worldClockMachine, {
              input: {
                t: 0 as GameTime,
                tickMinutes: tick,
                endAt: endAt as GameTime,
                debateTopics: [ferry],
                jobs,
              },
            });
            const seen: Array<WorldClockEmitted> = [];
            actor.on("*", (e) => seen.push(e as WorldClockEmitted));
            actor.start();
            return {
              model: {
                from: 0,
                t: 0,
                observed: [],
                held: new Set(),
                endAt,
                tick,
                untils: new Map(),
                asleep: new Set(),
                phase: "running",
                skipTo: 0,
                ran: [],
                indexed: [],
              },
              real: { actor, seen },
            };
          }, cmds);
        },
      ),
    );
  });
});
