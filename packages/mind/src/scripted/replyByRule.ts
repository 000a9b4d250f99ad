/**
 * The scripted NPC's answer to the player. It reads the message for what it most needs
 * answering — a promise (acknowledged and held to), a question about what was said
 * before (answered from the summary and the memories in its dossier, never from
 * anything else), a confidence, a threat, an offer of help (answered with a task
 * proposal for the game to validate), a greeting — and otherwise shares something it
 * knows or makes small talk in its own tone of voice.
 */
import type { DossierReader, Prng } from "@hearsay/core";
import type { ProposedAction, ReplyInput, ReplyOutput } from "../purposes/ReplyPurpose.ts";
import { promiseIn } from "./factsByRule.ts";
import { sentencesOf, snippet } from "./quoted.ts";
import type { Tone, Voice } from "./Voice.ts";

const openers: Record<Tone, ReadonlyArray<string>> = {
  warm: ["Ah, good.", "I'm glad you said so.", "Come, sit a moment."],
  gruff: ["Hm.", "Fine.", "Right."],
  formal: ["Indeed.", "Very well.", "I see."],
  sly: ["Is that so?", "Interesting.", "Well, well."],
  pious: ["Blessings on you.", "As the saints will it.", "Peace."],
  anxious: ["Oh — oh, I see.", "Well, if you say so.", "I suppose so."],
  jovial: ["Ha! Good.", "Now there's a thing!", "Well, friend!"],
  plain: ["I see.", "All right.", "Fair enough."],
};

/** A promise as the NPC says it back to the player: "you promised to defend my ford". */
const toSecondPerson = (phrase: string): string =>
  phrase.replace(/\b(I'm|I am|I|me|my|mine|myself|you|your|yours)\b/gi, (w) => {
    switch (w.toLowerCase()) {
      case "i'm":
      case "i am":
        return "you are";
      case "i":
      case "me":
        return "you";
      case "my":
        return "your";
      case "mine":
        return "yours";
      case "myself":
        return "yourself";
      case "you":
        return "me";
      case "your":
        return "my";
      default:
        return "mine";
    }
  });

/** What the NPC remembers the player promised: from its summary and its dossier memories. */
const promisesRecalled = (
  input: ReplyInput,
  dossier: DossierReader | null,
): ReadonlyArray<string> => {
  const found: Array<string> = [];
  const add = (s: string) => {
    const clean = s.replace(/^\([^)]*\)\s*/, "").trim();
    if (/\bpromised\b/.test(clean) && !found.includes(clean)) found.push(clean);
  };
  for (const s of sentencesOf(input.summary ?? "")) add(s);
  for (const item of dossier?.section("memories")?.items ?? [])
    for (const s of sentencesOf(item.text)) add(s);
  for (const t of input.turns)
    if (t.speakerId === input.player.id) {
      for (const s of sentencesOf(t.text)) {
        const p = promiseIn(s);
        if (p !== null) add(`You promised to ${toSecondPerson(p)}.`);
      }
    }
  return found.slice(0, 3);
};

const knownTidbit = (dossier: DossierReader | null, prng: Prng): string | null => {
  // world_events before debates: the dossier's section order.
  const items = [
    ...(dossier?.section("world_events")?.items ?? []),
    ...(dossier?.section("debates")?.items ?? []),
  ];
  if (items.length === 0) return null;
  const item = prng.pick([...items].sort((a, b) => b.score - a.score).slice(0, 3));
  return snippet(item.text.replace(/^[^:]*\d{2}:\d{2}:\s*/, ""), 180);
};

export const replyByRule = (
  input: ReplyInput,
  dossier: DossierReader | null,
  prng: Prng,
  voice: Voice,
): ReplyOutput => {
  const m = input.message;
  const parts: Array<string> = [];
  const actions: Array<ProposedAction> = [];
  const place = input.locationName ?? "here";
  const opener = prng.pick(openers[voice.tone]);
  const promised = sentencesOf(m)
    .map(promiseIn)
    .find((p) => p !== null);

  if (
    input.turns.length <= 1 &&
    /\b(hello|hi|greetings|good (?:morning|day|evening)|well met|hail)\b/i.test(m)
  )
    parts.push(`Well met. I'm ${input.self.name}, the ${input.self.role}.`);
  if (/\b(remember|recall|what did I (?:say|promise)|did I promise|my promise)\b/i.test(m)) {
    const recalled = promisesRecalled(input, dossier);
    parts.push(
      recalled.length > 0
        ? `I remember. ${recalled.join(" ")}`
        : "You've promised me nothing that I recall.",
    );
  } else if (promised !== undefined && promised !== null) {
    parts.push(`${opener} I'll hold you to that — you promised to ${toSecondPerson(promised)}.`);
  } else if (/\b(secret|between us|in confidence|don't tell)\b/i.test(m)) {
    parts.push("Your secret is safe with me.");
  } else if (/\b(fool|idiot|liar|coward|thief|kill you|hurt you)\b/i.test(m)) {
    parts.push("Mind your tongue, stranger. I'll not be spoken to like that.");
  } else if (/\b(work|job|task|need a hand|help you|anything I can do)\b/i.test(m)) {
    actions.push({
      kind: "assign_task",
      title: `Help ${input.self.name} at ${place}`,
      description: `${input.self.name} (${input.self.role}) asked ${input.player.name} to lend a hand at ${place}.`,
    });
    parts.push(`There's work if you want it: lend me a hand at ${place}, and I'll not forget it.`);
  } else if (/\bmy name is\b/i.test(m)) {
    parts.push(`${opener} I'll remember the name.`);
  } else if (/\?\s*$/.test(m)) {
    const tidbit = knownTidbit(dossier, prng);
    parts.push(tidbit === null ? "I couldn't rightly say." : `All I know is this: ${tidbit}`);
  } else if (parts.length === 0) {
    const tidbit = prng.chance(0.4) ? knownTidbit(dossier, prng) : null;
    parts.push(tidbit === null ? opener : `${opener} Have you heard? ${tidbit}`);
  }
  if (input.regard.suspicion > 0.5) parts.push("I'm watching you, mind.");
  const text = parts.join(" ").slice(0, 800);
  return { text: text.length > 0 ? text : opener, actions };
};
