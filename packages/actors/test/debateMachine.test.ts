import { type DebateEmitted, debateMachine } from "@hearsay/actors";
import { ids } from "@hearsay/core";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";

const a = ids.npc("a");
const b = ids.npc("b");
const start = (minParticipants = 2) => {
  const actor = createActor(debateMachine, {
    input: { debateId: "d1", topic: "the ford toll", rounds: 2, minParticipants },
  });
  const seen: Array<DebateEmitted> = [];
  actor.on("*", (e) => seen.push(e as DebateEmitted));
  actor.start();
  return { actor, seen };
};

describe("debate machine", () => {
  it("runs gather → rounds → summary → outcome, asking each speaker in turn", () => {
    const { actor, seen } = start();
    actor.send({ type: "GATHERED", participants: [a, b] });
    const order: Array<string> = [];
    const last: Array<boolean> = [];
    for (let i = 0; i < 4; i++) {
      const ask = seen.at(-1)!;
      expect(ask.type).toBe("turn");
      if (ask.type !== "turn") return;
      order.push(`${ask.npcId}@${ask.round}`);
      last.push(ask.last);
      actor.send({
        type: "LINE",
        line: { npcId: ask.npcId, round: ask.round, line: `line ${i}`, stance: "for" },
      });
    }
    expect(order).toEqual(["a@0", "b@0", "a@1", "b@1"]);
    // Only the ask for the final line says it is the last: the summary is asked next.
    expect(last).toEqual([false, false, false, true]);
    expect(seen.at(-1)).toEqual(expect.objectContaining({ type: "summarise" }));
    actor.send({ type: "SUMMARY", summary: "They argued.", outcome: "The toll stays." });
    expect(actor.getSnapshot().status).toBe("done");
    expect(actor.getSnapshot().output).toEqual(
      expect.objectContaining({
        participants: [a, b],
        summary: "They argued.",
        outcome: "The toll stays.",
      }),
    );
    expect(actor.getSnapshot().output?.lines).toHaveLength(4);
  });

  it("ignores a line from the wrong speaker", () => {
    const { actor } = start();
    actor.send({ type: "GATHERED", participants: [a, b] });
    actor.send({
      type: "LINE",
      line: { npcId: b, round: 0, line: "out of turn", stance: "against" },
    });
    expect(actor.getSnapshot().context.lines).toEqual([]);
  });

  it("is cancelled when too few gather", () => {
    const { actor, seen } = start(3);
    actor.send({ type: "GATHERED", participants: [a, b] });
    expect(actor.getSnapshot().value).toBe("cancelled");
    expect(actor.getSnapshot().output?.summary).toBeNull();
    expect(seen).toEqual([]);
  });
});
