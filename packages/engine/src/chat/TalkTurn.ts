/**
 * A player's turn with an NPC, and the end of a conversation: what builds a reply. Each
 * runs as one change of the save's writer (`TalkWriter.write`), which appends it as one
 * batch. The player's line is stored raw; on a first meeting the NPC's profile is
 * generated; the NPC's reply streams while the turns not yet digested are digested (facts
 * for the NPC and each witness, the NPC's summary and regard); then the reply, the game
 * actions it proposes (TaskProposed, assigned to the player), the memories, summary and
 * edge are written, in that fixed order.
 */
import {
  type ConversationId,
  dossierReader,
  type NpcId,
  PLAYER_ID,
  type PlayerInputBody,
  type TaskId,
} from "@hearsay/core";
import type { BrainRequest, DialogueLine, ReplyListener, ReplyStreamer } from "@hearsay/mind";
import { Effect, Result } from "effect";
import { nearnessOf } from "../Focus.ts";
import { companyOf, selfOf } from "../Glimpses.ts";
import { capMemories } from "../Memories.ts";
import type { TickContext } from "../TickContext.ts";
import { whereIs } from "../TickDemand.ts";
import { ensureProfiles } from "../Turns.ts";
import {
  applyDigest,
  type DigestResult,
  digestRequests,
  regardOf,
  type TalkFrame,
} from "./digestTalk.ts";
import { ConversationNotFound, ReplyFailed, TurnAbandoned } from "./TalkError.ts";
import type { TalkWriter } from "./TalkWriter.ts";
import { withPlayerSummary } from "./withPlayerSummary.ts";

export interface TurnRequest {
  readonly npcId: string;
  /** Continue this conversation; omit to start one. */
  readonly conversationId?: string | null;
  readonly message: string;
  /** What the game says is going on. */
  readonly scene?: string | null;
  /** End the conversation with this turn (digest everything now). */
  readonly end?: boolean;
  /** Aborting it before the batch is stored abandons the turn: nothing is written. */
  readonly signal?: AbortSignal;
}

export interface ProposedGameAction {
  readonly kind: "assign_task";
  readonly taskId: TaskId;
  readonly title: string;
  readonly description: string;
}

export interface TurnResult {
  readonly conversationId: ConversationId;
  /** The player's turn; the reply is `turnIndex + 1`. */
  readonly turnIndex: number;
  readonly reply: string;
  readonly actions: ReadonlyArray<ProposedGameAction>;
  readonly firstMeeting: boolean;
  readonly digest: DigestResult | null;
  readonly brain: {
    readonly brain: string;
    readonly model: string;
    readonly fallbackReason: string | null;
  };
  readonly head: number;
}

const noListener: ReplyListener = { text: () => {}, restart: () => {} };

/** Turns with the player, each written through the save's one writer. */
export class TalkTurn {
  constructor(
    private readonly talk: TalkWriter,
    private readonly streamer: ReplyStreamer,
  ) {}

  private frame(ctx: TickContext, npcId: NpcId, conversationId: ConversationId): TalkFrame {
    const npc = ctx.state.npcs.get(npcId)!;
    return {
      ctx,
      conversationId,
      npcId,
      npcName: npc.name,
      playerName: this.talk.options.playerName,
      locationId: npc.locationId,
      locationName: this.talk.names.locationName(npc.locationId),
      witnesses: companyOf(ctx, npcId, npc.locationId),
    };
  }

  private line(speakerId: string, text: string): DialogueLine {
    const name =
      speakerId === PLAYER_ID
        ? this.talk.options.playerName
        : (this.talk.state.npcs.get(speakerId as NpcId)?.name ?? speakerId);
    return { speakerId: speakerId as NpcId, speakerName: name, text };
  }

  /** The conversation to continue (checked) or a fresh id. */
  private conversation(ctx: TickContext, npcId: NpcId, id: string | null | undefined) {
    if (id === null || id === undefined || id === "")
      return { id: ctx.writer.mint("conv") as ConversationId, next: 0, digested: -1 };
    const last = this.talk.queries.lastTurnsOf(id, 1)[0];
    const between = last === undefined ? [] : [last.speakerId, ...last.listenerIds];
    if (last === undefined || !between.includes(npcId) || !between.includes(PLAYER_ID))
      throw new ConversationNotFound({ saveId: this.talk.saveId, npcId, conversationId: id });
    return {
      id: id as ConversationId,
      next: last.turnIndex + 1,
      digested: this.talk.queries.digestedThrough(id, npcId),
    };
  }

  /** Digests the conversation's undigested turns (plus `pending`) now. */
  private async digest(
    f: TalkFrame,
    digested: number,
    pending: ReadonlyArray<DialogueLine>,
    through: number,
  ): Promise<DigestResult | null> {
    const turns = [
      ...this.talk.queries
        .turnsSince(f.conversationId, digested)
        .map((r) => this.line(r.speakerId, r.text)),
      ...pending,
    ];
    if (turns.length === 0) return null;
    const requests = digestRequests(f, turns, this.talk.queries.playerSummary(f.npcId));
    // The digest is planned as a tick of its own: its calls are all known, and the
    // player is at the NPC's place.
    f.ctx.brain.beginTick(() => ({
      t: f.ctx.t,
      demand: requests.map((r) => ({ purpose: r.purpose, npcId: r.npcId, count: 1 })),
      near: (hops) => nearnessOf(f.ctx.world, whereIs(f.ctx), this.talk.focus(f.locationId), hops),
    }));
    const outcomes = await f.ctx.brain
      .decideAll(requests, f.ctx.writer)
      .finally(() => f.ctx.brain.endTick());
    return applyDigest(f, requests, outcomes, through);
  }

