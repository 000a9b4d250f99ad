/**
 * The scripted scene summary: one witness's memory of a scene, in its own voice. It
 * quotes only the lines the witness heard or said, names only those it shared the scene
 * with, and adds what it made of it from how it regards them — so two witnesses of the
 * same scene remember it differently, and neither remembers what it did not hear.
 */
import type { Prng } from "@hearsay/core";
import type {
  SceneLine,
  SummarizeSceneInput,
  SummarizeSceneOutput,
} from "../purposes/SummarizeScenePurpose.ts";
import { quoted, snippet } from "./quoted.ts";
import { remembered } from "./remembered.ts";
import { sentence, topicRef } from "./topicRef.ts";
import { fill, type Tone, type Voice } from "./Voice.ts";

interface ScenePhrases {
  /** `{place}`, `{names}`. */
  readonly opener: ReadonlyArray<string>;
  /** `{speaker}`, `{said}`. */
  readonly heard: ReadonlyArray<string>;
  /** `{listener}`, `{said}`. */
  readonly told: ReadonlyArray<string>;
  /** `{name}`: someone it regards well, badly, or neither. */
  readonly fond: ReadonlyArray<string>;
  readonly wary: ReadonlyArray<string>;
  readonly plain: ReadonlyArray<string>;
}

const phrases: Record<Tone, ScenePhrases> = {
  warm: {
    opener: ["A good while at {place} with {names}.", "I spent time at {place} with {names}."],
    heard: ["{speaker} told me, {said}", "{speaker} confided, {said}"],
    told: ["I said to {listener}, {said}", "I told {listener}, {said}"],
    fond: ["It warmed me to see {name}.", "{name} is dear to me, and it showed."],
    wary: ["I worry about {name}, truth be told.", "Something troubles me about {name}."],
    plain: ["I'll keep it in mind.", "It was good to talk."],
  },
  gruff: {
    opener: ["{place}. {names}. Talk.", "Was at {place}. {names} there."],
    heard: ["{speaker}: {said}", "{speaker} said {said} Hm."],
    told: ["Told {listener}: {said}", "I said {said} to {listener}."],
    fond: ["{name}'s all right.", "{name} can be trusted. Mostly."],
    wary: ["Don't like {name}.", "I'll watch {name}."],
    plain: ["That's all.", "Nothing more to it."],
  },
  formal: {
    opener: [
      "I attended at {place} in the company of {names}.",
      "At {place} I conferred with {names}.",
    ],
    heard: ["{speaker} remarked, {said}", "{speaker} observed, {said}"],
    told: ["I advised {listener}: {said}", "I put it to {listener}: {said}"],
    fond: ["{name} conducted themself creditably.", "I think well of {name}."],
    wary: ["I have reservations about {name}.", "{name} warrants caution."],
    plain: ["I note it for the record.", "The matter bears consideration."],
  },
  sly: {
    opener: ["At {place}, {names} talked — and I listened.", "{place}, with {names}. Useful."],
    heard: ["{speaker} let slip, {said}", "{speaker} said, {said} Interesting."],
    told: ["I let {listener} believe, {said}", "I told {listener}, {said}"],
    fond: ["{name} may prove useful.", "{name} trusts me. Good."],
    wary: ["{name} knows more than they say.", "I must keep an eye on {name}."],
    plain: ["Worth remembering.", "Every word has its price."],
  },
  pious: {
    opener: [
      "At {place}, by grace, I was with {names}.",
      "I kept company with {names} at {place}.",
    ],
    heard: ["{speaker} said, {said}", "{speaker} spoke: {said}"],
    told: ["I counselled {listener}: {said}", "I said to {listener}, {said}"],
    fond: ["Bless {name}.", "{name} has a good heart."],
    wary: ["I will pray for {name}.", "{name} strays, I fear."],
    plain: ["It is in other hands now.", "So it was."],
  },
  anxious: {
    opener: [
      "I was at {place} with {names}, and I kept thinking.",
      "At {place}, {names} — so many.",
    ],
    heard: ["{speaker} said, {said} — what did they mean?", "{speaker} told me, {said}"],
    told: ["I told {listener}, {said} — I hope that was right.", "I said to {listener}, {said}"],
    fond: ["At least {name} was kind.", "I felt safer with {name} there."],
    wary: ["{name} frightens me a little.", "I don't think {name} likes me."],
    plain: ["I hope nothing comes of it.", "I keep turning it over."],
  },
  jovial: {
    opener: ["What a time at {place} with {names}!", "Good fun at {place} with {names}."],
    heard: ["{speaker} piped up, {said}", "{speaker} said, {said} Ha!"],
    told: ["I told {listener}, {said}", "I said to {listener}, {said}"],
    fond: ["{name} is a treasure.", "Nobody tells it like {name}."],
    wary: ["{name} was in a sour mood.", "Couldn't get a laugh out of {name}."],
    plain: ["Quite a day.", "I'll dine out on that."],
  },
  plain: {
    opener: ["I was at {place} with {names}.", "At {place} I talked with {names}."],
    heard: ["{speaker} said, {said}", "{speaker} told me, {said}"],
    told: ["I told {listener}, {said}", "I said to {listener}, {said}"],
    fond: ["I get on with {name}.", "{name} was good company."],
    wary: ["I'm not sure about {name}.", "{name} was hard to read."],
    plain: ["That was that.", "I'll remember it."],
  },
};

