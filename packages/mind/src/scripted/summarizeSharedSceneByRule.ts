/**
 * The scripted shared scene summary: each witness's memory of what it shared with the
 * others, by the same rule as a lone witness's (`summarizeSceneByRule`), given only what
 * the shared input holds. With no regard in it, each memory ends on a plain note rather
 * than a fond or wary one; each is told in the voice its speech style gives (plain when
 * the others did not hear it speak), and each speaks of its own part — what it said and
 * what was said to it — so two witnesses of the same lines still remember them apart.
 */
import { Prng } from "@hearsay/core";
import type {
  SummarizeSharedSceneInput,
  SummarizeSharedSceneOutput,
} from "../purposes/SummarizeSharedScenePurpose.ts";
import { summarizeSceneByRule } from "./summarizeSceneByRule.ts";
import { voiceOf } from "./Voice.ts";

export const summarizeSharedSceneByRule = (
  input: SummarizeSharedSceneInput,
  seed: number,
  t: number,
): SummarizeSharedSceneOutput => ({
  summaries: input.witnesses.map((w) => {
    const prng = Prng.derive(seed, "summarize_shared_scene", w.id, t);
    const view = {
      sceneId: input.sceneId,
      // The rule reads a witness's id and name, and others' ids, names and regard: the
      // shared input has no role, faction, traits or regard, so none are made up.
      self: { id: w.id, name: w.name, role: "", factionId: null, traits: [], speechStyle: null },
      locationName: input.locationName,
      company: input.present
        .filter((p) => p.id !== w.id)
        .map((p) => ({ id: p.id, name: p.name, role: "", factionId: null, regard: 0 })),
      lines: input.lines,
      debates: input.debates,
      happenings: input.happenings,
    };
    return { witnessId: w.id, ...summarizeSceneByRule(view, prng, voiceOf([], w.speechStyle)) };
  }),
});
