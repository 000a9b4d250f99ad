import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { summarise } from "../src/summarise.ts";

const names = (id: string): string => (id === "npc.ada" ? "Ada" : id);

describe("summarise", () => {
  it("words a player's turn with the NPC's name and the message", () => {
    const line = summarise(
      "PlayerInput",
      { input: { kind: "turn", npcId: "npc.ada", message: "I will hold the ford." } },
      names,
    );
    expect(line).toBe("player to Ada: “I will hold the ford.”");
  });

  it("words the other player inputs by their kind", () => {
    expect(summarise("PlayerInput", { input: { kind: "world_tick", diffs: [] } }, names)).toBe(
      "player input: world tick",
    );
    expect(summarise("PlayerInput", { input: { kind: "skip", days: 2 } }, names)).toBe(
      "player input: skip",
    );
  });

  it("never throws, whatever the payload", () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (type, payload) => {
        expect(typeof summarise(type, payload, names)).toBe("string");
      }),
    );
  });
});
