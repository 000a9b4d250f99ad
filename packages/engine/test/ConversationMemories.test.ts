/**
 * A listener's memories of a talk come with its reply (one `act` call carries both), and
 * a speaker's memories of a line nobody answered come with the `act` answer that spoke
 * it; only the speaker of an answered talk and anyone whose answer brought no memories
 * are asked `extract_memories` — and the world remembers the same either way.
 */

import { verifyLog } from "@hearsay/engine";
import { type BrainRequest, type BrainShape, type PurposeName, ScriptedBrain } from "@hearsay/mind";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { freshLog, MAIN, run } from "./harness.ts";
import { hamlet, memoryLog, runHamlet } from "./replay/fixtures.ts";
import { standInBrain } from "./replay/standInBrain.ts";

type Asked = { purpose: string; npcId: string | null; conversationId: string | undefined };
/** Which `act` answers lose their memories: none, a speaker's of its own line, or all. */
type Drop = "none" | "saying" | "all";

/**
 * Every other talk (by its id's last character) is answered: the scripted world rarely
 * answers, so both kinds of talk come up in a short run.
 */
const replied = <A extends { output: unknown }>(
  answer: A,
  talk: { conversationId: string; participants?: ReadonlyArray<{ id: string }> } | undefined,
): A => {
  if (talk === undefined || talk.conversationId.charCodeAt(talk.conversationId.length - 1) % 2)
    return answer;
  const { memories } = answer.output as { memories?: unknown };
  const to = talk.participants![0]!.id;
  return {
    ...answer,
    output: { action: "speak", to, text: "Is that so? I promise to help.", memories },
  };
};

const watching = (drop: Drop) => {
  const inner = ScriptedBrain.make();
  const asked: Array<Asked> = [];
  const brain: BrainShape = {
    name: "scripted",
    decide: <P extends PurposeName>(r: BrainRequest<P>) =>
      Effect.sync(() => {
        const input = r.input as {
          conversationId?: string;
          conversation?: { conversationId: string; participants: ReadonlyArray<{ id: string }> };
        };
        asked.push({
          purpose: r.purpose,
          npcId: r.npcId,
          conversationId: input.conversationId ?? input.conversation?.conversationId,
        });
        const answer = replied(inner.decideSync(r), input.conversation);
        if (drop === "none" || r.purpose !== "act") return answer;
        // A planned line's memories are a speaker's of its own line: dropped with them.
        const plan = (answer.output as { agenda?: ReadonlyArray<object> }).agenda;
        const unsaid =
          plan === undefined
            ? {}
            : { agenda: plan.map(({ memories: _, ...step }: { memories?: unknown }) => step) };
        if (drop === "saying" && input.conversation !== undefined)
          return {
            ...answer,
            output: { ...(answer.output as object), ...unsaid },
          } as typeof answer;
        const { memories: _, ...output } = answer.output as { memories?: unknown };
        return { ...answer, output: { ...output, ...unsaid } } as typeof answer;
      }),
  };
  return { brain, asked };
};

const talksOf = async (drop: Drop) => {
  const { brain, asked } = watching(drop);
  const log = freshLog();
  await run(log, { days: 2, brain });
  const events = log.read(MAIN);
  const opened = new Map<
    string,
    { speaker: string; listener: string; lines: number; closed: boolean }
  >();
  for (const e of events) {
    if (e.type !== "ConversationTurn") continue;
    const talk = opened.get(e.payload.conversationId);
    if (talk !== undefined) talk.lines++;
    else
      opened.set(e.payload.conversationId, {
        speaker: e.payload.speakerId,
        listener: e.payload.listenerIds[0]!,
        lines: 1,
        closed: e.payload.ends === true,
      });
  }
  const remembered = new Set(
    events.flatMap((e) =>
      e.type === "MemoryRecorded" && e.payload.about?.kind === "conversation"
        ? [`${e.payload.ownerNpcId}@${e.payload.about.id}`]
        : [],
    ),
  );
  return { asked, opened, remembered, events };
};

