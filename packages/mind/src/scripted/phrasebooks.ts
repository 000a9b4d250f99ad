/**
 * The scripted brain's phrase tables, one per tone of voice. Templates take `{name}`
 * (the listener), `{fact}` (something the speaker knows, a sentence of its own: it only
 * ever follows a colon or a sentence's end), `{said}` (what was just said to it, quoted,
 * always a sentence of its own), `{task}` (a task title) and `{place}`. Many short variants per slot, combined
 * with a seeded choice of topic, keep a scripted town from sounding like one sentence.
 */
import type { Tone } from "./Voice.ts";

export interface Phrasebook {
  readonly greet: ReadonlyArray<string>;
  readonly share: ReadonlyArray<string>;
  readonly reply: ReadonlyArray<string>;
  readonly task: ReadonlyArray<string>;
  readonly small: ReadonlyArray<string>;
  readonly close: ReadonlyArray<string>;
  /** How this voice describes its own manner of speech, for profiles. */
  readonly style: string;
}

export const phrasebooks: Record<Tone, Phrasebook> = {
  warm: {
    greet: ["{name}, good to see you.", "Ah, {name}! Come, sit a while.", "There you are, {name}."],
    share: [
      "I heard something you should know: {fact}",
      "It has been on my mind all day: {fact}",
      "Between us, friend: {fact}",
    ],
    reply: ["{said} I've been thinking the same.", "I hear you. {said} That's no small thing."],
    task: ["I'm seeing to {task}; could you lend a hand later?", "{task} is nearly done, I hope."],
    small: [
      "How have you been keeping, truly?",
      "The light over {place} is lovely this time of day.",
      "Eat something, you look tired.",
    ],
    close: ["Take care of yourself.", "Come by anytime.", "We'll manage, you'll see."],
    style: "warm and unhurried, with kind words for everyone",
  },
  gruff: {
    greet: ["{name}.", "Hm. {name}.", "You again, {name}."],
    share: [
      "Word is this: {fact}",
      "Heard this: {fact} Make of it what you will.",
      "{fact} That's all.",
    ],
    reply: ["{said} So you say.", "Hm. {said} We'll see."],
    task: ["Busy. {task}.", "{task} won't do itself.", "Got {task} to finish. Don't slow me."],
    small: ["Cold one today.", "Nothing to say about {place} that you don't know.", "Keep moving."],
    close: ["Enough talk.", "That's it.", "Mind yourself."],
    style: "blunt and clipped, few words and no flourish",
  },
  formal: {
    greet: ["Good day, {name}.", "{name}, well met.", "A word, {name}, if you would."],
    share: [
      "You may wish to know this: {fact}",
      "I have it on good authority: {fact}",
      "It is worth noting: {fact}",
    ],
    reply: ["{said} I take your point.", "Indeed. {said} A fair observation."],
    task: ["I am occupied with {task} at present.", "{task} requires my attention, I am afraid."],
    small: [
      "The order of things in {place} holds, for now.",
      "I trust your duties go well.",
      "These are unsettled times; one must keep to one's post.",
    ],
    close: ["I shall not keep you.", "Until later, then.", "Good day."],
    style: "precise and formal, careful with every word",
  },
  sly: {
    greet: ["Well, well, {name}.", "{name}, just the person.", "Psst — {name}."],
    share: [
      "Keep this quiet: {fact}",
      "You didn't hear it from me: {fact}",
      "Funny thing. {fact} Makes you wonder who gains.",
    ],
    reply: ["{said} Interesting. And who told you that?", "Oh? {said} I'll remember that."],
    task: ["{task} — a small matter, and a useful one.", "I've taken on {task}. For now."],
    small: [
      "Everyone in {place} wants something. What do you want?",
      "Curious who's been coming and going lately.",
      "Prices will rise. They always do.",
    ],
    close: ["Our secret.", "We'll talk again.", "Not a word."],
    style: "sly and roundabout, full of hints and questions",
  },
  pious: {
    greet: ["Blessings, {name}.", "Peace on you, {name}.", "{name}, the day keeps you well."],
    share: [
      "I pray it means nothing. {fact}",
      "A sign, perhaps: {fact}",
      "We should keep this in our prayers: {fact}",
    ],
    reply: ["{said} May wisdom guide us.", "{said} Then we must be patient."],
    task: ["I am bound to {task}; it is a duty.", "{task} — by evening, with grace."],
    small: [
      "Even in {place} there is much to be thankful for.",
      "The old rites ask little of us, and give much.",
      "Have you rested? The body is a trust.",
    ],
    close: ["Go gently.", "Peace.", "Keep faith."],
    style: "gentle and reverent, fond of blessings and old sayings",
  },
  anxious: {
    greet: ["Oh — {name}, you startled me.", "{name}? Is everything all right?", "Hello, {name}…"],
    share: [
      "I can't stop worrying. {fact}",
      "Did you hear? {fact} What if it gets worse?",
      "Don't tell anyone I said so: {fact}",
    ],
    reply: ["{said} Are you sure? That frightens me.", "Oh. {said} I hadn't thought of that."],
    task: ["I must finish {task} or there'll be trouble.", "{task} — I hope I'm doing it right."],
    small: [
      "Something feels wrong in {place} lately.",
      "I barely slept.",
      "Do you think things will settle down?",
    ],
    close: ["Be careful, please.", "I should go.", "Sorry, I'm rambling."],
    style: "hesitant and worried, quick to apologise",
  },
  jovial: {
    greet: ["{name}! Just who I hoped to see!", "Ho, {name}!", "{name}, my friend!"],
    share: [
      "You'll never guess: {fact}",
      "Best news of the day, or worst: {fact}",
      "Have you heard? {fact} Ha!",
    ],
    reply: ["{said} Ha! Isn't that the truth.", "{said} Well, that's a tale for the tavern."],
    task: ["Off to {task} — wish me luck!", "{task}, then a drink. That's the plan."],
    small: [
      "What a day for it, eh?",
      "{place} is lively tonight — I love it.",
      "Tell me something good, I'm collecting them.",
    ],
    close: ["Cheers!", "Save me a seat later.", "Ha — until next time!"],
    style: "loud and cheerful, quick with a joke",
  },
  plain: {
    greet: ["Hello, {name}.", "{name}.", "Evening, {name}."],
    share: ["I heard this: {fact}", "Did you know? {fact}", "Something I learned: {fact}"],
    reply: ["{said} I see.", "Right. {said}"],
    task: ["I'm working on {task}.", "{task} is what I'm at today."],
    small: ["Quiet day in {place}.", "How's the work going?", "Weather's turning."],
    close: ["Well, back to it.", "See you around.", "That's all from me."],
    style: "plain and direct, neither warm nor cold",
  },
};
