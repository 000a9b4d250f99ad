/**
 * Conversations between NPCs, within one tick. A speaker's line is a ConversationTurn;
 * the listener, if it is there and awake, is drawn in and may answer (its own `act` call,
 * batched with every other listener's, which also says what the listener will remember
 * of the talk) — unless the line closed the talk (its answer said `ends`: nothing left to
 * say), for a talk's last line needs no answering call. The speaker's own answer may have said what it will remember of its
 * line: kept when the listener did not answer, for the talk is then that line alone.
 * Whoever is still without memories — the speaker of an answered talk or one whose
 * answer gave none, a listener not asked or whose answer brought none — extracts what it will
 * remember (its own memories, in its own words), and the speaker may pass on something
 * it heard — a rumour loses confidence with each hop.
 *
 * Regard moves only for a reason a brain gave: a line's answer carries how its speaker's
 * regard for the one addressed moves and why, and the engine applies exactly that (a
 * line without one changes nothing). Those at the place who overheard move too, by half
 * as much, toward the speaker and with the overheard reason: a kind word heard warms the
 * hearer to its speaker, a sly one makes it wary.
 */
import {
  type ConversationId,
  isStill,
  type NpcId,
  Prng,
  type RegardShift,
  scaleShift,
  type WorldEventId,
} from "@hearsay/core";
import {
  type BrainRequest,
  type DialogueLine,
  type MemoryDraft,
  validateAnswer,
} from "@hearsay/mind";
import { Result } from "effect";
import { actInputOf, awakeAt, companyOf } from "./Glimpses.ts";
import { capMemories, rememberKept } from "./Memories.ts";
import { noReactions, react, type Spoken } from "./Reactions.ts";
import { moveRegard } from "./Regard.ts";
import { openScene } from "./Scenes.ts";
import type { TickContext } from "./TickContext.ts";
import { sealDossiers, TurnDossier } from "./TurnDossier.ts";

interface Talk {
  readonly id: ConversationId;
  readonly a: NpcId;
  readonly b: NpcId;
  readonly lines: Array<DialogueLine>;
  /** Each line's regard shift, in order: its speaker's, toward the one it addressed. */
  readonly shifts: Array<{ from: NpcId; to: NpcId; shift: RegardShift }>;
  /** What the speaker's own answer said it will remember of its line, if anything. */
  readonly saying: ReadonlyArray<MemoryDraft> | undefined;
  /** Its opening line closed it: the listener hears it and is not asked to answer. */
  readonly closed: boolean;
}

/** A witness's share of the regard a line it overheard expresses. */
const OVERHEARD = 0.5;
/** How many bystanders at most take a line's regard (in id order). */
const OVERHEARD_LIMIT = 4;

const listening = (ctx: TickContext, speaker: NpcId, to: NpcId): boolean => {
  const a = ctx.state.npcs.get(speaker);
  return a !== undefined && awakeAt(ctx, to, a.locationId);
};

export const runConversations = async (
  ctx: TickContext,
  spoken: ReadonlyArray<Spoken>,
): Promise<void> => {
  const busy = new Set<NpcId>();
  const talks: Array<Talk> = [];
  for (const s of [...spoken].sort((x, y) =>
    x.speaker < y.speaker ? -1 : x.speaker > y.speaker ? 1 : 0,
  )) {
    if (
      busy.has(s.speaker) ||
      busy.has(s.to) ||
      s.speaker === s.to ||
      !listening(ctx, s.speaker, s.to)
    )
      continue;
    busy.add(s.speaker);
    busy.add(s.to);
    const talk: Talk = {
      id: ctx.writer.mint("conv") as ConversationId,
      a: s.speaker,
      b: s.to,
      lines: [],
      shifts: [],
      saying: s.memories,
      closed: s.ends === true,
    };
    say(ctx, talk, s.speaker, s.to, s.text, s.regard, talk.closed);
    const drawn = noReactions();
    react(
      ctx,
      s.to,
      ctx.actors.send(s.to, {
        type: "CONVERSE",
        t: ctx.t,
        with: [s.speaker],
        until: (ctx.t + ctx.config.conversationMinutes) as never,
      }),
      drawn,
    );
    talks.push(talk);
  }
  const answered = await replies(ctx, talks);
  await remembered(ctx, talks, answered);
  for (const talk of talks) {
    for (const { from, to, shift } of talk.shifts) regard(ctx, talk, from, to, shift);
    passOn(ctx, talk.a, talk.b);
  }
  capMemories(
    ctx,
    talks.flatMap((t) => [t.a, t.b]),
  );
};

