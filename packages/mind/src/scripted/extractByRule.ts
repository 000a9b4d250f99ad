/**
 * Scripted memory extraction: each line said to the NPC is read for promises, secrets,
 * tasks, places and news, and the telling ones become first-person memories with a
 * category, importance and lifetime to match; the conversation itself is remembered
 * as small talk that fades in a day or three.
 */
import type { Lifetime, MemoryCategory } from "@hearsay/core";
import type { ExtractMemoriesInput, MemoryDraft } from "../purposes/ExtractMemoriesPurpose.ts";
import { promiseIn } from "./factsByRule.ts";
import { quoted, sentencesOf } from "./quoted.ts";

interface Rule {
  /** Whether a sentence, in the speaker's own words (one that quotes nobody), fits. */
  readonly test: (sentence: string) => boolean;
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly lifetime: Lifetime;
  /** The memory: who said it and the sentence that fitted, already quoted. */
  readonly frame: (speaker: string, said: string) => string;
}

const matches = (re: RegExp) => (sentence: string) => re.test(sentence);

const rules: ReadonlyArray<Rule> = [
  {
    test: matches(/\b(secret|don't tell|between us|keep this quiet|didn't hear it from me)\b/i),
    category: "secret",
    importance: 0.8,
    lifetime: "30d",
    frame: (s, x) => `${s} told me in confidence: ${x}`,
  },
  {
    test: (sentence) => promiseIn(sentence) !== null,
    category: "promise",
    importance: 0.7,
    lifetime: "7d",
    frame: (s, x) => `${s} promised: ${x}`,
  },
  {
    test: matches(/\b(task|work on|finish|help|lend a hand|job)\b/i),
    category: "task",
    importance: 0.55,
    lifetime: "7d",
    frame: (s, x) => `${s} spoke of work to be done: ${x}`,
  },
  {
    test: matches(/\b(heard|word is|news|did you know|have you heard|they say)\b/i),
    category: "known_info",
    importance: 0.6,
    lifetime: "7d",
    frame: (s, x) => `${s} passed on news: ${x}`,
  },
];

/** The sentences of a line the speaker said in its own words: none that quote someone. */
const ownSentences = (text: string): ReadonlyArray<string> =>
  sentencesOf(text).filter((s) => !/["\u201c\u201d]/.test(s));

/** A talk as the rules read it: its id, if it has one yet, is not read. */
type Talk = Omit<ExtractMemoriesInput, "conversationId"> &
  Partial<Pick<ExtractMemoriesInput, "conversationId">>;

/** Up to four memories, most important first. */
export const extractByRule = (input: Talk): ReadonlyArray<MemoryDraft> => {
  const found: Array<MemoryDraft> = [];
  const seen = new Set<string>();
  for (const turn of input.turns) {
    if (turn.speakerId === input.self.id) continue;
    const own = ownSentences(turn.text);
    for (const rule of rules) {
      const hit = own.find(rule.test);
      if (hit === undefined) continue;
      const text = rule.frame(turn.speakerName, quoted(hit, 200));
      if (seen.has(text)) break;
      seen.add(text);
      found.push({
        text,
        category: rule.category,
        importance: rule.importance,
        lifetime: rule.lifetime,
      });
      break;
    }
  }
  const others = input.participants.filter((p) => p.id !== input.self.id).map((p) => p.name);
  const where = input.locationName === null ? "" : ` at ${input.locationName}`;
  const withWhom = others.length === 0 ? "myself" : others.join(" and ");
  const longTalk = input.turns.length >= 6;
  const heard = input.turns.find((t) => t.speakerId !== input.self.id);
  const gist = heard === undefined ? "" : ` ${heard.speakerName} said: ${quoted(heard.text, 120)}`;
  found.push({
    text: `I talked with ${withWhom}${where}.${gist}`,
    category: "conversation",
    importance: longTalk ? 0.35 : 0.2,
    lifetime: longTalk ? "3d" : "1d",
  });
  return found.sort((a, b) => b.importance - a.importance).slice(0, 4);
};
