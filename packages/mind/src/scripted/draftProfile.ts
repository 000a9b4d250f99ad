/**
 * Scripted first-meeting profiles: a short backstory assembled from the NPC's role,
 * place, faction and traits, with goals, fears and loyalties that fit them and a
 * relationship seed naming the people it already likes and distrusts.
 */
import type { NpcProfile, Prng } from "@hearsay/core";
import type { ProfileInput } from "../purposes/ProfilePurpose.ts";
import { fill, type Voice } from "./Voice.ts";

const origins = [
  "{name} was born in {place} and has never wanted to live anywhere else.",
  "{name} came to {place} as a child, after a hard winter emptied the family's village.",
  "{name} arrived in {place} a stranger, and it took years before anyone trusted them.",
  "{name} inherited the trade from a parent who still talks about how it used to be done.",
  "{name} left {place} once, young and restless, and came back older and quieter.",
];

const trades = [
  "Most days find them working as a {role}, and they are good at it.",
  "As a {role} they are known for finishing what they start.",
  "They took up work as a {role} out of need, and stayed out of pride.",
];

const sworn = [
  "Sworn to {faction}, they keep its interests close.",
  "They stand with {faction}, though not always without doubts.",
  "{faction} gave them a place when they had none, and they have not forgotten it.",
];

const goalsByTone: Record<string, ReadonlyArray<string>> = {
  warm: ["keep the people they love safe", "see the neighbourhood through the winter"],
  gruff: ["be left alone to do good work", "pay off an old debt"],
  formal: ["rise to a position of trust", "see order kept in {place}"],
  sly: ["learn what others hide", "come out ahead when things change"],
  pious: ["keep the old rites alive", "earn forgiveness for an old wrong"],
  anxious: ["keep out of trouble", "save enough to feel secure"],
  jovial: ["make {place} a livelier place", "be remembered fondly"],
  plain: ["do honest work", "see their trade prosper"],
};

const fearsByTone: Record<string, ReadonlyArray<string>> = {
  warm: ["losing a friend to the coming trouble", "being unable to help"],
  gruff: ["looking weak", "owing anyone"],
  formal: ["disgrace", "disorder"],
  sly: ["being found out", "being someone else's pawn"],
  pious: ["the signs coming true", "a faithless end"],
  anxious: ["strangers", "the dark", "being blamed"],
  jovial: ["being alone", "silence"],
  plain: ["hard times", "fire"],
};

/** A profile for the NPC, in its voice. */
export const draftProfile = (input: ProfileInput, prng: Prng, voice: Voice): NpcProfile => {
  const self = input.self;
  const slots = {
    name: self.name,
    place: input.locationName,
    role: self.role,
    faction: input.factionName ?? "",
  };
  const lines = [fill(prng.pick(origins), slots), fill(prng.pick(trades), slots)];
  if (input.factionName !== null) lines.push(fill(prng.pick(sworn), slots));
  if (self.traits.length > 0)
    lines.push(`People would call them ${self.traits.slice(0, 3).join(", ")}.`);
  const sorted = [...input.acquaintances].sort(
    (a, b) => b.regard - a.regard || (a.id < b.id ? -1 : 1),
  );
  const best = sorted[0];
  const worst = sorted[sorted.length - 1];
  const seed =
    best === undefined
      ? `${self.name} is slow to trust new faces but remembers kindness.`
      : worst !== undefined && worst !== best && worst.regard < 0
        ? `${self.name} trusts ${best.name} most and keeps a wary eye on ${worst.name}.`
        : `${self.name} trusts ${best.name} most, and is civil to the rest.`;
  const loyalties = [input.factionName, input.locationName, best?.name ?? null].filter(
    (x): x is string => x !== null && x.length > 0,
  );
  return {
    backstory: lines.join(" "),
    personality:
      self.traits.length > 0 ? self.traits.join(", ") : `${voice.tone} and even-tempered`,
    speechStyle: self.speechStyle ?? voice.book.style,
    goals: prng.shuffle(goalsByTone[voice.tone] ?? []).map((g) => fill(g, slots)),
    fears: prng.shuffle(fearsByTone[voice.tone] ?? []).slice(0, 2),
    loyalties,
    relationshipSeed: seed,
  };
};