const say = (
  ctx: TickContext,
  talk: Talk,
  speaker: NpcId,
  listener: NpcId,
  text: string,
  shift: RegardShift | undefined,
  closes = false,
): void => {
  openScene(ctx, ctx.state.npcs.get(speaker)!.locationId, [speaker, listener], "conversation");
  ctx.writer.emit("ConversationTurn", {
    conversationId: talk.id,
    turnIndex: talk.lines.length,
    speakerId: speaker,
    listenerIds: [listener],
    locationId: ctx.state.npcs.get(speaker)!.locationId,
    text,
    ...(closes ? { ends: true } : {}),
  });
  talk.lines.push({ speakerId: speaker, speakerName: ctx.names.npcName(speaker), text });
  if (shift !== undefined && !isStill(shift))
    talk.shifts.push({ from: speaker, to: listener, shift });
};

/** What a participant knows of a talk: who took part, where, and what was said. */
const talkOf = (ctx: TickContext, talk: Talk, self: NpcId) => ({
  conversationId: talk.id,
  participants: [talk.a, talk.b].map((id) => ({ id, name: ctx.names.npcName(id) })),
  locationName: ctx.names.locationName(ctx.state.npcs.get(self)!.locationId),
  turns: [...talk.lines],
});

/**
 * Each listener may answer its speaker: one batched round of `act` calls, each carrying
 * the talk so the answer also says what the listener remembers of it (and what it plans
 * next: its agenda). A talk whose opening line closed it is not answered: nobody is asked.
 * Returns the talks whose listener's memories came with its answer.
 */
const replies = async (ctx: TickContext, all: ReadonlyArray<Talk>): Promise<Set<Talk>> => {
  const talks = all.filter((talk) => !talk.closed);
  const requests = talks.map((talk): BrainRequest<"act"> => {
    const locationId = ctx.state.npcs.get(talk.b)!.locationId;
    const query = talk.lines[0]!.text;
    return {
      purpose: "act",
      npcId: talk.b,
      t: ctx.t,
      seed: ctx.seed,
      input: { ...actInputOf(ctx, talk.b, [talk.a]), conversation: talkOf(ctx, talk, talk.b) },
      dossier: new TurnDossier(ctx.dossiers, {
        npcId: talk.b,
        t: ctx.t,
        query,
        scene: { locationId, present: [talk.a] },
        // Its lore is its backdrop, not the line heard (memories still follow the line).
        npcTurn: true,
      }),
    };
  });
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  sealDossiers(requests);
  const remembering = new Set<Talk>();
  const kept: Array<{ talk: Talk; memories: ReadonlyArray<MemoryDraft> }> = [];
  for (const [i, talk] of talks.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.ok) continue;
    const action = outcome.answer.output;
    const valid = Result.isSuccess(validateAnswer("act", requests[i]!.input, action));
    if (!valid) continue;
    if (action.action === "speak" && action.to === talk.a)
      say(ctx, talk, talk.b, talk.a, action.text, action.regard);
    // Its answer's plan is its agenda from here, as any `act` answer's is.
    react(
      ctx,
      talk.b,
      ctx.actors.send(talk.b, { type: "PLAN", t: ctx.t, steps: action.agenda ?? [] }),
      noReactions(),
    );
    if (action.memories !== undefined) {
      remembering.add(talk);
      kept.push({ talk, memories: action.memories });
    }
  }
  // Kept after every reply is said, in the order extract_memories answers would be.
  for (const { talk, memories } of kept) keep(ctx, talk, talk.b, memories);
  return remembering;
};

const keep = (
  ctx: TickContext,
  talk: Talk,
  self: NpcId,
  memories: ReadonlyArray<MemoryDraft>,
): void => {
  const other = self === talk.a ? talk.b : talk.a;
  for (const m of memories) {
    rememberKept(ctx, self, {
      text: m.text,
      category: m.category,
      importance: m.importance,
      lifetime: m.lifetime,
      entities: [ctx.names.npcName(other)],
      about: { kind: "conversation", id: talk.id },
      locationId: ctx.state.npcs.get(self)!.locationId,
    });
  }
};

/**
 * Every participant whose memories did not come with its answer extracts them from the
 * talk: the speaker when the listener answered (its line was chosen before the reply) or
 * when its own answer carried none, the listener when its answer failed or carried none.
 * Kept in talk order, speaker before listener, whether drafted earlier or asked now.
 */
