/**
 * The scripted consolidation: one opening sentence naming the subject and how much is
 * being put together, then what the oldest and the newest of the memories said, each as
 * its first sentence that quotes nothing (`quotable`), so nothing quoted ends up inside
 * anything else and no text is cut mid-word. A bare fragment ("The Long Stable.") says
 * nothing a summary needs: only sentences of a few words are kept.
 */
import { MINUTES_PER_DAY } from "@hearsay/core";
import type {
  ConsolidateMemoriesInput,
  ConsolidateMemoriesOutput,
} from "../purposes/ConsolidateMemoriesPurpose.ts";
import { quotable } from "./quoted.ts";

const MAX_SENTENCE = 240;
/** Fewer words than this is a fragment, not something remembered. */
const MIN_WORDS = 4;

const spanOf = (days: number): string =>
  days < 1 ? "a single day" : days < 2 ? "a couple of days" : `${Math.round(days)} days`;

export const consolidateByRule = (input: ConsolidateMemoriesInput): ConsolidateMemoriesOutput => {
  const { memories, subject } = input;
  const first = memories[0]!;
  const last = memories[memories.length - 1]!;
  const days = (last.recordedAt - first.recordedAt) / MINUTES_PER_DAY;
  const count = memories.length === 1 ? "one memory" : `${memories.length} memories`;
  const sentences = [
    `What I keep of ${subject.name} is the gist of ${count} from ${spanOf(days)}.`,
  ];
  for (const m of memories.length === 1 ? [first] : [first, last]) {
    const said = quotable(m.text, MAX_SENTENCE);
    if (said !== null && said.split(/\s+/).length >= MIN_WORDS && !sentences.includes(said))
      sentences.push(said);
  }
  if (sentences.length === 1) sentences.push("Nothing of it stands out any more.");
  return { summary: sentences.join(" ") };
};
