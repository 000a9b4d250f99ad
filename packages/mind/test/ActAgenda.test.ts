/**
 * An `act` answer's agenda: the steps it plans decode with the answer (and an answer
 * recorded before agendas, with none, still decodes); every id a step names must be one
 * the input offered, or the whole answer is refused; and the scripted brain plans its
 * steps by its own rules, deterministically, naming only what the input offers.
 */
import { AGENDA_MAX_STEPS, ids } from "@hearsay/core";
import {
  type ActInput,
  type ActOutput,
  decodeOutput,
  ScriptedBrain,
  UnknownId,
  validateAnswer,
} from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbActInput, runs } from "./arbitraries.ts";

const input: ActInput = {
  self: {
    id: ids.npc("ana"),
    name: "Ana",
    role: "smith",
    factionId: null,
    traits: [],
    speechStyle: null,
  },
  location: { id: ids.location("inn"), name: "the Inn", tags: ["tavern"] },
  reachable: [{ id: ids.location("quay"), name: "the Quay", tags: [] }],
  present: [{ id: ids.npc("bo"), name: "Bo", role: "guard", factionId: null, regard: 0.2 }],
  tasks: [],
  home: ids.location("cottage"),
  workplace: ids.location("forge"),
};

describe("act agenda", () => {
  it("decodes an answer with a plan, and one recorded before plans existed", () => {
    const old = { action: "rest", hours: 2 };
    const decoded = decodeOutput("act", old);
    expect(Result.isSuccess(decoded) && decoded.success.agenda).toBe(undefined);
    const planned = {
      action: "rest",
      hours: 1,
      agenda: [
        { action: "speak", to: "bo", text: "Evening, Bo." },
        { action: "move", to: "forge", reason: "work" },
        { action: "rest", hours: 2 },
      ],
    };
    expect(Result.isSuccess(decodeOutput("act", planned))).toBe(true);
    // At most AGENDA_MAX_STEPS steps (the bound the actor keeps), and a step carries no plan of its own.
    const rests = (n: number) => Array.from({ length: n }, () => ({ action: "rest", hours: 1 }));
    expect(
      Result.isSuccess(decodeOutput("act", { ...planned, agenda: rests(AGENDA_MAX_STEPS) })),
    ).toBe(true);
    expect(
      Result.isSuccess(decodeOutput("act", { ...planned, agenda: rests(AGENDA_MAX_STEPS + 1) })),
    ).toBe(false);
  });

  it("refuses a plan naming anyone or anything the input did not offer, and says which step", () => {
    const check = (agenda: ActOutput["agenda"]) =>
      validateAnswer("act", input, { action: "rest", hours: 1, agenda } as ActOutput);
    expect(Result.isSuccess(check([{ action: "speak", to: ids.npc("bo"), text: "hi" }]))).toBe(
      true,
    );
    // Home and workplace are places it may plan to go, reachable from here or not.
    expect(
      Result.isSuccess(check([{ action: "move", to: ids.location("forge"), reason: "r" }])),
    ).toBe(true);
    const refused = check([
      { action: "rest", hours: 1 },
      { action: "speak", to: ids.npc("nobody"), text: "hi" },
    ]);
    expect(Result.isFailure(refused) && refused.failure).toBeInstanceOf(UnknownId);
    expect(Result.isFailure(refused) && refused.failure.field).toBe("agenda.1.to");
    expect(
      Result.isFailure(check([{ action: "move", to: ids.location("atlantis"), reason: "r" }])),
    ).toBe(true);
    expect(
      Result.isFailure(check([{ action: "work", taskId: ids.task("task-imaginary"), note: "n" }])),
    ).toBe(true);
  });

  it("property: the scripted brain's plans are deterministic, at most three steps (its tuning), and pass validation", () => {
    const brain = ScriptedBrain.make();
    fc.assert(
      fc.property(
        arbActInput,
        fc.nat(),
        fc.integer({ min: 0, max: 24 * 60 - 1 }),
        (given, seed, minute) => {
          const request = {
            purpose: "act" as const,
            npcId: given.self.id,
            t: (3 * 1440 + minute) as never,
            seed,
            input: given,
            dossier: null,
          };
          const a = brain.decideSync(request).output;
          const b = brain.decideSync(request).output;
          expect(a).toEqual(b);
          expect((a.agenda ?? []).length).toBeLessThanOrEqual(3);
          expect(Result.isSuccess(validateAnswer("act", given, a))).toBe(true);
          expect(Result.isSuccess(decodeOutput("act", a))).toBe(true);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
