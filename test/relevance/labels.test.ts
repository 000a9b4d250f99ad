/**
 * The labelled relevance set stays answerable: every lore and memory label of
 * test/fixtures/relevance/haskerry.json names something the labelled run leaves. A change
 * to what a run does fails here, naming the labels to fix, rather than in the bench.
 */
import { describe, expect, it } from "vitest";
import { readSet, resolveLabels, runLabelledWorld } from "../../bench/lib/relevanceSet.ts";

describe("the labelled relevance set", () => {
  it("resolves every label against the run it is labelled on", async () => {
    const set = readSet();
    const { log, saveId } = await runLabelledWorld(set);
    const labelled = resolveLabels(log, saveId, set);
    expect(labelled).toHaveLength(set.questions.length);
    log.db.close();
  });

  it("names every label that matches nothing", async () => {
    const set = readSet();
    const { log, saveId } = await runLabelledWorld(set);
    const broken = {
      ...set,
      questions: [
        ...set.questions,
        { id: "X1", npc: set.questions[0]!.npc, question: "?", memories: ["no such phrase ¤"] },
        { id: "X2", npc: set.questions[0]!.npc, question: "?", lore: ["nor this one ¤"] },
      ],
    };
    expect(() => resolveLabels(log, saveId, broken)).toThrow(
      /2 label\(s\) match nothing.*X1: memories label "no such phrase ¤"; X2: lore label "nor this one ¤"/,
    );
    log.db.close();
  });
});
