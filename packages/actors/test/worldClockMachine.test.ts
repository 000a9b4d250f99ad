import {
  childrenHear,
  emptyNpcFacts,
  type WorldClockEmitted,
  worldClockMachine,
} from "@hearsay/actors";
import { gameTime, ids } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";

const run = (endDay: number, tickMinutes: number) => {
  const actor = createActor(worldClockMachine, {
    input: { t: gameTime(0), tickMinutes, endAt: gameTime(endDay) },
  });
  const seen: Array<WorldClockEmitted> = [];
  actor.on("*", (e) => seen.push(e as WorldClockEmitted));
  actor.start();
  return { actor, seen };
};

describe("world clock", () => {
  it("ticks hourly and finishes exactly at the end", () => {
    const { actor, seen } = run(1, 60);
    while (actor.getSnapshot().status === "active") actor.send({ type: "ADVANCE" });
    expect(seen).toHaveLength(24);
    expect(seen[0]).toEqual({ type: "tick", from: 0, to: 60 });
    expect(actor.getSnapshot().context.t).toBe(gameTime(1));
  });

  it("refuses to advance while paused", () => {
    const { actor, seen } = run(1, 60);
    actor.send({ type: "PAUSE" });
    actor.send({ type: "ADVANCE" });
    expect(seen).toEqual([]);
    actor.send({ type: "RESUME" });
    actor.send({ type: "ADVANCE" });
    expect(seen).toHaveLength(1);
  });

  it("a jump starts a skip, hands out its steps tick by tick, then runs on from its end", () => {
    const { actor, seen } = run(10, 60 * 12);
    actor.send({ type: "SKIP", mode: "jump", days: 2 });
    expect(actor.getSnapshot().value).toBe("skipping");
    actor.send({ type: "ADVANCE" });
    for (let i = 0; i < 5; i++) actor.send({ type: "STEP" });
    expect(seen).toEqual([
      { type: "skip", mode: "jump", from: 0, to: gameTime(2) },
      { type: "step", from: 0, to: gameTime(0, 12) },
      { type: "step", from: gameTime(0, 12), to: gameTime(1) },
      { type: "step", from: gameTime(1), to: gameTime(1, 12) },
      { type: "step", from: gameTime(1, 12), to: gameTime(2) },
    ]);
    actor.send({ type: "SKIP_DONE" });
    actor.send({ type: "ADVANCE" });
    expect(actor.getSnapshot().context.t).toBe(gameTime(2, 12));
  });

  it("a planned skip starts on the ADVANCE at its time, in place of that tick", () => {
    const actor = createActor(worldClockMachine, {
      input: {
        t: gameTime(0),
        tickMinutes: 60,
        endAt: gameTime(5),
        skips: [{ at: gameTime(0, 2), mode: "jump", days: 2 }],
      },
    });
    const seen: Array<WorldClockEmitted> = [];
    actor.on("*", (e) => seen.push(e as WorldClockEmitted));
    actor.start();
    actor.send({ type: "ADVANCE" });
    actor.send({ type: "ADVANCE" });
    actor.send({ type: "ADVANCE" });
    expect(seen.map((e) => e.type)).toEqual(["tick", "tick", "skip"]);
    expect(seen[2]).toEqual({
      type: "skip",
      mode: "jump",
      from: gameTime(0, 2),
      to: gameTime(2, 2),
    });
    while (actor.getSnapshot().context.t < gameTime(2, 2)) actor.send({ type: "STEP" });
    actor.send({ type: "SKIP_DONE" });
    actor.send({ type: "ADVANCE" });
    expect(seen.at(-1)).toEqual({ type: "tick", from: gameTime(2, 2), to: gameTime(2, 3) });
  });

  it("a planned elision with nobody awake moves nothing: the clock ticks instead", () => {
    const actor = createActor(worldClockMachine, {
      input: {
        t: gameTime(0),
        tickMinutes: 60,
        endAt: gameTime(1),
        skips: [{ at: gameTime(0), mode: "elision" }],
      },
    });
    const seen: Array<WorldClockEmitted> = [];
    actor.on("*", (e) => seen.push(e as WorldClockEmitted));
    actor.start();
    actor.send({ type: "ADVANCE" });
    expect(seen).toEqual([{ type: "tick", from: 0, to: 60 }]);
  });

  it("the last tick still answers what is due, and its NPC actors hear nothing", () => {
    const { actor, seen } = run(1, 60 * 12);
    actor.send({ type: "ADVANCE" });
    expect(childrenHear(actor.getSnapshot())).toBe(true);
    actor.send({ type: "ADVANCE" });
    expect(actor.getSnapshot().value).toBe("ending");
    expect(childrenHear(actor.getSnapshot())).toBe(false);
    actor.send({ type: "WAKES_DUE" });
    expect(seen.at(-1)).toEqual({ type: "wakes", due: [] });
    actor.send({ type: "ADVANCE" });
    expect(actor.getSnapshot().status).toBe("done");
    expect(seen.filter((e) => e.type === "tick")).toHaveLength(2);
  });

  it("property: any tick length ends at endAt with time strictly increasing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 3 }),
        (tick, days) => {
          const { actor, seen } = run(days, tick);
          while (actor.getSnapshot().status === "active") actor.send({ type: "ADVANCE" });
          let last = 0;
          for (const e of seen) {
            if (e.type !== "tick") throw new Error(`unexpected ${e.type}`);
            expect(e.from).toBe(last);
            expect(e.to).toBeGreaterThan(e.from);
            last = e.to;
          }
          expect(last).toBe(gameTime(days));
        },
      ),
    );
  });
});

describe("the run's actor system", () => {
  it("spawns NPC and debate actors as children of the clock, in one system", () => {
    const { actor } = run(1, 60);
    const input = {
      npcId: ids.npc("ada"),
      schedule: { wakeHour: 6, sleepHour: 22, home: ids.location("home"), workplace: null },
      routes: { travelMinutes: () => 30 },
      tickMinutes: 60,
      t: gameTime(0),
      state: {
        activity: "asleep" as const,
        locationId: ids.location("home"),
        destination: null,
        until: gameTime(0, 6),
        taskId: null,
        attendingTo: [],
      },
      facts: emptyNpcFacts(ids.npc("smith")),
    };
    actor.send({ type: "SPAWN_NPC", input });
    actor.send({
      type: "SPAWN_DEBATE",
      input: { debateId: "d1", topic: "t", rounds: 1, minParticipants: 2 },
    });
    const children = actor.getSnapshot().children as Record<
      string,
      { system: unknown; getSnapshot(): { context: { value: unknown } } }
    >;
    expect(Object.keys(children).sort()).toEqual(["ada", "debate:d1"]);
    expect(children.ada!.getSnapshot().context.value).toBe("asleep");
    expect(children.ada!.system).toBe(actor.system);
    actor.send({ type: "STOP_CHILD", id: "debate:d1" });
    expect(Object.keys(actor.getSnapshot().children)).toEqual(["ada"]);
  });
});
