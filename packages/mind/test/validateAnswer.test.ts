import { ids } from "@hearsay/core";
import { type ActOutput, UnknownId, validateAnswer } from "@hearsay/mind";
import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbActInput, arbRequest, locationPool, npcPool, runs, taskPool } from "./arbitraries.ts";

const failureOf = <A>(r: Result.Result<A, UnknownId>): UnknownId | null =>
  Result.isFailure(r) ? r.failure : null;

describe("validateAnswer", () => {
  it("accepts an act answer exactly when the id it names was offered", () => {
    const arbAnswer: fc.Arbitrary<ActOutput> = fc.oneof(
      fc.record({
        action: fc.constant("speak" as const),
        to: fc.constantFrom(...npcPool),
        text: fc.constant("hi"),
      }),
      fc.record({
        action: fc.constant("move" as const),
        to: fc.constantFrom(...locationPool),
        reason: fc.constant(""),
      }),
      fc.record({
        action: fc.constant("work" as const),
        taskId: fc.constantFrom(...taskPool),
        note: fc.constant(""),
      }),
      fc.record({
        action: fc.constant("propose_task" as const),
        title: fc.constant("x"),
        description: fc.constant(""),
        assignee: fc.option(fc.constantFrom(...npcPool), { nil: null }),
        deadlineDays: fc.constant(2),
      }),
      fc.record({ action: fc.constant("rest" as const), hours: fc.constant(1) }),
      fc.record({
        action: fc.constantFrom("give_up" as const, "withdraw" as const),
        taskId: fc.constantFrom(...taskPool),
        reason: fc.constant("r"),
      }),
      fc.record({
        action: fc.constant("move_deadline" as const),
        taskId: fc.constantFrom(...taskPool),
        days: fc.constant(2),
        reason: fc.constant("r"),
      }),
    );
    /** The tasks an answer may name: by the NPC's part in them, and who is here to agree. */
    const tasksFor = (
      input: typeof arbActInput extends fc.Arbitrary<infer I> ? I : never,
      action: string,
    ) =>
      input.tasks
        .filter((x) => {
          const self = input.self.id;
          if (action === "work" || action === "give_up") return x.assignee === self;
          if (action === "withdraw") return x.proposedBy === self;
          if (x.deadline === null) return false;
          if (x.assignee === self)
            return (
              x.proposedBy !== null &&
              (x.proposedBy === self || input.present.some((p) => p.id === x.proposedBy))
            );
          if (x.proposedBy !== self) return false;
          return x.assignee === null || input.present.some((p) => p.id === x.assignee);
        })
        .map((x) => x.id);
    fc.assert(
      fc.property(arbActInput, arbAnswer, (input, answer) => {
        const offered: Array<string> =
          answer.action === "speak"
            ? input.present.map((p) => p.id)
            : answer.action === "move"
              ? input.reachable.map((p) => p.id)
              : answer.action === "propose_task"
                ? [input.self.id, ...input.present.map((p) => p.id)]
                : answer.action === "rest"
                  ? []
                  : tasksFor(input, answer.action);
        const named =
          answer.action === "speak" || answer.action === "move"
            ? answer.to
            : answer.action === "propose_task"
              ? answer.assignee
              : answer.action === "rest"
                ? null
                : answer.taskId;
        const problem = failureOf(validateAnswer("act", input, answer));
        if (named === null || offered.includes(named)) expect(problem).toBeNull();
        else {
          expect(problem).toBeInstanceOf(UnknownId);
          expect(problem?.id).toBe(named);
          expect(problem?.allowed).toEqual(offered);
          expect(problem?.message).toContain(JSON.stringify(named));
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it("names the field, the kind and the id it rejects", () => {
    const input = {
      self: {
        id: ids.npc("a"),
        name: "A",
        role: "r",
        factionId: null,
        traits: [],
        speechStyle: null,
      },
      location: { id: ids.location("here"), name: "Here", tags: [] },
      reachable: [{ id: ids.location("there"), name: "There", tags: [] }],
      present: [],
      tasks: [],
      home: null,
      workplace: null,
    };
    const problem = failureOf(
      validateAnswer("act", input, { action: "move", to: ids.location("atlantis"), reason: "" }),
    );
    expect(problem).toMatchObject({
      _tag: "UnknownId",
      purpose: "act",
      field: "to",
      kind: "location",
      id: "atlantis",
    });
    expect(problem?.message).toBe(
      'act: `to` names unknown location id "atlantis"; use one of "there"',
    );
  });

  it("checks a debate reply against the participants", () => {
    fc.assert(
      fc.property(arbRequest("debate_turn"), fc.constantFrom(...npcPool), (request, replyTo) => {
        const problem = failureOf(
          validateAnswer("debate_turn", request.input, { text: "x", stance: "for", replyTo }),
        );
        expect(problem === null).toBe(request.input.participants.some((p) => p.id === replyTo));
        expect(
          failureOf(
            validateAnswer("debate_turn", request.input, {
              text: "x",
              stance: "for",
              replyTo: null,
            }),
          ),
        ).toBeNull();
      }),
      { numRuns: runs(200) },
    );
  });
});