  /** One exchange: the player's line, the NPC's streamed reply, and what it remembers. */
  takeTurn(req: TurnRequest, listener: ReplyListener = noListener): Promise<TurnResult> {
    const npcId = this.talk.npc(req.npcId);
    const input: PlayerInputBody = {
      kind: "turn",
      npcId,
      conversationId: req.conversationId ?? null,
      message: req.message,
      scene: req.scene ?? null,
      end: req.end === true,
    };
    return this.talk.write(
      input,
      async (ctx) => {
        const conv = this.conversation(ctx, npcId, req.conversationId);
        const firstMeeting = ctx.actors.facts(npcId)!.profile === null;
        if (firstMeeting) await ensureProfiles(ctx, [npcId]);
        const f = this.frame(ctx, npcId, conv.id);
        const at = conv.next;
        ctx.writer.emit("ConversationTurn", {
          conversationId: conv.id,
          turnIndex: at,
          speakerId: PLAYER_ID,
          listenerIds: [npcId, ...f.witnesses],
          locationId: f.locationId,
          text: req.message,
        });
        const said = this.line(PLAYER_ID, req.message);
        const undigested = this.talk.queries.turnsSince(conv.id, conv.digested);
        const playerTurns = 1 + undigested.filter((r) => r.speakerId === PLAYER_ID).length;
        const digestNow = req.end !== true && playerTurns >= this.talk.options.digestEvery;
        const summary = this.talk.queries.playerSummary(npcId);
        const recent = this.talk.queries.lastTurnsOf(conv.id, this.talk.options.recentTurns - 1);
        const request: BrainRequest<"reply"> = {
          purpose: "reply",
          npcId,
          t: ctx.t,
          seed: ctx.seed,
          dossier: dossierReader(
            withPlayerSummary(
              this.talk.dossiers.dossier({
                npcId,
                t: ctx.t,
                query: req.message,
                scene: { locationId: f.locationId, present: [PLAYER_ID, ...f.witnesses] },
              }),
              conv.id,
              summary,
            ),
          ),
          input: {
            conversationId: conv.id,
            self: selfOf(ctx, npcId),
            player: { id: PLAYER_ID, name: this.talk.options.playerName },
            locationName: f.locationName,
            regard: regardOf(ctx, npcId),
            summary,
            turns: [...recent.map((r) => this.line(r.speakerId, r.text)), said],
            message: req.message,
            scene: req.scene ?? null,
          },
        };
        // The reply streams while the talk so far is digested; both are asked before either answers.
        const [replied, early] = await Promise.all([
          Effect.runPromise(Effect.result(this.streamer(request, listener))),
          digestNow ? this.digest(f, conv.digested, [said], at) : Promise.resolve(null),
        ]);
        if (req.signal?.aborted) throw new TurnAbandoned({ npcId });
        this.talk.runner.recordOutcome(
          request,
          Result.isSuccess(replied)
            ? { ok: true, answer: replied.success }
            : { ok: false, error: replied.failure },
          ctx.writer,
        );
        if (Result.isFailure(replied))
          throw new ReplyFailed({ npcId, reason: replied.failure.message });
        const answer = replied.success;
        ctx.writer.emit("ConversationTurn", {
          conversationId: conv.id,
          turnIndex: at + 1,
          speakerId: npcId,
          listenerIds: [PLAYER_ID, ...f.witnesses],
          locationId: f.locationId,
          text: answer.output.text,
        });
        const actions = answer.output.actions.map((a): ProposedGameAction => {
          const taskId = ctx.writer.mint("task") as TaskId;
          ctx.writer.emit("TaskProposed", {
            taskId,
            title: a.title,
            description: a.description,
            proposedBy: npcId,
            assignee: PLAYER_ID,
            locationId: f.locationId,
            factionId: ctx.state.npcs.get(npcId)!.factionId,
            deadline: null,
          });
          return { kind: a.kind, taskId, title: a.title, description: a.description };
        });
        const digest =
          req.end === true
            ? await this.digest(f, digestNow ? at : conv.digested, [], at + 1)
            : early;
        capMemories(ctx, [npcId, ...f.witnesses]);
        return {
          conversationId: conv.id,
          turnIndex: at,
          reply: answer.output.text,
          actions,
          firstMeeting,
          digest,
          brain: {
            brain: answer.meta.brain,
            model: answer.meta.model,
            fallbackReason: answer.meta.fallbackReason,
          },
          head: this.talk.head + ctx.writer.size,
        };
      },
      req.signal,
    );
  }

  /** Digests whatever of a conversation is not digested yet: at its end, or whenever asked. */
  endConversation(npcId: string, conversationId: string): Promise<DigestResult | null> {
    const id = this.talk.npc(npcId);
    return this.talk.write({ kind: "end_conversation", npcId: id, conversationId }, async (ctx) => {
      const conv = this.conversation(ctx, id, conversationId);
      if (conv.digested >= conv.next - 1) return null;
      const result = await this.digest(
        this.frame(ctx, id, conv.id),
        conv.digested,
        [],
        conv.next - 1,
      );
      capMemories(ctx, [id, ...this.frame(ctx, id, conv.id).witnesses]);
      return result;
    });
  }
}
