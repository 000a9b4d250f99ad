/**
 * The npc machine with an agenda: an answer's plan is emitted for the log (and folded
 * back into the actor's facts, as the engine does); a wake-up the dice call significant
 * takes the next step instead of asking the brain; news that matters to it, a step that
 * no longer holds or a spent plan asks again; and an NPC that never plans emits nothing new.
 */
import {
  emptyNpcFacts,
  foldNpcFacts,
  NEWS_QUIET,
  type NpcAction,
  type NpcEmitted,
  type NpcEvent,
  type NpcInput,
  npcMachine,
} from "@hearsay/actors";
import {
  type AgendaStep,
  type Event,
  type GameTime,
  gameTime,
  ids,
  makeEvent,
  type NpcId,
} from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";

const smith = ids.npc("smith");
const baker = ids.npc("baker");
const home = ids.location("home");
const forge = ids.location("forge");
const square = ids.location("square");
const routes = { travelMinutes: (from: string, to: string) => (from === to ? 0 : 30) };

let n = 0;
const event = (type: string, t: GameTime, payload: object): Event =>
  makeEvent(type as never, { id: ids.event(`x${++n}`), t, payload } as never) as Event;

/** An idle smith at the square, its events folded back into its facts as the engine does. */
const start = () => {
  const facts = emptyNpcFacts(smith);
  const input: NpcInput = {
    npcId: smith,
    schedule: { wakeHour: 6, sleepHour: 22, home, workplace: forge },
    routes,
    tickMinutes: 60,
    t: gameTime(1, 9),
    state: {
      activity: "idle",
      locationId: square,
      destination: null,
      until: gameTime(1, 10),
      taskId: null,
      attendingTo: [],
    },
    facts,
  };
  const actor = createActor(npcMachine, { input });
  const seen: Array<NpcEmitted> = [];
  actor.on("*", (e) => seen.push(e as NpcEmitted));
  actor.start();
  const send = (e: NpcEvent): Array<NpcEmitted> => {
    const from = seen.length;
    actor.send(e);
    const out = seen.slice(from);
    for (const o of out) {
      if (o.type === "agenda")
        foldNpcFacts(
          facts,
          event("NpcAgendaChanged", e.t, { npcId: smith, steps: o.steps, plannedAt: o.plannedAt }),
        );
      if (o.type === "activity")
        foldNpcFacts(facts, event("NpcActivityChanged", e.t, { npcId: smith, ...o, holding: [] }));
    }
    return out;
  };
  return { actor, facts, send };
};

/** A wake-up the dice call significant: company, and a low roll. */
const diceWake = (t: GameTime, sees: (npc: NpcId) => boolean = () => true): NpcEvent => ({
  type: "WAKE",
  t,
  company: 1,
  roll: 0.1,
  sees,
});
const learn = (facts: ReturnType<typeof start>["facts"], via: "witnessed" | "participant") =>
  foldNpcFacts(
    facts,
    event("KnowledgeGained", gameTime(1, 11), {
      npcId: smith,
      itemKind: "world_event",
      itemId: "w1",
      via,
      fromNpcId: null,
      confidence: 1,
    }),
  );

const plan: ReadonlyArray<AgendaStep> = [
  { action: "speak", to: baker, text: "The oven is hot." },
  { action: "move", to: forge, reason: "Back to the forge." },
  { action: "rest", hours: 1 },
];
const decided = (t: GameTime, agenda?: ReadonlyArray<AgendaStep>): NpcEvent => ({
  type: "DECIDED",
  t,
  action: { action: "rest", hours: 1, ...(agenda ? { agenda } : {}) } as NpcAction,
});
/** An NPC that answered at 10:00 with a plan of three rests (a plan news may set aside). */
const startResting = () => {
  const started = start();
  started.send(diceWake(gameTime(1, 10)));
  started.send(
    decided(
      gameTime(1, 10),
      [1, 2, 3].map((hours) => ({ action: "rest" as const, hours })),
    ),
  );
  return started;
};

