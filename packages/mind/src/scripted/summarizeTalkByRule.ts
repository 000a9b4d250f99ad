/**
 * The scripted running summary of the player: the prior summary's sentences with the new
 * turns' facts folded in, kept under its length by dropping the oldest small facts first
 * (promises and confidences are the last to go); and a regard that moves a little with
 * what was said — promises and kind words warm it, threats and insults sour it.
 */
import type { SummarizeTalkInput, SummarizeTalkOutput } from "../purposes/PlayerTalkPurposes.ts";
import { factOf } from "./factsByRule.ts";
import { sentencesOf } from "./quoted.ts";

const MAX_SUMMARY = 1400;

const clamp = (x: number): number => Math.max(-1, Math.min(1, Math.round(x * 1000) / 1000));

const kept = (s: string): boolean => /\b(promised|in confidence)\b/.test(s);

export const summarizeTalkByRule = (input: SummarizeTalkInput): SummarizeTalkOutput => {
  // Facts in the order they were said, so the summary reads as a history.
  const facts = input.turns
    .filter((t) => t.speakerId !== input.self.id)
    .flatMap((t) =>
      sentencesOf(t.text).flatMap(
        (s) => factOf(s, { speaker: t.speakerName, listener: null }) ?? [],
      ),
    );
  const intro = `I have talked with ${input.partner.name}.`;
  const sentences = [...(input.priorSummary === null ? [intro] : sentencesOf(input.priorSummary))];
  for (const f of facts) if (!sentences.includes(f.text)) sentences.push(f.text);
  while (sentences.join(" ").length > MAX_SUMMARY && sentences.length > 1) {
    const drop = sentences.findIndex((s, i) => i > 0 && !kept(s));
    sentences.splice(drop === -1 ? 1 : drop, 1);
  }

  let trust = input.regard.trust + 0.01 * input.turns.length;
  let respect = input.regard.respect;
  let suspicion = input.regard.suspicion;
  for (const f of facts) {
    if (f.category === "promise") {
      trust += 0.05;
      respect += 0.05;
    } else if (f.category === "secret") {
      trust += 0.05;
    } else if (f.category === "relationship" && /\bwas hostile\b/.test(f.text)) {
      trust -= 0.15;
      respect -= 0.05;
      suspicion += 0.15;
    }
  }
  for (const t of input.turns) {
    if (t.speakerId === input.self.id) continue;
    if (/\b(thank|thanks|grateful|friend)\b/i.test(t.text)) trust += 0.03;
  }
  const lastPromise = [...facts].reverse().find((f) => f.category === "promise");
  const regardSummary =
    lastPromise?.text ??
    (input.regard.summary !== "" ? input.regard.summary : `Has talked with ${input.partner.name}.`);
  return {
    summary: sentences.join(" ").slice(0, MAX_SUMMARY),
    trust: clamp(trust),
    respect: clamp(respect),
    suspicion: clamp(suspicion),
    regardSummary: regardSummary.slice(0, 300),
  };
};
