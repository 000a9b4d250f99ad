/**
 * The agenda's pure rules: a significant wake-up takes the next planned step only while
 * the plan is under a day old, every task it works on is still the NPC's to work on and the
 * step still holds where it is; steps are taken in order, each once, and an invalid one
 * is never taken.
 */
import {
  AGENDA_MAX_STEPS,
  type Agenda,
  agendaChanges,
  agendaTurn,
  liveSteps,
  plannedSteps,
  type StepScene,
  stepHolds,
  tasksStand,
} from "@hearsay/actors";
import { type AgendaStep, type GameTime, gameTime, ids } from "@hearsay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const self = ids.npc("smith");
const people = ["ana", "bo", "cy"].map(ids.npc);
const places = ["forge", "square", "quay"].map(ids.location);
const tasks = ["t1", "t2"].map(ids.task);

const arbStep: fc.Arbitrary<AgendaStep> = fc.oneof(
  fc.record({
    action: fc.constant("speak" as const),
    to: fc.constantFrom(self, ...people),
    text: fc.constant("A word."),
  }),
  fc.record({
    action: fc.constant("move" as const),
    to: fc.constantFrom(...places),
    reason: fc.constant("errand"),
  }),
  fc.record({
    action: fc.constant("work" as const),
    taskId: fc.constantFrom(...tasks),
    note: fc.constant("work"),
  }),
  fc.record({ action: fc.constant("rest" as const), hours: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    action: fc.constant("propose_task" as const),
    title: fc.constant("A chore"),
    description: fc.constant("Do it."),
    assignee: fc.constantFrom(null, self, ...people),
    deadlineDays: fc.integer({ min: 1, max: 60 }),
  }),
);

/** Who it sees, where it can go, and each task held, completed or gone: drawn for each case. */
const arbScene: fc.Arbitrary<StepScene> = fc
  .record({
    seen: fc.subarray(people),
    reach: fc.subarray(places),
    tasks: fc.array(fc.constantFrom("held", "done", "gone"), {
      minLength: tasks.length,
      maxLength: tasks.length,
    }),
  })
  .map(({ seen, reach, tasks: states }) => ({
    self,
    locationId: places[0]!,
    canReach: (to) => reach.includes(to),
    sees: (npc) => seen.includes(npc),
    holds: (task) => states[tasks.indexOf(task)] === "held",
    done: (task) => states[tasks.indexOf(task)] === "done",
  }));

/** A scene where every step holds: anyone is there, anywhere is reachable, nothing is done. */
const open: StepScene = {
  self,
  locationId: places[0]!,
  canReach: () => true,
  sees: () => true,
  holds: () => true,
  done: () => false,
};

const WAKE_HOUR = 6;
const planned = (steps: ReadonlyArray<AgendaStep>, at: GameTime): Agenda => ({
  steps,
  plannedAt: at,
});