describe("npc machine agenda", () => {
  it("emits an answer's plan and takes its steps at later significant wake-ups, asking only when it is spent", () => {
    const { actor, facts, send } = start();
    expect(send(diceWake(gameTime(1, 10)))).toEqual([
      { type: "decide", reason: "company", why: "none" },
    ]);
    const out = send(decided(gameTime(1, 10), plan));
    expect(out).toContainEqual({ type: "agenda", steps: plan, plannedAt: gameTime(1, 10) });
    expect(facts.agenda?.steps).toEqual(plan);

    // The first step: a line to the baker, no call.
    const first = send(diceWake(gameTime(1, 11)));
    expect(first.map((e) => e.type)).toEqual(["speak", "agenda", "activity"]);
    expect(first[0]).toMatchObject({ type: "speak", to: baker, text: "The oven is hot." });
    expect(actor.getSnapshot().context.value).toBe("conversing");
    expect(facts.agenda?.steps).toEqual(plan.slice(1));

    // The second: off to the forge; the third: a rest, and the plan is spent.
    expect(send(diceWake(gameTime(1, 12))).map((e) => e.type)).toEqual(["agenda", "activity"]);
    expect(actor.getSnapshot().context.value).toBe("travelling");
    send(diceWake(gameTime(1, 12, 30)));
    expect(actor.getSnapshot().context.value).toBe("idle");
    expect(facts.agenda).toBeNull();
    expect(send(diceWake(gameTime(1, 14)))).toEqual([
      { type: "decide", reason: "company", why: "none" },
    ]);
  });

  it("asks again on news, but not for what it took part in", () => {
    const { facts, send } = start();
    send(diceWake(gameTime(1, 10)));
    send(
      decided(gameTime(1, 10), [
        { action: "rest", hours: 1 },
        { action: "rest", hours: 2 },
      ]),
    );
    learn(facts, "participant");
    // Learnt only of what it was part of: a concern, and the plan's next step answers it.
    expect(
      send({ type: "WAKE", t: gameTime(1, 11), company: 0, roll: 0.99 }).map((e) => e.type),
    ).toEqual(["agenda", "activity"]);
    learn(facts, "witnessed");
    expect(send({ type: "WAKE", t: gameTime(1, 13), company: 0, roll: 0.99 })).toEqual([
      { type: "decide", reason: "concern", why: "news" },
    ]);
  });

  it("news while a plan is under NEWS_QUIET old waits: the plan goes on; news once it is that old asks", () => {
    const { facts, send } = startResting();
    const quiet = { type: "WAKE" as const, company: 0, roll: 0.99 };
    learn(facts, "witnessed");
    const young = (gameTime(1, 10) + NEWS_QUIET - 1) as GameTime;
    expect(send({ ...quiet, t: young }).map((e) => e.type)).toEqual(["agenda", "activity"]);
    learn(facts, "witnessed");
    expect(send({ ...quiet, t: (young + 1) as GameTime })).toEqual([
      { type: "decide", reason: "concern", why: "news" },
    ]);
  });

  it("news that does not matter to it waits: the plan goes on; news of someone it regards strongly, or important news, asks", () => {
    const { facts, send } = startResting();
    const happenings = new Map([
      ["done", { importance: 0.5, participants: [ids.npc("stranger")] }],
      ["friend", { importance: 0.5, participants: [baker] }],
      ["fire", { importance: 0.9, participants: [] }],
    ]);
    const hear = (itemId: string, t: GameTime) => {
      foldNpcFacts(
        facts,
        event("KnowledgeGained", t, {
          npcId: smith,
          itemKind: "world_event",
          itemId,
          via: "witnessed",
          fromNpcId: null,
          confidence: 1,
        }),
      );
      return send({
        type: "WAKE",
        t,
        company: 0,
        roll: 0.99,
        happening: (id) => happenings.get(id) ?? null,
      });
    };
    foldNpcFacts(
      facts,
      event("RelationshipChanged", gameTime(1, 10), {
        fromId: smith,
        toId: baker,
        trust: 0.9,
        respect: 0.5,
        suspicion: 0,
        summary: "An old friend.",
        reason: "seeded",
      }),
    );
    // (Hours after it planned: news may set the plan aside.) A stranger finished a task
    // where it stood: the next planned step, no call.
    expect(hear("done", gameTime(1, 13)).map((e) => e.type)).toEqual(["agenda", "activity"]);
    // The same of its friend: it asks.
    expect(hear("friend", gameTime(1, 14))).toEqual([
      { type: "decide", reason: "concern", why: "news" },
    ]);
    send({ type: "DECLINED", t: gameTime(1, 14) });
    // Back to its routine (off to the forge), then word of a fire: it asks on arriving.
    expect(hear("fire", gameTime(1, 16))).toContainEqual({
      type: "decide",
      reason: "concern",
      why: "news",
    });
  });

  it("passes over a step that no longer holds for the next that does; asks when none is left that holds", () => {
    const { actor, facts, send } = start();
    send(diceWake(gameTime(1, 10)));
    send(decided(gameTime(1, 10), plan));
    // The baker is gone: off to the forge instead, no call; the rest stays planned.
    expect(send(diceWake(gameTime(1, 11), () => false)).map((e) => e.type)).toEqual([
      "agenda",
      "activity",
    ]);
    expect(actor.getSnapshot().context.value).toBe("travelling");
    expect(facts.agenda?.steps).toEqual(plan.slice(2));
    // A plan of one line to the baker, who is gone: nothing to take, it asks on arriving.
    send({ type: "PLAN", t: gameTime(1, 12), steps: plan.slice(0, 1) });
    expect(send(diceWake(gameTime(1, 13), () => false))).toEqual([
      { type: "moved", from: square, to: forge },
      { type: "decide", reason: "company", why: "invalid" },
    ]);
  });

  it("a task proposed to it only updates its facts; a task its plan works on ending asks again", () => {
    const { facts, send } = start();
    const propose = (taskId: string, t: GameTime) =>
      foldNpcFacts(
        facts,
        event("TaskProposed", t, {
          taskId: ids.task(taskId),
          title: taskId,
          description: "",
          proposedBy: baker,
          assignee: smith,
          locationId: null,
          factionId: null,
          deadline: null,
        }),
      );
    propose("t1", gameTime(1, 9));
    send(diceWake(gameTime(1, 10)));
    send(
      decided(gameTime(1, 10), [
        { action: "rest", hours: 1 },
        { action: "work", taskId: ids.task("t1"), note: "At it." },
        { action: "rest", hours: 1 },
      ]),
    );
    // The baker sets it another chore: the plan goes on, no call.
    propose("t2", gameTime(1, 10, 30));
    expect(send(diceWake(gameTime(1, 11))).map((e) => e.type)).toEqual(["agenda", "activity"]);
    // The chore its next step works on is cancelled: it asks.
    foldNpcFacts(
      facts,
      event("TaskStatusChanged", gameTime(1, 11, 30), {
        taskId: ids.task("t1"),
        from: "proposed",
        to: "cancelled",
        reason: "withdrawn",
        by: baker,
      }),
    );
    expect(send(diceWake(gameTime(1, 13)))).toEqual([
      { type: "decide", reason: "task", why: "tasks" },
    ]);
  });

  it("a reply's plan replaces the agenda; an answer with none clears it; one that never plans emits nothing", () => {
    const { facts, send } = start();
    send(diceWake(gameTime(1, 10)));
    expect(send(decided(gameTime(1, 10))).some((e) => e.type === "agenda")).toBe(false);
    expect(send({ type: "PLAN", t: gameTime(1, 10), steps: [] })).toEqual([]);
    expect(send({ type: "PLAN", t: gameTime(1, 11), steps: plan.slice(2) })).toEqual([
      { type: "agenda", steps: plan.slice(2), plannedAt: gameTime(1, 11) },
    ]);
    expect(facts.agenda?.steps).toEqual(plan.slice(2));
    send(diceWake(gameTime(1, 12), () => true));
    send({ type: "PLAN", t: gameTime(1, 13), steps: plan });
    send(diceWake(gameTime(1, 14)));
    expect(facts.agenda?.steps).toEqual(plan.slice(1));
    expect(send({ type: "PLAN", t: gameTime(1, 15), steps: [] })).toEqual([
      { type: "agenda", steps: [], plannedAt: gameTime(1, 15) },
    ]);
    expect(facts.agenda).toBeNull();
  });

  it("property: over any dice, a plan's steps are taken in order, each once, and never without a plan", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ roll: fc.double({ min: 0, max: 0.99, noNaN: true }), company: fc.nat(3) }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        (wakes) => {
          const { actor, send } = start();
          send(diceWake(gameTime(1, 8)));
          const rests: ReadonlyArray<AgendaStep> = [1, 2, 3].map((h) => ({
            action: "rest",
            hours: h,
          }));
          send(decided(gameTime(1, 8), rests));
          let t = gameTime(1, 8) as number;
          const taken: Array<number> = [];
          for (const w of wakes) {
            const until = actor.getSnapshot().context.until ?? t + 60;
            t = Math.max(t + 60, until);
            if (actor.getSnapshot().context.value === "deciding") send(decided(t as GameTime));
            const out = send({ type: "WAKE", t: t as GameTime, ...w, sees: () => true });
            const note = out.find((e) => e.type === "agenda");
            if (note?.type === "agenda") taken.push(note.steps.length);
            if (out.some((e) => e.type === "decide")) expect(note).toBeUndefined();
          }
          // Each step taken leaves one fewer: in order, and none twice.
          expect(taken).toEqual([2, 1, 0].slice(0, taken.length));
        },
      ),
    );
  });
});