const remembered = async (
  ctx: TickContext,
  talks: ReadonlyArray<Talk>,
  answered: ReadonlySet<Talk>,
): Promise<void> => {
  const asks = talks.flatMap((talk) =>
    answered.has(talk)
      ? [{ talk, self: talk.a }]
      : [
          { talk, self: talk.a },
          { talk, self: talk.b },
        ],
  );
  const drafted = ({ talk, self }: { talk: Talk; self: NpcId }) =>
    self === talk.a && talk.lines.length === 1 ? talk.saying : undefined;
  const asked = asks.filter((ask) => drafted(ask) === undefined);
  const requests = asked.map(
    ({ talk, self }): BrainRequest<"extract_memories"> => ({
      purpose: "extract_memories",
      npcId: self,
      t: ctx.t,
      seed: ctx.seed,
      dossier: null,
      input: { ...talkOf(ctx, talk, self), self: { id: self, name: ctx.names.npcName(self) } },
    }),
  );
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  const answers = new Map(asked.map((ask, i) => [ask, outcomes[i]!]));
  for (const ask of asks) {
    const memories = drafted(ask);
    if (memories !== undefined) {
      keep(ctx, ask.talk, ask.self, memories);
      continue;
    }
    const outcome = answers.get(ask)!;
    if (outcome.ok) keep(ctx, ask.talk, ask.self, outcome.answer.output.memories);
  }
};

/**
 * A line's regard: its speaker's for the one it addressed, and a fainter share for those
 * at the place who overheard it (awake, not in the talk), toward the speaker.
 */
const regard = (ctx: TickContext, talk: Talk, from: NpcId, to: NpcId, shift: RegardShift): void => {
  moveRegard(ctx, from, to, shift);
  const place = ctx.state.npcs.get(from)!.locationId;
  const heard = companyOf(ctx, from, place)
    .filter((id) => id !== talk.a && id !== talk.b)
    .sort()
    .slice(0, OVERHEARD_LIMIT);
  const reason = `overheard ${ctx.names.npcName(from)} with ${ctx.names.npcName(to)}: ${shift.reason}`;
  const faint = scaleShift(shift, OVERHEARD, reason);
  if (isStill(faint)) return;
  const seen = `Has overheard ${ctx.names.npcName(from)}.`;
  for (const witness of heard) moveRegard(ctx, witness, from, faint, seen);
};

/** How many of the speaker's latest rumours it may pass on. */
const RECENT_RUMOURS = 24;

/**
 * The last `n` world events an NPC heard of, in the order it learnt them. Its rumours grow
 * all run long (about one a day each in the default world), and a talk reads only the
 * latest: a window of `n` ids rather than a copy of every entry.
 */
export const lastRumours = (
  rumours: ReadonlyMap<WorldEventId, number>,
  n: number,
): Array<WorldEventId> => {
  if (n <= 0) return [];
  const window: Array<WorldEventId> = [];
  let next = 0;
  for (const id of rumours.keys()) {
    if (window.length < n) window.push(id);
    else window[next] = id;
    next = (next + 1) % n;
  }
  // Once full, the oldest sits where the next would have gone.
  return window.length < n ? window : [...window.slice(next), ...window.slice(0, next)];
};

/** The speaker may pass on one thing it knows that the listener does not. */
const passOn = (ctx: TickContext, speaker: NpcId, listener: NpcId): void => {
  const prng = Prng.derive(ctx.seed, "rumour", ctx.t, speaker, listener);
  if (!prng.chance(ctx.config.rumourChance)) return;
  const a = ctx.actors.facts(speaker)!;
  const b = ctx.actors.facts(listener)!;
  const candidates = lastRumours(a.rumours, RECENT_RUMOURS)
    .filter((id) => {
      const c = a.rumours.get(id)!;
      return !b.rumours.has(id) && c * ctx.config.rumourDecay >= ctx.config.rumourFloor;
    })
    .sort();
  if (candidates.length === 0) return;
  const itemId: WorldEventId = prng.pick(candidates);
  const event = ctx.state.worldEvents.get(itemId);
  ctx.writer.emit("KnowledgeGained", {
    npcId: listener,
    itemKind: "world_event",
    itemId,
    via: event?.visibility === "rumor" ? "rumor" : "told",
    fromNpcId: speaker,
    confidence: Math.round(a.rumours.get(itemId)! * ctx.config.rumourDecay * 1000) / 1000,
  });
};