describe("agenda", () => {
  it("property: the step taken is the first that holds, those before it passed over, the rest kept in order; none holding asks", () => {
    fc.assert(
      fc.property(fc.array(arbStep, { minLength: 1, maxLength: 5 }), arbScene, (steps, scene) => {
        const at = gameTime(2, 9);
        const turn = agendaTurn(planned(steps, at), gameTime(2, 11), scene);
        const first = steps.findIndex((step) => stepHolds(step, scene));
        if (!tasksStand(steps, scene)) expect(turn).toEqual({ kind: "ask", why: "tasks" });
        else if (first < 0) expect(turn).toEqual({ kind: "ask", why: "invalid" });
        else {
          expect(turn).toEqual({ kind: "step", step: steps[first], rest: steps.slice(first + 1) });
          // Nothing before it held: a step that holds is never passed over.
          expect(steps.slice(0, first).some((step) => stepHolds(step, scene))).toBe(false);
        }
      }),
    );
  });

  it("property: a plan's tasks stand exactly while every task a step of it works on is held or completed — whatever else it holds", () => {
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 5 }), arbScene, (steps, scene) => {
        const named = steps.flatMap((s) => (s.action === "work" ? [s.taskId] : []));
        expect(tasksStand(steps, scene)).toBe(
          named.every((task) => scene.holds(task) || scene.done(task)),
        );
        // Holding more tasks (a new one proposed to it) never sets a plan aside.
        expect(tasksStand(steps, { ...scene, holds: () => true })).toBe(true);
      }),
    );
  });

  it("property: where every step holds, each wake-up takes the next until none is left, then asks", () => {
    fc.assert(
      fc.property(
        fc
          .array(arbStep, { minLength: 0, maxLength: 3 })
          .filter((s) => s.every((x) => stepHolds(x, open))),
        fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 4, maxLength: 4 }),
        (steps, gaps) => {
          const at = gameTime(1, 7);
          let agenda: Agenda | null = steps.length === 0 ? null : planned(steps, at);
          let t = at as number;
          const taken: Array<AgendaStep> = [];
          for (const gap of gaps) {
            t += gap;
            const turn = agendaTurn(agenda, t as GameTime, open);
            if (turn.kind === "ask") {
              expect(turn.why).toBe("none");
              break;
            }
            taken.push(turn.step);
            agenda = turn.rest.length === 0 ? null : { ...agenda!, steps: turn.rest };
          }
          expect(taken).toEqual(steps);
        },
      ),
    );
  });

  it("a plan made in the evening carries into the next morning, and is stale by the next evening", () => {
    const evening = planned([{ action: "rest", hours: 1 }], gameTime(3, 20));
    expect(liveSteps(evening, gameTime(4, WAKE_HOUR))).toHaveLength(1);
    expect(liveSteps(evening, gameTime(4, 20))).toEqual([]);
  });

  it("property: a plan holds for a day, a night included — stale from 24 hours after it was made", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 29 * 24 * 60 }),
        fc.integer({ min: 0, max: 48 * 60 }),
        (plannedAt, after) => {
          const agenda = planned([{ action: "rest", hours: 1 }], plannedAt as GameTime);
          const t = (plannedAt + after) as GameTime;
          const live = liveSteps(agenda, t);
          expect(live.length === 0).toBe(after >= 24 * 60);
          const turn = agendaTurn(agenda, t, open);
          expect(turn.kind === "ask" && turn.why === "stale").toBe(after >= 24 * 60);
        },
      ),
    );
  });

  it("asks when a task a later step works on ended other than completed, though the next step holds", () => {
    const at = gameTime(1, 8);
    const scene = (held: ReadonlyArray<string>, done: ReadonlyArray<string> = []): StepScene => ({
      self,
      locationId: places[0]!,
      canReach: () => true,
      sees: () => true,
      holds: (task) => held.includes(task),
      done: (task) => done.includes(task),
    });
    const agenda = planned(
      [
        { action: "rest", hours: 1 },
        { action: "work", taskId: tasks[0]!, note: "n" },
      ],
      at,
    );
    expect(agendaTurn(agenda, gameTime(1, 9), scene([]))).toEqual({ kind: "ask", why: "tasks" });
    expect(agendaTurn(agenda, gameTime(1, 9), scene([tasks[0]!])).kind).toBe("step");
    expect(agendaTurn(agenda, gameTime(1, 9), scene([tasks[0]!, tasks[1]!])).kind).toBe("step");
    // Completed by its own work: the plan goes on.
    expect(agendaTurn(agenda, gameTime(1, 9), scene([], [tasks[0]!])).kind).toBe("step");
    expect(agendaTurn(null, gameTime(1, 9), scene([]))).toEqual({ kind: "ask", why: "none" });
  });

  it("judges each kind of step by what it names", () => {
    const scene: StepScene = {
      self,
      locationId: places[0]!,
      canReach: (to) => to === places[1],
      sees: (npc) => npc === people[0],
      holds: (task) => task === tasks[0],
      done: () => false,
    };
    const holds = (step: AgendaStep) => stepHolds(step, scene);
    expect(holds({ action: "speak", to: people[0]!, text: "hi" })).toBe(true);
    expect(holds({ action: "speak", to: people[1]!, text: "hi" })).toBe(false);
    expect(holds({ action: "speak", to: self, text: "hi" })).toBe(false);
    expect(holds({ action: "move", to: places[1]!, reason: "r" })).toBe(true);
    expect(holds({ action: "move", to: places[2]!, reason: "r" })).toBe(false);
    expect(holds({ action: "work", taskId: tasks[0]!, note: "n" })).toBe(true);
    expect(holds({ action: "work", taskId: tasks[1]!, note: "n" })).toBe(false);
    expect(holds({ action: "rest", hours: 2 })).toBe(true);
    const propose = (assignee: typeof self | null) =>
      holds({ action: "propose_task", title: "t", description: "d", assignee, deadlineDays: 3 });
    expect([propose(null), propose(self), propose(people[0]!), propose(people[1]!)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it("property: an answer keeps at most the first few steps, and changes the agenda only if one is involved", () => {
    fc.assert(
      fc.property(
        fc.option(fc.array(arbStep, { maxLength: 6 }), { nil: undefined }),
        fc.boolean(),
        (steps, had) => {
          const kept = plannedSteps(steps);
          expect(kept).toEqual((steps ?? []).slice(0, AGENDA_MAX_STEPS));
          const current = had ? planned([{ action: "rest", hours: 1 }], gameTime(0, 8)) : null;
          expect(agendaChanges(current, kept)).toBe(had || kept.length > 0);
        },
      ),
    );
  });
});
