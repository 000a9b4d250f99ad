/**
 * The scripted brain: deterministic, rule-based decisions and template text, the
 * embedded default so everything runs without a model. Each answer is a pure function
 * of the request — its randomness is `Prng.derive(seed, purpose, npcId, t, …)` — so a
 * run, a resumed run and a replay all get the same answers. `decideSync` serves the
 * engine's hot loop without any scheduling; `decide` is the same behind the port.
 */
import { Prng } from "@hearsay/core";
import { Effect } from "effect";
import type { BrainAnswer, BrainMeta, BrainRequest, BrainShape } from "./Brain.ts";
import type { PurposeName, PurposeOutput } from "./Purpose.ts";
import { actByRule } from "./scripted/actByRule.ts";
import { type ActTuning, defaultActTuning } from "./scripted/chooseAction.ts";
import { consolidateByRule } from "./scripted/consolidateByRule.ts";
import { debateTurnByRule, summarizeByRule } from "./scripted/debateByRule.ts";
import { draftProfile } from "./scripted/draftProfile.ts";
import { extractByRule } from "./scripted/extractByRule.ts";
import { factsByRule } from "./scripted/factsByRule.ts";
import { replyByRule } from "./scripted/replyByRule.ts";
import { reviseProfileByRule } from "./scripted/reviseProfileByRule.ts";
import { summarizeSceneByRule } from "./scripted/summarizeSceneByRule.ts";
import { summarizeSharedSceneByRule } from "./scripted/summarizeSharedSceneByRule.ts";
import { summarizeTalkByRule } from "./scripted/summarizeTalkByRule.ts";
import { voiceOf } from "./scripted/Voice.ts";

/** The model name scripted answers report. Bump it when the rules change what they answer. */
export const SCRIPTED_MODEL = "rules-v2";

export interface ScriptedBrainOptions {
  /** How talkative and enterprising the scripted world is. */
  readonly tuning?: Partial<ActTuning>;
}

/** A brain that also answers synchronously, and never fails. */
export interface SyncBrain extends BrainShape {
  decideSync<P extends PurposeName>(request: BrainRequest<P>): BrainAnswer<P>;
}

const meta: BrainMeta = {
  brain: "scripted",
  model: SCRIPTED_MODEL,
  promptTokens: 0,
  outputTokens: 0,
  latencyMs: 0,
  fallbackReason: null,
};

const answer = (request: BrainRequest, tuning: ActTuning): PurposeOutput<PurposeName> => {
  const prng = Prng.derive(request.seed, request.purpose, request.npcId ?? "-", request.t);
  switch (request.purpose) {
    case "act":
      return actByRule(request, prng, tuning);
    case "profile": {
      const self = request.input.self;
      return draftProfile(request.input, prng, voiceOf(self.traits, self.speechStyle));
    }
    case "revise_profile":
      return reviseProfileByRule(request.input);
    case "extract_memories":
      return { memories: extractByRule(request.input) };
    case "debate_turn": {
      const self = request.input.self;
      return debateTurnByRule(
        request.input,
        request.seed,
        prng,
        voiceOf(self.traits, self.speechStyle),
      );
    }
    case "summarize_debate":
      return summarizeByRule(request.input);
    case "reply": {
      const self = request.input.self;
      return replyByRule(
        request.input,
        request.dossier,
        prng,
        voiceOf(self.traits, self.speechStyle),
      );
    }
    case "extract_facts":
      return { memories: factsByRule(request.input) };
    case "summarize_talk":
      return summarizeTalkByRule(request.input);
    case "summarize_scene": {
      const self = request.input.self;
      return summarizeSceneByRule(request.input, prng, voiceOf(self.traits, self.speechStyle));
    }
    case "summarize_shared_scene":
      return summarizeSharedSceneByRule(request.input, request.seed, request.t);
    case "consolidate_memories":
      return consolidateByRule(request.input);
  }
};

const make = (options: ScriptedBrainOptions = {}): SyncBrain => {
  const tuning: ActTuning = { ...defaultActTuning, ...options.tuning };
  const decideSync = <P extends PurposeName>(request: BrainRequest<P>): BrainAnswer<P> => ({
    output: answer(request as BrainRequest, tuning) as PurposeOutput<P>,
    meta,
  });
  return {
    name: "scripted",
    decideSync,
    decide: (request) => Effect.sync(() => decideSync(request)),
  };
};

/** The scripted brain: `make(options)`. */
export const ScriptedBrain = { make } as const;