const MAX = 1000;

const joinNames = (names: ReadonlyArray<string>): string =>
  names.length <= 1
    ? (names[0] ?? "no one in particular")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

/**
 * The pattern of a name's first word, by name: every summary asks it of each one present
 * for each line, and a name's pattern never changes (it has no `g` flag, so no state).
 */
const firstNames = remembered((name: string, _: number): RegExp => {
  const first = name.split(" ")[0] ?? name;
  return new RegExp(`\\b${first.replace(/\W/g, "")}\\b`);
}, 65_536);

const firstNameOf = (name: string): RegExp => firstNames(name, 0);

const mentions = (text: string, name: string): boolean =>
  text.includes(name) || firstNameOf(name).test(text);

/** The lines worth quoting: the first and the last said by others, at most two, no repeats. */
const quotable = (lines: ReadonlyArray<SceneLine>): ReadonlyArray<SceneLine> => {
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (first === undefined || last === undefined) return [];
  return first === last || first.text === last.text ? [first] : [first, last];
};

export const summarizeSceneByRule = (
  input: SummarizeSceneInput,
  prng: Prng,
  voice: Voice,
): SummarizeSceneOutput => {
  const book = phrases[voice.tone];
  const self = input.self.id;
  const nameOf = new Map(input.company.map((c) => [c.id as string, c.name]));
  const heard = input.lines.filter((l) => l.speakerId !== self);
  const said = input.lines.filter((l) => l.speakerId === self);
  // Who it actually dealt with: spoke with, was spoken to by, or debated alongside.
  const involved = input.company.filter(
    (c) =>
      input.lines.some((l) => l.speakerId === c.id || l.listenerIds.includes(c.id)) ||
      input.debates.length > 0,
  );
  const sentences: Array<string> = [
    fill(prng.pick(book.opener), {
      place: input.locationName,
      names: joinNames(involved.slice(0, 4).map((c) => c.name)),
    }),
  ];
  for (const line of quotable(heard)) {
    sentences.push(
      fill(prng.pick(book.heard), { speaker: line.speakerName, said: quoted(line.text, 110) }),
    );
  }
  const own = said[said.length - 1];
  if (own !== undefined) {
    const to = own.listenerIds.map((id) => nameOf.get(id)).find((n) => n !== undefined);
    sentences.push(
      fill(prng.pick(book.told), { listener: to ?? "them", said: quoted(own.text, 90) }),
    );
  }
  for (const d of input.debates.slice(0, 2)) {
    sentences.push(`${sentence(`We argued over ${topicRef(d.topic)}`)} ${snippet(d.outcome, 160)}`);
  }
  const seen = input.happenings[0];
  if (seen !== undefined) sentences.push(`I saw it myself: ${snippet(seen, 160)}`);
  // What it made of it: how it regards the one it dealt with most.
  const weight = (id: string) =>
    input.lines.filter((l) => l.speakerId === id || l.listenerIds.includes(id as never)).length;
  const main = [...involved].sort(
    (a, b) => weight(b.id) - weight(a.id) || (a.id < b.id ? -1 : 1),
  )[0];
  if (main !== undefined && main.regard > 0.2)
    sentences.push(fill(prng.pick(book.fond), { name: main.name }));
  else if (main !== undefined && main.regard < -0.2)
    sentences.push(fill(prng.pick(book.wary), { name: main.name }));
  else sentences.push(prng.pick(book.plain));

  let summary = "";
  for (const s of sentences) {
    const next = summary === "" ? s : `${summary} ${s}`;
    if (next.length > MAX) break;
    summary = next;
  }
  const mentioned = input.company.filter((c) =>
    input.lines.some((l) => l.speakerId !== c.id && mentions(l.text, c.name)),
  );
  const about = [...new Set([...involved, ...mentioned].map((c) => c.id))].sort().slice(0, 8);
  const importance = Math.min(
    0.9,
    0.25 + 0.04 * input.lines.length + 0.15 * input.debates.length + 0.1 * input.happenings.length,
  );
  return { summary, importance: Math.round(importance * 100) / 100, about };
};
