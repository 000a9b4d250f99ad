/**
 * Scripted debates. A participant's first stance is a seeded leaning on the topic; in
 * later rounds it holds, or drifts toward the room's majority (the undecided readily,
 * the decided rarely). Its line answers the last speaker who disagreed, in its voice.
 * The summary counts the stances, names the leading voices, and states the outcome; a
 * turn that closes the debate carries that summary of every line, its own included.
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
import { quoted } from "./quoted.ts";
import { sentence, topicRef } from "./topicRef.ts";
import { fill, type Voice } from "./Voice.ts";

const argue: Record<Stance, ReadonlyArray<string>> = {
  for: [
    "On {topic}, I say yes. Waiting only makes it harder.",
    "I am for it, on {topic}, and I will say so to anyone.",
    "We have talked enough about {topic}. I back it.",
  ],
  against: [
    "On {topic}, no. It would cost us more than it gives.",
    "I stand against it, on {topic}; we have seen where such things lead.",
    "Count me against it, on {topic}. There is a better way.",
  ],
  undecided: [
    "I cannot decide on {topic} yet. Convince me.",
    "There is sense on both sides of {topic}.",
    "Before I choose on {topic}, I want to hear more.",
  ],
};

/** `{said}` is the opponent's words, quoted, always a sentence of its own. */
const rebut = [
  "{said} So says {name}, and I cannot agree.",
  "With respect, {name}: {said} That is not the whole of it.",
  "{said} So {name} says. I see it otherwise.",
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
  const topic = topicRef(input.topic);
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
        said: quoted(opponent.text, 100),
      }),
    );
  parts.push(fill(prng.pick(argue[stance]), { topic }));
  if (prng.chance(0.3)) parts.push(prng.pick(voice.book.close));
  const whole = parts.join(" ");
  const text = whole.length <= 600 ? whole : `${whole.slice(0, 599)}…`;
  const answered = opponent !== undefined && parts.length > 1 ? opponent : undefined;
  const own: DebateLine = { speakerId: input.self.id, speakerName: input.self.name, text, stance };
  return {
    text,
    stance,
    replyTo: answered?.speakerId ?? null,
    // Answering someone who argues the other side cools trust a little, never by chance.
    ...(answered === undefined
      ? {}
      : {
          regard: {
            trust: -0.01,
            respect: 0,
            suspicion: 0.01,
            reason: `disagreed with ${answered.speakerName} in a debate`,
          },
        }),
    // The closing speaker has heard every line: the summary is the one a separate call
    // would give for the same lines.
    ...(input.closes === true
      ? summarizeByRule({
          debateId: input.debateId,
          topic: input.topic,
          participants: input.participants,
          turns: [...input.previous, own],
        })
      : {}),
  };
};

/** The debate's summary and outcome, from the last stance of each speaker. */
export const summarizeByRule = (input: SummarizeDebateInput): SummarizeDebateOutput => {
  const topic = topicRef(input.topic);
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
  const sentences: Array<string> = [sentence(`The debate was on ${topic}`)];
  if (pro.length > 0) sentences.push(`${listNames(pro)} argued for it.`);
  if (con.length > 0) sentences.push(`${listNames(con)} spoke against it.`);
  if (unsure.length > 0) sentences.push(`${unsure.length} remained undecided.`);
  sentences.push(`${input.turns.length} lines were spoken over the debate.`);
  const outcome =
    pro.length > con.length
      ? sentence(`Carried, ${pro.length} for and ${con.length} against, on ${topic}`)
      : con.length > pro.length
        ? `Rejected, ${con.length} against and ${pro.length} for, on ${topic}.`
        : `No decision on ${topic}; the room was split.`;
  return { summary: sentences.join(" "), outcome };
};

/** Up to three names: "A", "A and B", "A, B and C". */
const listNames = (names: ReadonlyArray<string>): string => {
  const few = names.slice(0, 3);
  return few.length <= 1 ? (few[0] ?? "") : `${few.slice(0, -1).join(", ")} and ${few.at(-1)}`;
};
