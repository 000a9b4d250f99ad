/**
 * A listener drawn into a talk before its own first turn answers as who it is: its
 * first-meeting profile is generated before its reply is asked, never after — so the
 * reply's dossier already holds the profile its later prompts start with.
 */
import { type BrainRequest, type PurposeName, ScriptedBrain, type SyncBrain } from "@hearsay/mind";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { freshLog, run } from "./harness.ts";

describe("replies", () => {
  it("a listener's profile is asked before its reply", async () => {
    const inner = ScriptedBrain.make({ tuning: { talkChance: 0.8 } });
    const profiled = new Set<string>();
    const replies: Array<{ npcId: string; profiled: boolean }> = [];
    const decideSync = <P extends PurposeName>(r: BrainRequest<P>) => {
      if (r.purpose === "profile") profiled.add(r.npcId!);
      if (r.purpose === "act" && (r as BrainRequest<"act">).input.conversation !== undefined)
        replies.push({ npcId: r.npcId!, profiled: profiled.has(r.npcId!) });
      return inner.decideSync(r);
    };
    const brain: SyncBrain = {
      name: "scripted",
      decideSync,
      decide: (r) => Effect.sync(() => decideSync(r)),
    };
    await run(freshLog(), { days: 1, brain });
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.filter((r) => !r.profiled)).toEqual([]);
  });
});
