/** The player conversation flow over a small world, with the scripted brain. */
import { PLAYER_ID, stateHash } from "@hearsay/core";
import { TalkWorld } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, ofType, run, tinyWorld } from "../harness.ts";

const world = tinyWorld();
const simulation = { world, worldHash: stateHash(world), lore: [] };

const openWorld = async (ticks = 8) => {
  const log = freshLog();
  await run(log, { world, days: 2, maxTicks: ticks });
  const talk = new TalkWorld({
    simulation,
    log,
    saveId: MAIN,
    brain: ScriptedBrain.make(),
    recordBrain: false,
  });
  return { log, talk };
};

const lines = (promiseAt: number, n: number): ReadonlyArray<string> =>
  Array.from({ length: n }, (_, i) =>
    i === 0
      ? "Hello there!"
      : i === promiseAt
        ? "I promise I'll defend the ford against the raiders."
        : ["The weather is turning.", "How is the mill?", "My name is Wren.", "Nice day for it."][
            i % 4
          ]!,
  );

describe("a conversation with the player", () => {
  it("stores every turn, digests every N turns, and a later dossier recalls the promise of turn 3", async () => {
    const { log, talk } = await openWorld();
    let conversationId: string | null = null;
    const streamed: Array<string> = [];
    const said = lines(2, 20);
    for (const [i, message] of said.entries()) {
      let text = "";
      const r = await talk.takeTurn(
        { npcId: "ada", conversationId, message, end: i === said.length - 1 },
        { text: (d) => (text += d), restart: () => (text = "") },
      );
      conversationId = r.conversationId;
      expect(r.turnIndex).toBe(2 * i);
      expect(text).toBe(r.reply);
      streamed.push(text);
    }
    const turns = ofType(log, "ConversationTurn").filter(
      (e) => e.payload.conversationId === conversationId,
    );
    expect(turns).toHaveLength(40);
    expect(turns.map((e) => e.payload.turnIndex)).toEqual([...Array(40).keys()]);
    expect(
      turns.filter((_, i) => i % 2 === 0).every((e) => e.payload.speakerId === PLAYER_ID),
    ).toBe(true);
    expect(streamed[2]).toMatch(/defend the ford/);

    const memories = ofType(log, "MemoryRecorded").filter(
      (e) => e.payload.about?.kind === "player",
    );
    const promise = memories.find(
      (e) => e.payload.ownerNpcId === "ada" && e.payload.category === "promise",
    );
    expect(promise?.payload.text).toBe(
      "The player promised to defend the ford against the raiders.",
    );
    expect(promise?.payload.expiresAt).toBe(promise!.t + 30 * 1440);
    expect(
      memories.some(
        (e) => e.payload.category === "known_info" && /name is Wren/.test(e.payload.text),
      ),
    ).toBe(true);
    expect(
      memories.some((e) => e.payload.category === "conversation" && e.payload.expiresAt !== null),
    ).toBe(true);

    const summaries = ofType(log, "ConversationSummarized").filter(
      (e) => e.payload.npcId === "ada",
    );
    expect(summaries.length).toBeGreaterThanOrEqual(5);
    expect(summaries.at(-1)!.payload.throughTurn).toBe(39);
    expect(summaries.at(-1)!.payload.summary).toMatch(/promised to defend the ford/);
    const edge = ofType(log, "RelationshipChanged").filter(
      (e) => e.payload.fromId === "ada" && e.payload.toId === PLAYER_ID,
    );
    expect(edge.length).toBeGreaterThan(0);
    expect(edge.at(-1)!.payload.trust).toBeGreaterThan(0);

    await talk.skipDays(1);
    const later = talk.dossier("ada", "What did I promise you?");
    const texts = later!.sections.flatMap((s) => s.items.map((i) => i.text)).join("\n");
    expect(texts).toMatch(/promised to defend the ford/);
    const r = await talk.takeTurn({ npcId: "ada", message: "Do you remember what I promised?" });
    expect(r.reply).toMatch(/promised to defend the ford/);
  });
});
