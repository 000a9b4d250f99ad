/**
 * What a scripted NPC says. A line is a greeting, one body and sometimes a closer, in
 * the speaker's voice; the body replies to what was just said, shares something the
 * speaker knows (a world event, memory, debate or lore item from its dossier — so it
 * only ever repeats what it may know), mentions its task, or makes small talk.
 */
import {
  type DossierItem,
  type DossierReader,
  type DossierSectionName,
  dossierSectionNames,
  type Prng,
  type RegardLevels,
} from "@hearsay/core";
import type { RegardChange } from "../purposes/Fields.ts";
import { quotable, quoted, snippet, unquotedText } from "./quoted.ts";
import { fill, type Tone, type Voice } from "./Voice.ts";

/**
 * A dossier item's text as something said aloud: without the dossier's time stamp
 * ("(day 2, 16:00) ", "day 0, 08:00: ") and with a memory's "About X: " heading turned
 * into speech.
 */
export const spoken = (text: string): string =>
  text
    .replace(/^\(day \d+, \d\d:\d\d\)\s*/, "")
    .replace(/^day \d+, \d\d:\d\d:\s*/, "")
    .replace(/^About ([^:]{1,60}):\s*/, "$1 — ");

/** The items of the sections named, in the dossier's section order; only those are built. */
const itemsOf = (
  dossier: DossierReader | null,
  names: ReadonlyArray<DossierSectionName>,
): Array<DossierItem> =>
  dossier === null
    ? []
    : dossierSectionNames
        .filter((name) => names.includes(name))
        .flatMap((name) => dossier.section(name)?.items ?? []);

/** Picks from the best-scored few, so lines favour what matters without repeating it. */
const pickTop = (prng: Prng, items: ReadonlyArray<DossierItem>): DossierItem =>
  prng.pick([...items].sort((a, b) => b.score - a.score).slice(0, 4));

export interface LineContext {
  readonly prng: Prng;
  readonly voice: Voice;
  readonly partnerName: string;
  readonly placeName: string;
  readonly taskTitle: string | null;
  /**
   * What the speaker may know. Read only when the line draws on it (a reply or something
   * shared): a dossier is most of what a scripted turn costs, and the engine builds each
   * section on its first read, so small talk and talk of its task never pay for one.
   */
  readonly dossier: DossierReader | null;
}

/**
 * What a line may pass on: what happened, what was debated, what everyone knows. Not its
 * memories: those are of talk (quoting or retelling someone) or of itself (in the first
 * person), and retold they read as one template inside another ("I have it on good
 * authority: I talked with …").
 */
const NEWS: ReadonlyArray<DossierSectionName> = ["world_events", "debates", "lore"];

/** How a line's body is chosen: one draw, before the dossier is looked at. */
const REPLY_SHARE = 0.5;
const SHARE = 0.65;
const TASK = 0.5;

/**
 * A line of speech, at most 600 characters. The body is drawn first — a reply to the
 * last thing said, something known, the task, or small talk — and the dossier is read
 * only for the first two (falling back to the next kind when it holds nothing to use).
 */
export const composeLine = (ctx: LineContext): Line => {
  const { prng, voice } = ctx;
  const book = voice.book;
  const slots: Record<string, string> = {
    name: ctx.partnerName,
    place: ctx.placeName,
    task: ctx.taskTitle === null ? "my work" : `"${unquotedText(ctx.taskTitle)}"`,
  };
  const wantsReply = prng.chance(REPLY_SHARE);
  const wantsShare = prng.chance(SHARE);
  const wantsTask = ctx.taskTitle !== null && prng.chance(TASK);
  const needsDossier = wantsReply || wantsShare;
  const dossier = needsDossier ? ctx.dossier : null;
  const last = wantsReply ? itemsOf(dossier, ["dialogue"]).at(-1) : undefined;
  const facts = last === undefined && wantsShare ? itemsOf(dossier, NEWS) : [];
  const said = last === undefined ? null : quotable(last.text.replace(/^[^:"]{1,40}:\s+/, ""), 120);
  let body: string;
  let kind: LineKind;
  if (said !== null) {
    kind = "reply";
    body = fill(prng.pick(book.reply), { ...slots, said: quoted(said, 120) });
  } else if (facts.length > 0) {
    kind = "share";
    body = fill(prng.pick(book.share), {
      ...slots,
      fact: snippet(unquotedText(spoken(pickTop(prng, facts).text))),
    });
  } else if (wantsTask) {
    kind = "task";
    body = fill(prng.pick(book.task), slots);
  } else {
    kind = "small";
    body = fill(prng.pick(book.small), slots);
  }
  const parts: Array<string> = [];
  if (prng.chance(0.6)) parts.push(fill(prng.pick(book.greet), slots));
  parts.push(body);
  const closes = prng.chance(0.35);
  if (closes) parts.push(prng.pick(book.close));
  const line = parts.join(" ");
  return {
    text: line.length <= 600 ? line : `${line.slice(0, 599)}…`,
    regard: regardOf(kind, voice.tone, ctx.partnerName),
    ends: closes,
  };
};

/** What a line's body did: answered, passed on news, spoke of work, or passed the time. */
type LineKind = "reply" | "share" | "task" | "small";

/** A line of speech, and how saying it moves the speaker's regard for its listener. */
export interface Line {
  readonly text: string;
  readonly regard: RegardChange;
  /** It ends on a sign-off ("Good day.", "Enough talk."): it closes the talk, wanting no answer. */
  readonly ends: boolean;
}

/** What each kind of line says of the speaker's regard for the one it talks to. */
const byKind: Record<LineKind, RegardLevels & { readonly why: string }> = {
  reply: { trust: 0, respect: 0.02, suspicion: 0, why: "answered what {name} said" },
  share: { trust: 0.03, respect: 0, suspicion: 0, why: "shared news with {name}" },
  task: { trust: 0, respect: 0.01, suspicion: 0, why: "spoke of work with {name}" },
  small: { trust: 0.01, respect: 0, suspicion: 0, why: "passed the time with {name}" },
};

/** How a tone of voice colours it: the sly and the anxious stay wary as they talk. */
const byTone: Record<Tone, RegardLevels> = {
  warm: { trust: 0.01, respect: 0, suspicion: 0 },
  jovial: { trust: 0.01, respect: 0, suspicion: 0 },
  gruff: { trust: -0.01, respect: 0, suspicion: 0 },
  formal: { trust: 0, respect: 0.01, suspicion: 0 },
  sly: { trust: 0, respect: 0, suspicion: 0.02 },
  anxious: { trust: 0, respect: 0, suspicion: 0.01 },
  pious: { trust: 0, respect: 0, suspicion: 0 },
  plain: { trust: 0, respect: 0, suspicion: 0 },
};

/** The regard a scripted line expresses: fixed by what it did and its tone, never drawn. */
export const regardOf = (kind: LineKind, tone: Tone, name: string): RegardChange => {
  const k = byKind[kind];
  const t = byTone[tone];
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    trust: r(k.trust + t.trust),
    respect: r(k.respect + t.respect),
    suspicion: r(k.suspicion + t.suspicion),
    reason: fill(k.why, { name }),
  };
};
