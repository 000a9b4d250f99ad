import {
  emptyNpcFacts,
  foldNpcFacts,
  isOpen,
  type NpcAction,
  type NpcEmitted,
  type NpcEvent,
  type NpcInput,
  type NpcStateName,
  npcMachine,
  npcStateOf,
  npcTransition,
} from "@hearsay/actors";
import {
  type Event,
  type GameTime,
  gameTime,
  ids,
  makeEvent,
  type TaskStatus,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";

const home = ids.location("home");
const forge = ids.location("forge");
const square = ids.location("square");
const routes = {
  travelMinutes: (from: string, to: string) =>
    from === to ? 0 : from === "nowhere" || to === "nowhere" ? null : 30,
};
const input = (t: GameTime, over: Partial<NpcInput["state"]> = {}): NpcInput => ({
  npcId: ids.npc("smith"),
  schedule: { wakeHour: 6, sleepHour: 22, home, workplace: forge },
  routes,
  tickMinutes: 60,
  t,
  state: {
    activity: "asleep",
    locationId: home,
    destination: null,
    until: gameTime(0, 6),
    taskId: null,
    attendingTo: [],
    ...over,
  },
  facts: emptyNpcFacts(ids.npc("smith")),
});
const start = (i: NpcInput) => {
  const actor = createActor(npcMachine, { input: i });
  const seen: Array<NpcEmitted> = [];
  actor.on("*", (e) => seen.push(e as NpcEmitted));
  actor.start();
  return { actor, seen };
};
const wake = (t: GameTime, over: Partial<{ company: number; roll: number }> = {}) => ({
  type: "WAKE" as const,
  t,
  company: 0,
  roll: 0.99,
  ...over,
});
/** It has learnt `n` things since it last changed activity (as its facts' fold counts them). */
const learn = (i: NpcInput, n: number) => {
  for (let k = 0; k < n; k++)
    foldNpcFacts(
      i.facts,
      makeEvent("KnowledgeGained", {
        id: ids.event(`k${k}`),
        t: i.t,
        payload: {
          npcId: i.npcId,
          itemKind: "world_event",
          itemId: `w${k}`,
          via: "told",
          fromNpcId: null,
          confidence: 1,
        },
      } as never) as Event,
    );
  return i;
};
const task = (i: NpcInput, id: string, assignee: string, status: TaskStatus) => {
  const held = {
    id: ids.task(id),
    title: id,
    description: "",
    proposedAt: 0 as GameTime,
    proposedBy: null,
    assignee: ids.npc(assignee),
    locationId: null,
    deadline: null,
    status,
    sessions: 0,
    deadlineMoves: 0,
  };
  // As `foldNpcFacts` keeps them: every task held, the open ones indexed too.
  i.facts.tasks.set(held.id, held);
  if (isOpen(status)) i.facts.open.set(held.id, held);
  return i;
};

describe("npc machine", () => {
  it("restores into the logged activity without emitting anything", () => {
    const { actor, seen } = start(
      input(gameTime(0, 3), { activity: "working", locationId: forge, until: gameTime(0, 5) }),
    );
    expect(actor.getSnapshot().context.value).toBe("working");
    expect(seen).toEqual([]);
  });

  it("wakes, walks to work, then works a shift — routine, no brain", () => {
    const { actor, seen } = start(input(gameTime(0, 0)));
    actor.send(wake(gameTime(0, 6)));
    expect(actor.getSnapshot().context.value).toBe("travelling");
    expect(seen).toEqual([
      expect.objectContaining({
        type: "activity",
        activity: "travelling",
        destination: forge,
        until: gameTime(0, 7),
      }),
    ]);
    actor.send(wake(gameTime(0, 7)));
    expect(actor.getSnapshot().context.value).toBe("working");
    expect(seen.slice(1)).toEqual([
      { type: "moved", from: home, to: forge },
      expect.objectContaining({
        type: "activity",
        activity: "working",
        locationId: forge,
        until: gameTime(0, 11),
      }),
    ]);
    expect(seen.some((e) => e.type === "decide")).toBe(false);
  });

  it("goes home at night and sleeps until its waking hour", () => {
    const { actor, seen } = start(
      input(gameTime(0, 20), { activity: "working", locationId: forge, until: gameTime(0, 22) }),
    );
    actor.send(wake(gameTime(0, 22)));
    expect(actor.getSnapshot().context.value).toBe("travelling");
    actor.send(wake(gameTime(0, 23)));
    expect(actor.getSnapshot().context.value).toBe("asleep");
    expect(actor.getSnapshot().context.until).toBe(gameTime(1, 6));
    expect(seen.map((e) => e.type)).toEqual(["workDone", "activity", "moved", "activity"]);
  });

  it("asks the brain only when something concerns it, and acts on the answer", () => {
    const { actor, seen } = start(
      learn(
        input(gameTime(0, 9), { activity: "idle", locationId: square, until: gameTime(0, 10) }),
        1,
      ),
    );
    actor.send(wake(gameTime(0, 10)));
    expect(actor.getSnapshot().context.value).toBe("deciding");
    expect(seen).toEqual([{ type: "decide", reason: "concern", why: "news" }]);
    actor.send({
      type: "DECIDED",
      t: gameTime(0, 10),
      action: { action: "speak", to: ids.npc("baker"), text: "Morning." },
    });
    expect(actor.getSnapshot().context.value).toBe("conversing");
    expect(seen.slice(1)).toEqual([
      { type: "speak", to: ids.npc("baker"), text: "Morning." },
      expect.objectContaining({
        type: "activity",
        activity: "conversing",
        attendingTo: [ids.npc("baker")],
      }),
    ]);
  });

  it("falls back to its routine when the brain declines", () => {
    const { actor } = start(
      learn(
        input(gameTime(0, 9), { activity: "idle", locationId: home, until: gameTime(0, 10) }),
        2,
      ),
    );
    actor.send(wake(gameTime(0, 10)));
    actor.send({ type: "DECLINED", t: gameTime(0, 10) });
    expect(actor.getSnapshot().context.value).toBe("travelling");
  });

  it("gates on the open tasks it holds itself, not ones assigned to others or ended", () => {
    const idle = () =>
      input(gameTime(0, 9), { activity: "idle", locationId: square, until: gameTime(0, 10) });
    const reasonFor = (i: NpcInput) => {
      const { actor, seen } = start(i);
      actor.send(wake(gameTime(0, 10), { roll: 0.4 }));
      return actor.getSnapshot().context.value === "deciding" ? seen[0] : null;
    };
    expect(reasonFor(task(idle(), "t1", "smith", "active"))).toEqual({
      type: "decide",
      reason: "task",
      why: "none",
    });
    expect(reasonFor(task(idle(), "t1", "baker", "active"))).toBeNull();
    expect(reasonFor(task(idle(), "t1", "smith", "completed"))).toBeNull();
  });

  it("an elision finishes a journey at once", () => {
    const { actor, seen } = start(
      input(gameTime(0, 6), { activity: "travelling", destination: forge, until: gameTime(0, 9) }),
    );
    actor.send({ type: "ELIDE", t: gameTime(0, 7) });
    expect(actor.getSnapshot().context.value).toBe("idle");
    expect(actor.getSnapshot().context.locationId).toBe(forge);
    expect(seen[0]).toEqual({ type: "moved", from: home, to: forge });
  });

  it("property: one event object sent to several NPCs plans for each from its own context", () => {
    // The machine computes a WAKE's (or a decision's) plan once per event for its guards
    // and its assignment; that must never hand one NPC's plan to another sent the same
    // object. Twins sent copies are the reference.
    const starts = (): ReadonlyArray<NpcInput> => [
      input(gameTime(0, 0)),
      learn(
        input(gameTime(0, 5), { activity: "working", locationId: forge, until: gameTime(0, 9) }),
        1,
      ),
      input(gameTime(0, 6), { activity: "travelling", destination: square, until: gameTime(0, 8) }),
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            company: fc.nat(3),
            roll: fc.double({ min: 0, max: 0.999, noNaN: true }),
            decide: fc.constantFrom("declined", "speak", "rest"),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (steps) => {
          const shared = starts().map(start);
          const apart = starts().map(start);
          let t = gameTime(0, 6);
          for (const step of steps) {
            t = (t + 60) as GameTime;
            const w = wake(t, step);
            for (const a of shared) a.actor.send(w);
            for (const a of apart) a.actor.send({ ...w });
            const action: NpcAction =
              step.decide === "speak"
                ? { action: "speak", to: ids.npc("baker"), text: "Morning." }
                : { action: "rest", hours: 2 };
            const answer: NpcEvent =
              step.decide === "declined" ? { type: "DECLINED", t } : { type: "DECIDED", t, action };
            for (const a of shared)
              if (a.actor.getSnapshot().context.value === "deciding") a.actor.send(answer);
            for (const a of apart)
              if (a.actor.getSnapshot().context.value === "deciding") a.actor.send({ ...answer });
          }
          for (const [i, a] of shared.entries()) {
            const b = apart[i]!;
            expect(a.seen).toEqual(b.seen);
            expect(a.actor.getSnapshot().context.value).toEqual(
              b.actor.getSnapshot().context.value,
            );
            const { facts: _fa, ...ca } = a.actor.getSnapshot().context;
            const { facts: _fb, ...cb } = b.actor.getSnapshot().context;
            expect(ca).toEqual(cb);
          }
        },
      ),
    );
  });

  it("property: every wake-up leaves it in a state with a future wake-up, at a known place", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            company: fc.nat(3),
            concerns: fc.nat(1),
            roll: fc.double({ min: 0, max: 0.999, noNaN: true }),
          }),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        (wakes) => {
          const { actor } = start(input(gameTime(0, 0)));
          for (const w of wakes) {
            const ctx = actor.getSnapshot().context;
            const t = (ctx.until ?? ctx.t + 60) as GameTime;
            // What it learnt since it last changed activity (the engine's fold resets it).
            ctx.facts.concerns = w.concerns;
            actor.send(wake(t, w));
            if (actor.getSnapshot().context.value === "deciding")
              actor.send({ type: "DECLINED", t });
            const next = actor.getSnapshot().context;
            expect(next.until).not.toBeNull();
            expect(next.until!).toBeGreaterThan(t);
            expect([home, forge]).toContain(next.locationId);
          }
        },
      ),
    );
  });
});

