/**
 * Conversations between NPCs, within one tick. A speaker's line is a ConversationTurn;
 * the listener, if it is there and awake, is drawn in and may answer (its own `act` call,
 * batched with every other listener's); then each participant extracts what it will
 * remember (its own memories, in its own words), each one's regard for the other shifts
 * a little (directed edges, independently), and the speaker may pass on something it
 * heard — a rumour loses confidence with each hop.
 */
import { type ConversationId, type NpcId, Prng, type WorldEventId } from "@hearsay/core";
import { type BrainRequest, type DialogueLine, validateAnswer } from "@hearsay/mind";
import { Result } from "effect";
import { actInputOf } from "./Glimpses.ts";
import { lazyDossier, sealDossiers, turnDossier } from "./lazyDossier.ts";
import { capMemories, rememberKept } from "./Memories.ts";
import { noReactions, react, type Spoken } from "./Reactions.ts";
import { openScene } from "./Scenes.ts";
import type { TickContext } from "./TickContext.ts";

interface Talk {
  readonly id: ConversationId;
  readonly a: NpcId;
  readonly b: NpcId;
  readonly lines: Array<DialogueLine>;
}

const listening = (ctx: TickContext, speaker: NpcId, to: NpcId): boolean => {
  const a = ctx.state.npcs.get(speaker);
  const b = ctx.state.npcs.get(to);
  return (
    a !== undefined &&
    b !== undefined &&
    a.locationId === b.locationId &&
    b.activity !== "asleep" &&
    b.activity !== "travelling"
  );
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
    };
    say(ctx, talk, s.speaker, s.to, s.text);
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
  await replies(ctx, talks);
  await remembered(ctx, talks);
  for (const talk of talks) {
    regard(ctx, talk.a, talk.b);
    regard(ctx, talk.b, talk.a);
    passOn(ctx, talk.a, talk.b);
  }
  capMemories(
    ctx,
    talks.flatMap((t) => [t.a, t.b]),
  );
};

const say = (ctx: TickContext, talk: Talk, speaker: NpcId, listener: NpcId, text: string): void => {
  openScene(ctx, ctx.state.npcs.get(speaker)!.locationId, [speaker, listener], "conversation");
  ctx.writer.emit("ConversationTurn", {
    conversationId: talk.id,
    turnIndex: talk.lines.length,
    speakerId: speaker,
    listenerIds: [listener],
    locationId: ctx.state.npcs.get(speaker)!.locationId,
    text,
  });
  talk.lines.push({ speakerId: speaker, speakerName: ctx.names.npcName(speaker), text });
};

/** Each listener may answer its speaker: one batched round of `act` calls. */
const replies = async (ctx: TickContext, talks: ReadonlyArray<Talk>): Promise<void> => {
  const requests = talks.map((talk): BrainRequest<"act"> => {
    const locationId = ctx.state.npcs.get(talk.b)!.locationId;
    const query = talk.lines[0]!.text;
    return lazyDossier<"act">(
      {
        purpose: "act",
        npcId: talk.b,
        t: ctx.t,
        seed: ctx.seed,
        input: actInputOf(ctx, talk.b, [talk.a]),
      },
      () =>
        turnDossier(ctx.dossiers, {
          npcId: talk.b,
          t: ctx.t,
          query,
          scene: { locationId, present: [talk.a] },
        }),
    );
  });
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  sealDossiers(requests);
  for (const [i, talk] of talks.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.ok) continue;
    const action = outcome.answer.output;
    const valid = Result.isSuccess(validateAnswer("act", requests[i]!.input, action));
    if (valid && action.action === "speak" && action.to === talk.a)
      say(ctx, talk, talk.b, talk.a, action.text);
  }
};

/** Every participant extracts its own memories of the talk. */
const remembered = async (ctx: TickContext, talks: ReadonlyArray<Talk>): Promise<void> => {
  const asks = talks.flatMap((talk) => [
    { talk, self: talk.a },
    { talk, self: talk.b },
  ]);
  const requests = asks.map(
    ({ talk, self }): BrainRequest<"extract_memories"> => ({
      purpose: "extract_memories",
      npcId: self,
      t: ctx.t,
      seed: ctx.seed,
      dossier: null,
      input: {
        conversationId: talk.id,
        self: { id: self, name: ctx.names.npcName(self) },
        participants: [talk.a, talk.b].map((id) => ({ id, name: ctx.names.npcName(id) })),
        locationName: ctx.names.locationName(ctx.state.npcs.get(self)!.locationId),
        turns: talk.lines,
      },
    }),
  );
  const outcomes = await ctx.brain.decideAll(requests, ctx.writer);
  for (const [i, { talk, self }] of asks.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.ok) continue;
    const other = self === talk.a ? talk.b : talk.a;
    for (const m of outcome.answer.output.memories) {
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
  }
};

const clamp = (x: number) => Math.max(-1, Math.min(1, Math.round(x * 1000) / 1000));

/** How `from` regards `to` after talking: a small seeded drift, warmer on balance. */
const regard = (ctx: TickContext, from: NpcId, to: NpcId): void => {
  const prior = ctx.state.edge(from, to) ?? { trust: 0, respect: 0, suspicion: 0, summary: "" };
  const prng = Prng.derive(ctx.seed, "regard", ctx.t, from, to);
  const drift = (prng.float() - 0.35) * 0.06;
  ctx.writer.emit("RelationshipChanged", {
    fromId: from,
    toId: to,
    trust: clamp(prior.trust + drift),
    respect: clamp(prior.respect + drift / 2),
    suspicion: clamp(prior.suspicion - drift / 2),
    summary: prior.summary === "" ? `Has talked with ${ctx.names.npcName(to)}.` : prior.summary,
  });
};

/** The speaker may pass on one thing it knows that the listener does not. */
const passOn = (ctx: TickContext, speaker: NpcId, listener: NpcId): void => {
  const prng = Prng.derive(ctx.seed, "rumour", ctx.t, speaker, listener);
  if (!prng.chance(ctx.config.rumourChance)) return;
  const a = ctx.state.npcs.get(speaker)!;
  const b = ctx.state.npcs.get(listener)!;
  const recent = [...a.rumours.entries()].slice(-24);
  const candidates = recent
    .filter(([id, c]) => !b.rumours.has(id) && c * ctx.config.rumourDecay >= ctx.config.rumourFloor)
    .map(([id]) => id)
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
