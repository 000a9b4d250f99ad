/**
 * The fixture model's `act` answers follow the act instruction on memories: a good answer
 * that speaks always says what its speaker will remember (of the talk it answers, or of
 * its own line when there is none), and those memories decode as the purpose's output.
 * Its good answers plan a few steps too (an agenda), naming only what the input offers.
 */
import { AGENDA_MAX_STEPS } from "@hearsay/core";
import { type ActInput, decodeOutput, validateAnswer } from "@hearsay/mind";
import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { chatAnswer } from "../src/ollama/chatAnswer.ts";
import { loadOllamaFixtures } from "../src/ollama/OllamaFixtures.ts";

const act = loadOllamaFixtures().chat.act!;
const npc = (id: string, name: string) => ({
  id,
  name,
  role: "baker",
  factionId: null,
  regard: { trust: 0, respect: 0, suspicion: 0 },
});
const input = (conversation: boolean) => ({
  self: { id: "ana", name: "Ana" },
  location: { id: "mill", name: "the Mill", tags: [] },
  reachable: [{ id: "quay", name: "the Quay", tags: [] }],
  present: [npc("bo", "Bo"), npc("cy", "Cy")],
  tasks: [],
  home: null,
  workplace: null,
  ...(conversation
    ? {
        conversation: {
          conversationId: "conv-1",
          participants: [
            { id: "bo", name: "Bo" },
            { id: "ana", name: "Ana" },
          ],
          locationName: "the Mill",
          turns: [{ speakerId: "bo", speakerName: "Bo", text: "Morning, Ana." }],
        },
      }
    : {}),
});

describe("the fixture model's act answers", () => {
  it("carry memories on every good speak, with or without a conversation", () => {
    for (const conversation of [false, true]) {
      let spoke = 0;
      for (let i = 0; i < 200; i++) {
        const text = chatAnswer(act, "good", input(conversation), `prompt ${conversation} ${i}`);
        const answer = JSON.parse(text) as { action: string; memories?: ReadonlyArray<unknown> };
        if (answer.action !== "speak") continue;
        spoke++;
        expect(answer.memories?.length ?? 0).toBeGreaterThan(0);
        expect(Result.isSuccess(decodeOutput("act", answer))).toBe(true);
      }
      expect(spoke).toBeGreaterThan(0);
    }
  });

  it("plan a few steps on good answers, each decoding and naming only what the input offers", () => {
    let planned = 0;
    for (const conversation of [false, true])
      for (let i = 0; i < 200; i++) {
        const given = input(conversation);
        const decoded = decodeOutput(
          "act",
          JSON.parse(chatAnswer(act, "good", given, `plan ${conversation} ${i}`)),
        );
        expect(Result.isSuccess(decoded)).toBe(true);
        if (!Result.isSuccess(decoded)) continue;
        const steps = decoded.success.agenda ?? [];
        if (steps.length > 0) planned++;
        expect(steps.length).toBeLessThanOrEqual(AGENDA_MAX_STEPS);
        expect(
          Result.isSuccess(validateAnswer("act", given as unknown as ActInput, decoded.success)),
        ).toBe(true);
      }
    expect(planned).toBeGreaterThan(300);
  });
});
