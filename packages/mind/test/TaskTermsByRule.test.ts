/**
 * The scripted brain's rules for a task's terms: each fires in its situation (through the
 * whole `act` answer, so it also passes the answer's id checks), none fires without it,
 * and the reasons they give are clean sentences.
 */
import { type GameTime, gameTime, ids, Prng } from "@hearsay/core";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActInput, OwnTask } from "../src/purposes/ActPurpose.ts";
import { ScriptedBrain } from "../src/ScriptedBrain.ts";
import { OVERLOADED, taskTermsByRule, termsReasons } from "../src/scripted/taskTermsByRule.ts";
import { validateAnswer } from "../src/validateAnswer.ts";

const brain = ScriptedBrain.make();
const ana = ids.npc("ana");
const bo = ids.npc("bo");
const forge = ids.location("forge");
const inn = ids.location("inn");
const quay = ids.location("quay");
const T = gameTime(3, 10);

const base: ActInput = {
  self: { id: ana, name: "Ana", role: "smith", factionId: null, traits: [], speechStyle: null },
  location: { id: forge, name: "the Forge", tags: ["workshop"] },
  reachable: [{ id: inn, name: "the Lantern Inn", tags: ["tavern"] }],
  present: [{ id: bo, name: "Bo", role: "guard", factionId: null, regard: 0.5 }],
  tasks: [],
  home: null,
  workplace: forge,
};

const task = (id: string, over: Partial<OwnTask> = {}): OwnTask => ({
  id: ids.task(id),
  title: "Forge hinges",
  status: "active",
  locationId: forge,
  deadline: (T + 5 * 1440) as GameTime,
  proposedBy: bo,
  assignee: ana,
  sessions: 0,
  deadlineMoves: 0,
  ...over,
});

const seeds = Array.from({ length: 200 }, (_, i) => i);

const answers = (input: ActInput) =>
  seeds.map((seed) => {
    const output = brain.decideSync({
      purpose: "act",
      npcId: ana,
      t: T,
      seed,
      dossier: null,
      input,
    }).output;
    expect(Result.isSuccess(validateAnswer("act", input, output))).toBe(true);
    return output;
  });

const count = (input: ActInput, action: string) =>
  answers(input).filter((a) => a.action === action).length;

describe("the scripted brain's rules for a task's terms", () => {
  it("asks for more time on a task under way about to lapse, once, only with the other party here", () => {
    const due = task("t1", { sessions: 1, deadline: (T + 600) as GameTime });
    expect(count({ ...base, tasks: [due] }, "move_deadline")).toBeGreaterThan(100);
    expect(count({ ...base, tasks: [{ ...due, deadlineMoves: 1 }] }, "move_deadline")).toBe(0);
    expect(count({ ...base, tasks: [{ ...due, sessions: 0 }] }, "move_deadline")).toBe(0);
    expect(count({ ...base, present: [], tasks: [due] }, "move_deadline")).toBe(0);
    // Its own task needs no one else's word.
    const own = { ...due, proposedBy: ana };
    expect(count({ ...base, present: [], tasks: [own] }, "move_deadline")).toBeGreaterThan(100);
  });

  it("gives up the task due last when it holds more than it can carry", () => {
    const many = Array.from({ length: OVERLOADED + 1 }, (_, i) =>
      task(`t${i}`, { deadline: (T + (i + 2) * 1440) as GameTime }),
    );
    const out = answers({ ...base, tasks: many });
    const given = out.filter((a) => a.action === "give_up");
    expect(given.length).toBeGreaterThan(50);
    for (const a of given) expect(a).toMatchObject({ taskId: ids.task(`t${OVERLOADED}`) });
    expect(count({ ...base, tasks: many.slice(1) }, "give_up")).toBe(0);
  });

  it("gives up a task not yet started that lies where it cannot go", () => {
    const far = task("t1", { status: "proposed", locationId: quay });
    expect(count({ ...base, tasks: [far] }, "give_up")).toBeGreaterThan(20);
    expect(count({ ...base, tasks: [{ ...far, locationId: inn }] }, "give_up")).toBe(0);
    expect(count({ ...base, tasks: [{ ...far, status: "active" }] }, "give_up")).toBe(0);
  });

  it("withdraws a task it proposed that nobody took up, with little time left", () => {
    const unwanted = task("t1", {
      status: "proposed",
      proposedBy: ana,
      assignee: null,
      deadline: (T + 600) as GameTime,
    });
    expect(count({ ...base, tasks: [unwanted] }, "withdraw")).toBeGreaterThan(50);
    const early = { ...unwanted, deadline: (T + 5 * 1440) as GameTime };
    expect(count({ ...base, tasks: [early] }, "withdraw")).toBe(0);
    const taken = { ...unwanted, assignee: bo, status: "active" as const };
    expect(count({ ...base, tasks: [taken] }, "withdraw")).toBe(0);
  });

  it("property: with nothing to renegotiate it draws nothing from the stream", () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const calm = { ...base, tasks: [task("t1")] };
        const prng = Prng.derive(seed, "x");
        expect(taskTermsByRule(calm, T, prng)).toBeNull();
        expect(prng.float()).toBe(Prng.derive(seed, "x").float());
      }),
    );
  });

  it("gives reasons as whole, plain sentences (the account of the task names it)", () => {
    for (const list of Object.values(termsReasons))
      for (const reason of list) {
        expect(reason).toMatch(/^[A-Z][^"{}]*[.!?]$/);
        expect(reason.includes("  ")).toBe(false);
      }
  });
});