describe("conversation memories", () => {
  it("come with the answers; only the speaker of an answered talk is asked to extract them", async () => {
    const { asked, opened, remembered } = await talksOf("none");
    const open = [...opened.values()].filter((t) => !t.closed);
    const answered = open.filter((t) => t.lines > 1).length;
    expect(answered).toBeGreaterThan(0);
    expect(open.length - answered).toBeGreaterThan(0);
    for (const [conv, { speaker, listener, lines, closed }] of opened) {
      if (closed) continue;
      const extracted = asked
        .filter((a) => a.purpose === "extract_memories" && a.conversationId === conv)
        .map((a) => a.npcId);
      expect(extracted).toEqual(lines > 1 ? [speaker] : []);
      expect(remembered.has(`${speaker}@${conv}`)).toBe(true);
      expect(
        asked.some((a) => a.purpose === "act" && a.npcId === listener && a.conversationId === conv),
      ).toBe(true);
      expect(remembered.has(`${listener}@${conv}`)).toBe(true);
    }
  });

  it("a line that closes its talk is not answered: its listener is asked no reply and still remembers it", async () => {
    const { asked, opened, remembered } = await talksOf("none");
    const closed = [...opened].filter(([, t]) => t.closed);
    expect(closed.length).toBeGreaterThan(0);
    for (const [conv, { speaker, listener, lines }] of closed) {
      expect(lines).toBe(1);
      expect(asked.filter((a) => a.purpose === "act" && a.conversationId === conv)).toEqual([]);
      // Its memories of the line it was not asked to answer are extracted, as for any listener
      // whose answer brought none; the speaker's came with the answer that said the line.
      const extracted = asked
        .filter((a) => a.purpose === "extract_memories" && a.conversationId === conv)
        .map((a) => a.npcId);
      expect(extracted).toEqual([listener]);
      expect(remembered.has(`${speaker}@${conv}`)).toBe(true);
      expect(remembered.has(`${listener}@${conv}`)).toBe(true);
    }
  });

  it("answers without memories have both talkers asked to extract them, as before", async () => {
    const { asked, opened, remembered } = await talksOf("all");
    expect(opened.size).toBeGreaterThan(0);
    for (const [conv, { speaker, listener }] of opened) {
      const extracted = asked
        .filter((a) => a.purpose === "extract_memories" && a.conversationId === conv)
        .map((a) => a.npcId);
      expect(extracted).toEqual([speaker, listener]);
      expect(remembered.has(`${listener}@${conv}`)).toBe(true);
    }
  });

  it("a speaker's memories of its own line are the ones extract_memories gave: the same log", async () => {
    const merged = await talksOf("none");
    const separate = await talksOf("saying");
    const extractedSpeakers = (asked: ReadonlyArray<Asked>) =>
      asked.filter((a) => a.purpose === "extract_memories").length;
    expect(extractedSpeakers(separate.asked)).toBeGreaterThan(extractedSpeakers(merged.asked));
    // A planned line's memories are in its plan's event, where the one run has them.
    const unplanned = (type: string, payload: object) =>
      type !== "NpcAgendaChanged"
        ? payload
        : {
            ...payload,
            steps: (payload as { steps: ReadonlyArray<object> }).steps.map(
              ({ memories: _, ...step }: { memories?: unknown }) => step,
            ),
          };
    const strip = (events: typeof merged.events) =>
      events.map(({ seq, t, type, payload }) => ({
        seq,
        t,
        type,
        payload: unplanned(type, payload),
      }));
    expect(strip(merged.events)).toEqual(strip(separate.events));
  });
});

describe("a recorded run whose speakers' memories came with their act answers", () => {
  it("replays from its recordings alone: no extract_memories asked of an unanswered speaker", async () => {
    const log = memoryLog();
    await runHamlet(log, { days: 1, brain: standInBrain(), recordBrain: true });
    const events = log.read(MAIN);
    const extracted = events.filter(
      (e) => e.type === "LlmCallRecorded" && e.payload.purpose === "extract_memories",
    ).length;
    const talks = events.filter(
      (e) => e.type === "ConversationTurn" && e.payload.turnIndex === 0,
    ).length;
    expect(talks).toBeGreaterThan(0);
    expect(extracted).toBeLessThan(talks);
    const report = await verifyLog({ log, saveId: MAIN, simulation: hamlet() });
    expect(report.divergence).toBeNull();
    expect(report.ok).toBe(true);
    expect(report.unusedRecordings).toBe(0);
  });
});
