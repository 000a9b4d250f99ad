/**
 * Scripted debates. A participant's first stance is a seeded leaning on the topic; in
 * later rounds it holds, or drifts toward the room's majority (the undecided readily,
 * the decided rarely). Its line answers the last speaker who disagreed, in its voice.
 * The summary counts the stances, names the leading voices, and states the outcome.
 */
import { Prng } from "@hearsay/core";
import type {
  DebateLine,
  DebateTurnInput,
  DebateTurnOutput,
  Stance,
  SummarizeDebateInput,
  SummarizeDebateOutput,
} from "../purposes/DebatePurposes.ts";
import { snippet } from "./composeLine.ts";
import { fill, type Voice } from "./Voice.ts";

const argue: Record<Stance, ReadonlyArray<string>> = {
  for: [
    "I say we do it: {topic}. Waiting only makes it harder.",
    "On {topic}, I am for it, and I will say so to anyone.",
    "We have talked enough about {topic}. I back it.",
  ],
  against: [
    "No. {topic} would cost us more than it gives.",
    "I stand against {topic}; we have seen where such things lead.",
    "Count me against {topic}. There is a better way.",
  ],
  undecided: [
    "I cannot decide on {topic} yet. Convince me.",
    "There is sense on both sides of {topic}.",
    "Before I choose on {topic}, I want to hear more.",
  ],
};

const rebut = [
  "{name}, you said {said} I cannot agree.",
  "With respect, {name}: {said} That is not the whole of it.",
  "{name} says {said} I see it otherwise.",
];

const majority = (lines: ReadonlyArray<DebateLine>): Stance | null => {
  const forCount = lines.filter((l) => l.stance === "for").length;
  const against = lines.filter((l) => l.stance === "against").length;
  return forCount > against ? "for" : against > forCount ? "against" : null;
};

/** One participant's line in a round. */
export const debateTurnByRule = (
  input: DebateTurnInput,
  seed: number,
  prng: Prng,
  voice: Voice,
): DebateTurnOutput => {
  const mine = input.previous.filter((l) => l.speakerId === input.self.id);
  const leaning = Prng.derive(seed, "stance", input.debateId, input.self.id).float();
  const first: Stance = leaning < 0.42 ? "for" : leaning < 0.84 ? "against" : "undecided";
  let stance = mine[mine.length - 1]?.stance ?? first;
  const room = majority(input.previous.filter((l) => l.speakerId !== input.self.id));
  if (room !== null && room !== stance && prng.chance(stance === "undecided" ? 0.5 : 0.12))
    stance = room;
  const topic = input.topic.replace(/[.!?]+$/, "");
  const opponent = [...input.previous]
    .reverse()
    .find(
      (l) =>
        l.speakerId !== input.self.id &&
        l.stance !== stance &&
        input.participants.some((p) => p.id === l.speakerId),
    );
  const parts: Array<string> = [];
  if (opponent !== undefined && prng.chance(0.7))
    parts.push(
      fill(prng.pick(rebut), {
        name: opponent.speakerName,
        said: `"${snippet(opponent.text, 100)}"`,
      }),
    );
  parts.push(fill(prng.pick(argue[stance]), { topic }));
  if (prng.chance(0.3)) parts.push(prng.pick(voice.book.close));
  const text = parts.join(" ");
  return {
    text: text.length <= 600 ? text : `${text.slice(0, 599)}…`,
    stance,
    replyTo: opponent !== undefined && parts.length > 1 ? opponent.speakerId : null,
  };
};

/** The debate's summary and outcome, from the last stance of each speaker. */
export const summarizeByRule = (input: SummarizeDebateInput): SummarizeDebateOutput => {
  const topic = input.topic.replace(/[.!?]+$/, "");
  const last = new Map<string, DebateLine>();
  for (const line of input.turns) last.set(line.speakerId, line);
  const finals = [...last.values()];
  const named = (stance: Stance): Array<string> =>
    finals.filter((l) => l.stance === stance).map((l) => l.speakerName);
  const pro = named("for");
  const con = named("against");
  const unsure = named("undecided");
  if (finals.length === 0)
    return { summary: `The debate on ${topic} drew no speakers.`, outcome: "Nothing was decided." };
  const sentences: Array<string> = [];
  if (pro.length > 0) sentences.push(`${pro.slice(0, 3).join(", ")} argued for ${topic}.`);
  if (con.length > 0) sentences.push(`${con.slice(0, 3).join(", ")} spoke against it.`);
  if (unsure.length > 0) sentences.push(`${unsure.length} remained undecided.`);
  sentences.push(`${input.turns.length} lines were spoken over the debate.`);
  const outcome =
    pro.length > con.length
      ? `Carried: ${topic} (${pro.length} for, ${con.length} against).`
      : con.length > pro.length
        ? `Rejected: ${topic} (${con.length} against, ${pro.length} for).`
        : `No decision on ${topic}; the room was split.`;
  return { summary: sentences.join(" "), outcome };
};
