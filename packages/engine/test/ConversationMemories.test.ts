/**
 * A listener's memories of a talk come with its reply (one `act` call carries both);
 * only the speaker, whose line was chosen before the reply, and a listener whose answer
 * brought no memories are asked `extract_memories`.
 */
import { type BrainRequest, type BrainShape, type PurposeName, ScriptedBrain } from "@hearsay/mind";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, run } from "./harness.ts";

type Asked = { purpose: string; npcId: string | null; conversationId: string | undefined };

const watching = (dropMemories: boolean) => {
  const inner = ScriptedBrain.make();
  const asked: Array<Asked> = [];
  const brain: BrainShape = {
    name: "scripted",
    decide: <P extends PurposeName>(r: BrainRequest<P>) =>
      Effect.sync(() => {
        const input = r.input as {
          conversationId?: string;
          conversation?: { conversationId: string };
        };
        asked.push({
          purpose: r.purpose,
          npcId: r.npcId,
          conversationId: input.conversationId ?? input.conversation?.conversationId,
        });
        const answer = inner.decideSync(r);
        if (!dropMemories || r.purpose !== "act") return answer;
        const { memories: _, ...output } = answer.output as { memories?: unknown };
        return { ...answer, output } as typeof answer;
      }),
  };
  return { brain, asked };
};

const talksOf = async (dropMemories: boolean) => {
  const { brain, asked } = watching(dropMemories);
  const log = freshLog();
  await run(log, { days: 2, brain });
  const events = log.read(MAIN);
  const opened = new Map<string, { speaker: string; listener: string }>();
  for (const e of events)
    if (e.type === "ConversationTurn" && e.payload.turnIndex === 0)
      opened.set(e.payload.conversationId, {
        speaker: e.payload.speakerId,
        listener: e.payload.listenerIds[0]!,
      });
  const remembered = new Set(
    events.flatMap((e) =>
      e.type === "MemoryRecorded" && e.payload.about?.kind === "conversation"
        ? [`${e.payload.ownerNpcId}@${e.payload.about.id}`]
        : [],
    ),
  );
  return { asked, opened, remembered };
};

describe("conversation memories", () => {
  it("come with the listener's reply; only the speaker is asked to extract them", async () => {
    const { asked, opened, remembered } = await talksOf(false);
    expect(opened.size).toBeGreaterThan(0);
    for (const [conv, { speaker, listener }] of opened) {
      const extracted = asked
        .filter((a) => a.purpose === "extract_memories" && a.conversationId === conv)
        .map((a) => a.npcId);
      expect(extracted).toEqual([speaker]);
      expect(
        asked.some((a) => a.purpose === "act" && a.npcId === listener && a.conversationId === conv),
      ).toBe(true);
      expect(remembered.has(`${listener}@${conv}`)).toBe(true);
    }
  });

  it("a reply without memories has the listener asked to extract them, as before", async () => {
    const { asked, opened, remembered } = await talksOf(true);
    expect(opened.size).toBeGreaterThan(0);
    for (const [conv, { speaker, listener }] of opened) {
      const extracted = asked
        .filter((a) => a.purpose === "extract_memories" && a.conversationId === conv)
        .map((a) => a.npcId);
      expect(extracted).toEqual([speaker, listener]);
      expect(remembered.has(`${listener}@${conv}`)).toBe(true);
    }
  });
});
