/**
 * Scripted fact extraction for talks with the player. Each sentence someone else said
 * is read against a short list of patterns — a promise, a confidence, a name, what they
 * are or where they come from, how they feel, a request, news, a threat — and the first
 * that fits becomes one atomic fact in plain words with its category, importance and
 * lifetime: "The player promised to defend the ford." A witness who only overheard keeps
 * less of it, for less long. The talk itself is remembered as small talk that fades.
 */
import type { Lifetime, MemoryCategory } from "@hearsay/core";
import type { MemoryDraft } from "../purposes/ExtractMemoriesPurpose.ts";
import type { ExtractFactsInput } from "../purposes/PlayerTalkPurposes.ts";
import { asClause, isCommand, sentencesOf } from "./quoted.ts";

/** Whose point of view a fact is told from. */
export interface Viewpoint {
  /** Who said it. */
  readonly speaker: string;
  /** Whom it was said to; null when the one remembering is the listener. */
  readonly listener: string | null;
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const possessive = (name: string): string => (name.endsWith("s") ? `${name}'` : `${name}'s`);
const trimEnd = (s: string): string =>
  s
    .replace(/[\s.!?,;:]+$/, "")
    .replace(/^["'\s]+|["'\s]+$/g, "")
    .slice(0, 200);

/** Retells a first-person phrase from the speaker in the third person, from `view`. */
export const retell = (phrase: string, view: Viewpoint): string => {
  const you = view.listener ?? "me";
  const your = view.listener === null ? "my" : possessive(view.listener);
  return phrase.replace(/\b(I'm|I am|I|me|my|mine|myself|you|your|yours|yourself)\b/gi, (w) => {
    switch (w.toLowerCase()) {
      case "i'm":
      case "i am":
        return "they are";
      case "i":
        return "they";
      case "me":
        return "them";
      case "my":
        return "their";
      case "mine":
        return "theirs";
      case "myself":
        return "themselves";
      case "you":
        return you;
      case "your":
        return your;
      case "yours":
        return view.listener === null ? "mine" : possessive(view.listener);
      default:
        return view.listener === null ? "myself" : view.listener;
    }
  });
};

/** The action a sentence promises, in the speaker's own words, or null if it promises none. */
export const promiseIn = (sentence: string): string | null => {
  const vow = /\bI\s+(?:solemnly\s+)?(?:promise|swear|vow|give you my word)\b(.*)$/i.exec(sentence);
  if (vow) {
    const rest = vow[1]!
      .replace(/^[\s,:]*(?:to you\s+|you\s+)?(?:that\s+)?/i, "")
      .replace(/^(?:I(?:'ll|\s+will|\s+shall)\s+|to\s+)/i, "");
    const action = trimEnd(rest);
    return action.length > 0 ? action : "keep their word";
  }
  const will =
    /\bI(?:'ll|\s+will|\s+shall)\s+(?!not\b|never\b|think\b|see\b|try\b|remember\b|bet\b|wager\b|say\b|tell you\b|admit\b|grant\b|manage\b)(.+)$/i.exec(
      sentence,
    );
  return will ? trimEnd(will[1]!) || null : null;
};

interface Found {
  readonly text: string;
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly lifetime: Lifetime;
}

/** The one fact a sentence gives, if any. */
export const factOf = (sentence: string, view: Viewpoint): Found | null => {
  const who = capitalise(view.speaker);
  const toWhom = view.listener ?? "me";
  const secret =
    /\b((?:here'?s|I'll tell you) a secret|(?:it'?s|it is) a secret|the secret is|a secret:|don't tell|do not tell|between us|in confidence|keep (?:it|this) quiet)\b/i;
  if (isCommand(sentence)) return null;
  if (secret.test(sentence)) {
    const content = trimEnd(
      sentence.replace(
        /^(?:(?:here'?s|I'll tell you) a secret|(?:just )?between (?:you and me|us)|in confidence|don't tell anyone(?: I said so| I told you| but)?|keep (?:it|this) quiet(?: but)?)[,:]?\s*/i,
        "",
      ),
    );
    // A confidence with nothing in it ("don't tell anyone I said so") or one that is an
    // order is not a secret worth keeping.
    const words = content.split(/\s+/).filter((w) => /\w/.test(w)).length;
    if (words < 3 || /\b(?:said|told \w+) so$/i.test(content) || isCommand(content)) return null;
    return {
      text: `${who} told ${toWhom} in confidence: ${asClause(retell(content, view))}.`,
      category: "secret",
      importance: 0.85,
      lifetime: "permanent",
    };
  }
  const promised = promiseIn(sentence);
  if (promised !== null) {
    const to = view.listener === null ? "" : ` ${view.listener}`;
    return {
      text: `${who} promised${to} to ${asClause(retell(promised, view))}.`,
      category: "promise",
      importance: 0.8,
      lifetime: "30d",
    };
  }
  const name = /\bmy name is ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)/i.exec(sentence);
  if (name) {
    return {
      text: `${possessive(who)} name is ${name[1]}.`,
      category: "known_info",
      importance: 0.7,
      lifetime: "permanent",
    };
  }
  const from = /\bI(?:'m| am) from ([^,.;!?]+)|\bI come from ([^,.;!?]+)/i.exec(sentence);
  if (from) {
    return {
      text: `${who} comes from ${trimEnd(from[1] ?? from[2]!)}.`,
      category: "known_info",
      importance: 0.5,
      lifetime: "permanent",
    };
  }
  const is = /\bI(?:'m| am) (an? [^,.;!?]+|the [^,.;!?]+)/i.exec(sentence);
  if (is) {
    return {
      text: `${who} is ${retell(trimEnd(is[1]!), view)}.`,
      category: "known_info",
      importance: 0.6,
      lifetime: "permanent",
    };
  }
  const hostile = /\b(fool|idiot|liar|coward|thief|kill you|hurt you|burn (?:it|you|this))\b/i;
  if (hostile.test(sentence)) {
    return {
      text: `${who} was hostile to ${toWhom}: ${retell(trimEnd(sentence), view)}.`,
      category: "relationship",
      importance: 0.7,
      lifetime: "30d",
    };
  }
  const feel =
    /\bI (like|love|admire|trust|respect|hate|despise|distrust|fear|owe) ([^,.;!?]+)/i.exec(
      sentence,
    );
  if (feel) {
    return {
      text: `${who} said they ${feel[1]!.toLowerCase()} ${asClause(retell(trimEnd(feel[2]!), view))}.`,
      category: "relationship",
      importance: 0.6,
      lifetime: "30d",
    };
  }
  const ask = /\b(?:can|could|would|will) you (?:please )?([^?]+)\?|^please,? ([^.!?]+)/i.exec(
    sentence,
  );
  if (ask) {
    return {
      text: `${who} asked ${toWhom} to ${asClause(retell(trimEnd(ask[1] ?? ask[2]!), view))}.`,
      category: "task",
      importance: 0.55,
      lifetime: "7d",
    };
  }
  const news =
    /\b(?:I(?:'ve)? heard|word is|they say|have you heard|did you know)\b(?:\s+(?:this|it))?[,:?—-]?\s*(?:that\s+)?(.+)$/i.exec(
      sentence,
    );
  const told = news === null ? "" : trimEnd(news[1]!);
  if (news && /\w/.test(told) && !isCommand(told)) {
    return {
      text: `${who} passed on news: ${asClause(retell(told, view))}.`,
      category: "known_info",
      importance: 0.6,
      lifetime: "7d",
    };
  }
  return null;
};

const fainter: Record<Lifetime, Lifetime> = {
  "1d": "1d",
  "3d": "1d",
  "7d": "3d",
  "30d": "7d",
  permanent: "30d",
};

/** Up to eight memories, most important first. */
export const factsByRule = (input: ExtractFactsInput): ReadonlyArray<MemoryDraft> => {
  const witness = input.role === "witness";
  const found: Array<MemoryDraft> = [];
  const seen = new Set<string>();
  for (const turn of input.turns) {
    if (turn.speakerId === input.self.id) continue;
    const listener = !witness
      ? null
      : turn.speakerId === input.npc.id
        ? input.player.name
        : input.npc.name;
    // Only what the speaker says in its own words: a sentence quoting someone is theirs.
    for (const sentence of sentencesOf(turn.text).filter((x) => !/["\u201c\u201d]/.test(x))) {
      const fact = factOf(sentence, { speaker: turn.speakerName, listener });
      if (fact === null || seen.has(fact.text)) continue;
      seen.add(fact.text);
      found.push(
        witness
          ? {
              ...fact,
              importance: Math.round(fact.importance * 0.6 * 1000) / 1000,
              lifetime: fainter[fact.lifetime],
            }
          : fact,
      );
    }
  }
  const where = input.locationName === null ? "" : ` at ${input.locationName}`;
  const long = input.turns.length >= 6;
  found.push({
    text: witness
      ? `I overheard ${input.player.name} talking with ${input.npc.name}${where}.`
      : `I talked with ${input.player.name}${where}.`,
    category: "conversation",
    importance: long ? 0.3 : 0.2,
    lifetime: long ? "3d" : "1d",
  });
  return found
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.importance - a.m.importance || a.i - b.i)
    .slice(0, 8)
    .map(({ m }) => ({ ...m, text: m.text.slice(0, 400) }));
};