describe("the events a state does not hear", () => {
  // What each state answers, as the lifecycle is drawn (EXPIRE, CAP and PLAN: every state).
  const heard: Record<NpcStateName, ReadonlyArray<NpcEvent["type"]>> = {
    asleep: ["WAKE"],
    idle: ["WAKE", "CONVERSE", "DEBATE"],
    travelling: ["WAKE", "ELIDE"],
    working: ["WAKE", "ELIDE", "CONVERSE", "DEBATE"],
    conversing: ["WAKE", "ELIDE", "DEBATE"],
    debating: ["WAKE", "ELIDE"],
    deciding: ["DECIDED", "DECLINED", "CONVERSE", "DEBATE"],
  };
  const t = gameTime(0, 12);
  const events: ReadonlyArray<NpcEvent> = [
    wake(t, { company: 2, roll: 0 }),
    { type: "DECIDED", t, action: { action: "rest", hours: 1 } },
    { type: "DECLINED", t },
    { type: "CONVERSE", t, with: [ids.npc("ada")], until: gameTime(0, 13) },
    { type: "DEBATE", t, with: [ids.npc("ada")], until: gameTime(0, 13) },
    { type: "ELIDE", t },
  ];
  for (const [value, hears] of Object.entries(heard) as Array<
    [NpcStateName, ReadonlyArray<string>]
  >) {
    it(`${value}: change nothing and emit nothing; the others move it`, () => {
      const i = input(gameTime(0, 11), {
        activity: value === "deciding" ? "idle" : value,
        destination: value === "travelling" ? forge : null,
        until: gameTime(0, 12),
      });
      const state = { ...npcStateOf(i), value };
      for (const e of events) {
        const out: Array<NpcEmitted> = [];
        const next = npcTransition(state, e, (x) => out.push(x));
        if (hears.includes(e.type)) {
          expect(out.length, `${value} hears ${e.type}`).toBeGreaterThan(0);
          expect(next).not.toBe(state);
        } else {
          expect(out, `${value} does not hear ${e.type}`).toEqual([]);
          expect(next).toBe(state);
        }
      }
    });
  }
});
