/**
 * Background debates. The world clock says which are due (a topic falls at its hour
 * every `everyDays` days, `dueDebates` in @hearsay/actors); those
 * awake at its place (its faction's members first) gather; the debate machine runs its
 * rounds and summary through the brain; what is stored is a summary and an outcome — a
 * DebateHeld, a world event for those who witness the outcome, and for each participant
 * the knowledge of the debate and a memory of it — never the transcript.
 *
 * A run that carries `summarize_debate` (`SimulationStarted.carried`) asks it inside the
 * debate's last turn: that speaker has heard every line, and its answer gives the
 * summary and outcome with its line. Only when that answer has no summary and outcome
 * (it failed, or left one out) is the summary asked as a call of its own — as it always
 * is in a run that does not carry it, so older recordings replay their calls.
 */

import type { DebateEmitted, DebateEvent } from "@hearsay/actors";
import { type DebateId, type GameTime, isStill, type NpcId, type RegardShift } from "@hearsay/core";
import { type BrainRequest, type DebateLine as MindLine, topicRef } from "@hearsay/mind";
import { companyOf, selfOf } from "./Glimpses.ts";
import { announce } from "./Happenings.ts";
import { capMemories, remember } from "./Memories.ts";
import { noReactions, react } from "./Reactions.ts";
import { moveRegard } from "./Regard.ts";
import { openScene } from "./Scenes.ts";
import type { TickContext } from "./TickContext.ts";
import { warn } from "./Turns.ts";

type Topic = TickContext["world"]["debateTopics"][number];

/** Holds every debate the clock says is due in this tick (or skip step). */
export const holdDebates = async (ctx: TickContext): Promise<void> => {
  for (const { topic, debateId } of ctx.actors.clock.debatesDue()) {
    await holdOne(ctx, topic, debateId);
  }
};

const holdOne = async (ctx: TickContext, topic: Topic, debateId: DebateId): Promise<void> => {
  // In a skip nobody is watched closely: everyone at the place takes part.
  const here = ctx.skipping
    ? ctx.state.presentAt(topic.locationId)
    : companyOf(ctx, null, topic.locationId);
  const members = here.filter(
    (id) => topic.factionId !== null && ctx.state.npcs.get(id)!.factionId === topic.factionId,
  );
  const others = here.filter((id) => !members.includes(id));
  const gathered = [...members, ...others].slice(0, ctx.config.debateMaxParticipants).sort();
  const participants = gathered.map((id) => ({ id, name: ctx.names.npcName(id) }));
  const lines: Array<MindLine> = [];
  // Regard moves in a debate only as its speakers say: toward the one each answered.
  const shifts: Array<{ from: NpcId; to: NpcId; shift: RegardShift }> = [];
  const carried = ctx.state.carried.has("summarize_debate");
  // The summary and outcome the closing turn's answer gave, when it was asked for them.
  let closing: { summary: string; outcome: string } | null = null;
  const answer = async (ask: DebateEmitted): Promise<DebateEvent> => {
    if (ask.type === "turn") {
      const closes = carried && ask.last;
      const request: BrainRequest<"debate_turn"> = {
        purpose: "debate_turn",
        npcId: ask.npcId,
        t: ctx.t,
        seed: ctx.seed,
        dossier: null,
        input: {
          debateId,
          topic: topic.topic,
          round: ask.round,
          self: selfOf(ctx, ask.npcId),
          participants,
          previous: [...lines],
          // Absent, not false, on other turns: their inputs hash as before the flag.
          ...(closes ? { closes: true as const } : {}),
        },
      };
      const outcome = await ctx.brain.decide(request, ctx.writer);
      const text = outcome.ok ? outcome.answer.output.text : "…";
      const stance = outcome.ok ? outcome.answer.output.stance : "undecided";
      if (!outcome.ok) warn(ctx, ask.npcId, "debate_turn_failed", outcome.error.message);
      const said = outcome.ok ? outcome.answer.output : null;
      if (said?.regard !== undefined && said.replyTo !== null && said.replyTo !== ask.npcId)
        shifts.push({ from: ask.npcId, to: said.replyTo, shift: said.regard });
      lines.push({ speakerId: ask.npcId, speakerName: ctx.names.npcName(ask.npcId), text, stance });
      // A summary counts only whole: both parts, an outcome that says something.
      if (
        closes &&
        said?.summary !== undefined &&
        said.outcome !== undefined &&
        said.outcome !== ""
      )
        closing = { summary: said.summary, outcome: said.outcome };
      return { type: "LINE", line: { npcId: ask.npcId, round: ask.round, line: text, stance } };
    }
    if (closing !== null) return { type: "SUMMARY", ...closing };
    const outcome = await ctx.brain.decide(
      {
        purpose: "summarize_debate",
        npcId: null,
        t: ctx.t,
        seed: ctx.seed,
        dossier: null,
        input: { debateId, topic: topic.topic, participants, turns: [...lines] },
      },
      ctx.writer,
    );
    if (!outcome.ok) {
      warn(ctx, null, "debate_summary_failed", outcome.error.message);
      return { type: "SUMMARY", summary: "", outcome: "" };
    }
    return { type: "SUMMARY", ...outcome.answer.output };
  };
  const result = await ctx.actors.debate(
    {
      debateId,
      topic: topic.topic,
      rounds: ctx.config.debateRounds,
      minParticipants: ctx.config.debateMinParticipants,
    },
    gathered,
    answer,
  );
  if (result.summary === null || result.outcome === null) return;
  const until = (ctx.t + ctx.config.conversationMinutes) as GameTime;
  for (const id of gathered) {
    react(
      ctx,
      id,
      ctx.actors.send(id, {
        type: "DEBATE",
        t: ctx.t,
        until,
        with: gathered.filter((g) => g !== id),
      }),
      noReactions(),
    );
  }
  openScene(ctx, topic.locationId, gathered, "debate");
  ctx.writer.emit("DebateHeld", {
    debateId,
    topic: topic.topic,
    participants: gathered,
    locationId: topic.locationId,
    factionId: topic.factionId,
    summary: result.summary,
    outcome: result.outcome,
  });
  for (const id of gathered) {
    ctx.writer.emit("KnowledgeGained", {
      npcId: id,
      itemKind: "debate",
      itemId: debateId,
      via: "participant",
      fromNpcId: null,
      confidence: 1,
    });
    remember(ctx, id, {
      text: `At the debate on ${topicRef(topic.topic)}: ${result.summary} Outcome: ${result.outcome}`,
      category: "debate",
      importance: 0.7,
      lifetime: "30d",
      about: { kind: "debate", id: debateId },
      locationId: topic.locationId,
      entities: gathered.filter((g) => g !== id).map((g) => ctx.names.npcName(g)),
    });
  }
  announce(ctx, {
    kind: "debate_outcome",
    text: `After the debate on ${topicRef(topic.topic)}: ${result.outcome}`,
    locationId: topic.locationId,
    factionId: topic.factionId,
    visibility: topic.factionId === null ? "local" : "faction",
    importance: 0.6,
    participants: gathered,
    entities: [ctx.names.locationName(topic.locationId)],
  });
  for (const { from, to, shift } of shifts)
    if (gathered.includes(to) && !isStill(shift)) moveRegard(ctx, from, to, shift);
  capMemories(ctx, gathered);
};
