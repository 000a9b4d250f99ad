/**
 * An NPC's tone of voice, read from its traits and speech style. The scripted brain
 * speaks, works and argues in this tone, so a gruff smith and a devout healer say
 * different things about the same storm.
 */
import { type Phrasebook, phrasebooks } from "./phrasebooks.ts";
import { remembered } from "./remembered.ts";

export type Tone = "warm" | "gruff" | "formal" | "sly" | "pious" | "anxious" | "jovial" | "plain";

const cues: ReadonlyArray<readonly [Tone, ReadonlyArray<string>]> = [
  [
    "gruff",
    [
      "gruff",
      "blunt",
      "stubborn",
      "terse",
      "curt",
      "harsh",
      "brusque",
      "clipped",
      "taciturn",
      "grim",
      "surly",
    ],
  ],
  [
    "formal",
    [
      "formal",
      "dignified",
      "scholar",
      "learned",
      "precise",
      "proper",
      "stern",
      "courteous",
      "measured",
      "disciplined",
    ],
  ],
  [
    "sly",
    [
      "cunning",
      "sly",
      "scheming",
      "ambitious",
      "greedy",
      "secretive",
      "shrewd",
      "sarcastic",
      "calculating",
      "sharp",
    ],
  ],
  [
    "pious",
    ["pious", "devout", "faithful", "reverent", "superstitious", "spiritual", "serene", "mystic"],
  ],
  [
    "anxious",
    [
      "nervous",
      "anxious",
      "timid",
      "cautious",
      "fearful",
      "shy",
      "worried",
      "skittish",
      "paranoid",
    ],
  ],
  [
    "jovial",
    [
      "cheerful",
      "jovial",
      "boisterous",
      "witty",
      "merry",
      "playful",
      "talkative",
      "loud",
      "curious",
      "charming",
    ],
  ],
  [
    "warm",
    [
      "kind",
      "warm",
      "gentle",
      "friendly",
      "generous",
      "caring",
      "compassionate",
      "loyal",
      "patient",
      "honest",
    ],
  ],
];

/** The tone its traits and speech style point to most; `plain` when nothing matches. */
export const toneOf = (traits: ReadonlyArray<string>, speechStyle: string | null): Tone => {
  const words = [...traits, speechStyle ?? ""].join(" ").toLowerCase();
  let best: Tone = "plain";
  let bestScore = 0;
  for (const [tone, keys] of cues) {
    let score = 0;
    for (const key of keys) if (words.includes(key)) score++;
    if (score > bestScore) {
      best = tone;
      bestScore = score;
    }
  }
  return best;
};

/** A tone with its phrasebook. */
export interface Voice {
  readonly tone: Tone;
  readonly book: Phrasebook;
}

/** Voices by traits and style: every scripted call asks, and an NPC's traits never change. */
const voices = new Map<string, Voice>();
const VOICE_CACHE_LIMIT = 65_536;

export const voiceOf = (traits: ReadonlyArray<string>, speechStyle: string | null): Voice => {
  const key = `${traits.join("\u0000")}\u0001${speechStyle ?? ""}`;
  let voice = voices.get(key);
  if (voice === undefined) {
    const tone = toneOf(traits, speechStyle);
    voice = { tone, book: phrasebooks[tone] };
    if (voices.size >= VOICE_CACHE_LIMIT) voices.clear();
    voices.set(key, voice);
  }
  return voice;
};

const SLOT = /\{(\w+)\}/g;

/**
 * A template's text between its slots and the slots' names, alternating (text, name, …,
 * text): the templates are the phrasebooks' few hundred, filled again and again, so each
 * is split once rather than searched by a pattern at every fill.
 */
const splitTemplates = remembered((template: string, _: number): ReadonlyArray<string> => {
  const split: Array<string> = [];
  let last = 0;
  for (const slot of template.matchAll(SLOT)) {
    split.push(template.slice(last, slot.index), slot[1]!);
    last = slot.index + slot[0].length;
  }
  split.push(template.slice(last));
  return split;
}, 65_536);

const partsOf = (template: string): ReadonlyArray<string> => splitTemplates(template, 0);

/** Fills `{slot}`s in a template; unknown slots are left as they are. */
export const fill = (template: string, slots: Readonly<Record<string, string>>): string => {
  const parts = partsOf(template);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i]!;
    out += (slots[key] ?? `{${key}}`) + parts[i + 1]!;
  }
  return out;
};
