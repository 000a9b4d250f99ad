/**
 * A save a player talks to: the one writer for it in this process. It keeps the engine
 * state (a fold of the log, caught up whenever another writer moved the head), and runs
 * every change — a conversation turn, the end of a conversation, a game's world tick or
 * action result, a time skip — one at a time, each as one batch appended in one
 * transaction. A batch that fails or is abandoned before its append leaves nothing
 * behind: the state is refolded from the log.
 *
 * A turn (`takeTurn`): the player's line is stored raw; on a first meeting the NPC's
 * profile is generated; the NPC's reply streams while the turns not yet digested are
 * digested (facts for the NPC and each witness, the NPC's summary and regard); then the
 * reply, the game actions it proposes (TaskProposed, assigned to the player), the
 * memories, summary and edge are written, in that fixed order.
 *
 * Each batch begins with a `PlayerInput` event: what was asked, with the talk settings
 * in force and how many events the change wrote after it, so replay verification can
 * make the very same change again (see redoInput.ts). A change that writes nothing
 * writes no PlayerInput either. A skip's PlayerInput is a batch of its own, before the
 * engine's ticks — all of them committed in one transaction with it, or none.
 */
import {
  type ConversationId,
  type Dossier,
  type Event,
  type GameTime,
  type LlmCallId,
  type NpcId,
  PLAYER_ID,
  type PlayerInputBody,
  type SaveId,
  type TalkSettings,
  type TaskId,
  type World,
} from "@hearsay/core";
import {
  type BrainAnswer,
  type BrainError,
  type BrainRequest,
  type BrainShape,
  type DialogueLine,
  inputHash,
  llmCallPayload,
  type ReplyListener,
  type ReplyStreamer,
} from "@hearsay/mind";
import type { SqliteEventLog } from "@hearsay/store";
import { Effect, Result } from "effect";
import { BrainRunner } from "../BrainRunner.ts";
import { defaultEngineConfig, type EngineConfig } from "../EngineConfig.ts";
import { EngineState } from "../EngineState.ts";
import type { LoreFile } from "../Genesis.ts";
import { companyOf, selfOf } from "../Glimpses.ts";
import { capMemories } from "../Memories.ts";
import { NpcActors } from "../NpcActors.ts";
import { Routes } from "../Routes.ts";
import { retrievalDossiers } from "../retrievalDossiers.ts";
import type { DossierSource, TickContext } from "../TickContext.ts";
import { TickWriter } from "../TickWriter.ts";
import { ensureProfiles } from "../Turns.ts";
import { WorldIndex } from "../WorldIndex.ts";
import {
  applyDigest,
  type DigestResult,
  digestRequests,
  regardOf,
  type TalkFrame,
} from "./digestTalk.ts";
import { replyStreamerOf } from "./replyStreamerOf.ts";
import { skipWorldDays } from "./skipWorldDays.ts";
import { ConversationNotFound, NpcNotFound, ReplyFailed, TurnAbandoned } from "./TalkError.ts";
import { type MemoryRow, TalkQueries } from "./TalkQueries.ts";
import { withPlayerSummary } from "./withPlayerSummary.ts";

export interface TalkOptions {
  /** Digest the talk every this many player turns (and always at its end). */
  readonly digestEvery: number;
  /** Raw turns the reply is given (2–6). */
  readonly recentTurns: number;
  /** What NPCs call the player. */
  readonly playerName: string;
}

export const defaultTalkOptions: TalkOptions = {
  digestEvery: 4,
  recentTurns: 6,
  playerName: "the player",
};

export interface TalkWorldSpec {
  readonly simulation: {
    readonly world: World;
    readonly worldHash: string;
    readonly lore: ReadonlyArray<LoreFile>;
  };
  readonly log: SqliteEventLog;
  readonly saveId: SaveId;
  readonly brain: BrainShape;
  /** Record every brain call in the log (live models). */
  readonly recordBrain: boolean;
  /** How replies stream (default: the brain's answer word by word). */
  readonly streamer?: ReplyStreamer;
  readonly dossiers?: DossierSource;
  readonly options?: Partial<TalkOptions>;
  readonly config?: Partial<EngineConfig>;
}

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

export class TalkWorld {
  state = new EngineState();
  /** The NPCs' own facts; a talk runs no actors, so they rest in the host. */
  actors = new NpcActors();
  private known = 0;
  private tail: Promise<unknown> = Promise.resolve();
  readonly queries: TalkQueries;
  readonly options: TalkOptions;
  readonly dossiers: DossierSource;
  private readonly runner: BrainRunner;
  private readonly streamer: ReplyStreamer;
  private readonly names: WorldIndex;
  private readonly routes: Routes;
  readonly config: EngineConfig;

  constructor(readonly spec: TalkWorldSpec) {
    this.options = { ...defaultTalkOptions, ...spec.options };
    this.config = { ...defaultEngineConfig, ...spec.config };
    this.queries = new TalkQueries(spec.log.db, spec.saveId);
    this.dossiers = spec.dossiers ?? retrievalDossiers(spec.log, spec.saveId);
    this.runner = new BrainRunner(spec.brain, spec.recordBrain, this.config.brainConcurrency);
    this.streamer = spec.streamer ?? replyStreamerOf(spec.brain);
    this.names = new WorldIndex(spec.simulation.world);
    this.routes = new Routes(spec.simulation.world);
    this.refold();
  }

  /** The head of the save's log as this writer last saw or wrote it. */
  get head(): number {
    return this.known;
  }

  get saveId(): SaveId {
    return this.spec.saveId;
  }

  /** The game time now. */
  get t(): GameTime {
    this.catchUp();
    return this.state.t;
  }

  /** Folds in whatever another writer appended since. */
  catchUp(): void {
    const head = this.spec.log.head(this.spec.saveId);
    if (head === this.known) return;
    for (const e of this.spec.log.read(this.spec.saveId, { fromSeq: this.known + 1 })) {
      this.state.apply(e, e.seq);
      this.actors.apply(e);
    }
    this.known = head;
  }

  private refold(): void {
    this.state = new EngineState();
    this.actors = new NpcActors();
    this.known = 0;
    this.catchUp();
  }

  /** The NPC's id if the save has it. @throws NpcNotFound */
  npc(npcId: string): NpcId {
    this.catchUp();
    if (npcId === PLAYER_ID || !this.state.npcs.has(npcId as NpcId))
      throw new NpcNotFound({ saveId: this.saveId, npcId });
    return npcId as NpcId;
  }

  /** The talk settings a PlayerInput records: what a replay needs to answer the same. */
  get settings(): TalkSettings {
    return {
      brain: this.spec.brain.name,
      recorded: this.spec.recordBrain,
      playerName: this.options.playerName,
      digestEvery: this.options.digestEvery,
      recentTurns: this.options.recentTurns,
      checkpointEveryTicks: this.config.checkpointEveryTicks,
    };
  }

  /**
   * Runs `f` alone (one writer per save), then appends what it emitted as one batch,
   * led by the PlayerInput `input` (nothing at all when `f` emitted nothing).
   */
  write<A>(
    input: PlayerInputBody,
    f: (ctx: TickContext) => Promise<A> | A,
    signal?: AbortSignal,
  ): Promise<A> {
    return this.change(async () => {
      const writer = new TickWriter(this.state, this.actors, this.state.t, this.known);
      writer.emit("PlayerInput", { input, talk: this.settings, events: 0 });
      const value = await f(this.context(writer));
      if (signal?.aborted) throw new TurnAbandoned({ npcId: "-" });
      const events = writer.drain();
      if (events.length > 1)
        this.known = this.spec.log.append(this.spec.saveId, this.known, counted(events)).head;
      return value;
    });
  }

  /**
   * Every change a player makes goes through here: alone in this process and caught up
   * with the log; on failure the state (and the dossier source's view) is refolded from
   * the log. A change that appends once (`write`: its events go out as one batch) is
   * atomic by that append. One that appends more than once (a skip: its PlayerInput,
   * then the engine's batches) runs `atomic`, inside one transaction of the log, so the
   * PlayerInput is committed with everything it causes or none of it is — the file
   * stays write-locked meanwhile, and another writer waits (then gives up) rather than
   * land a batch between them.
   */
  private change<A>(f: () => Promise<A>, atomic = false): Promise<A> {
    return this.exclusive(async () => {
      const run = async (): Promise<A> => {
        this.catchUp();
        return await f();
      };
      try {
        return await (atomic ? this.spec.log.atomically(run) : run());
      } catch (e) {
        // Appends the dossier source saw may have been rolled back with the transaction.
        if (atomic) this.dossiers.reset?.();
        this.refold();
        throw e;
      }
    });
  }

  /** Runs `f` after every write queued before it, and before any queued after it. */
  exclusive<A>(f: () => Promise<A>): Promise<A> {
    const next = this.tail.then(f, f);
    this.tail = next.catch(() => undefined);
    return next;
  }

  private context(writer: TickWriter): TickContext {
    return {
      world: this.spec.simulation.world,
      config: this.config,
      seed: this.state.seed,
      state: this.state,
      routes: this.routes,
      writer,
      brain: this.runner,
      dossiers: this.dossiers,
      actors: this.actors,
      from: this.state.t,
      t: this.state.t,
      names: this.names,
      skipping: false,
    };
  }

  private frame(ctx: TickContext, npcId: NpcId, conversationId: ConversationId): TalkFrame {
    const npc = ctx.state.npcs.get(npcId)!;
    return {
      ctx,
      conversationId,
      npcId,
      npcName: npc.name,
      playerName: this.options.playerName,
      locationId: npc.locationId,
      locationName: this.names.locationName(npc.locationId),
      witnesses: companyOf(ctx, npcId, npc.locationId),
    };
  }

  private line(speakerId: string, text: string): DialogueLine {
    const name =
      speakerId === PLAYER_ID
        ? this.options.playerName
        : (this.state.npcs.get(speakerId as NpcId)?.name ?? speakerId);
    return { speakerId: speakerId as NpcId, speakerName: name, text };
  }

  /** The conversation to continue (checked) or a fresh id. */
  private conversation(ctx: TickContext, npcId: NpcId, id: string | null | undefined) {
    if (id === null || id === undefined || id === "")
      return { id: ctx.writer.mint("conv") as ConversationId, next: 0, digested: -1 };
    const last = this.queries.lastTurnsOf(id, 1)[0];
    const between = last === undefined ? [] : [last.speakerId, ...last.listenerIds];
    if (last === undefined || !between.includes(npcId) || !between.includes(PLAYER_ID))
      throw new ConversationNotFound({ saveId: this.saveId, npcId, conversationId: id });
    return {
      id: id as ConversationId,
      next: last.turnIndex + 1,
      digested: this.queries.digestedThrough(id, npcId),
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
      ...this.queries
        .turnsSince(f.conversationId, digested)
        .map((r) => this.line(r.speakerId, r.text)),
      ...pending,
    ];
    if (turns.length === 0) return null;
    const requests = digestRequests(f, turns, this.queries.playerSummary(f.npcId));
    const outcomes = await f.ctx.brain.decideAll(requests, f.ctx.writer);
    return applyDigest(f, requests, outcomes, through);
  }

  /** One exchange: the player's line, the NPC's streamed reply, and what it remembers. */
  takeTurn(req: TurnRequest, listener: ReplyListener = noListener): Promise<TurnResult> {
    const npcId = this.npc(req.npcId);
    const input: PlayerInputBody = {
      kind: "turn",
      npcId,
      conversationId: req.conversationId ?? null,
      message: req.message,
      scene: req.scene ?? null,
      end: req.end === true,
    };
    return this.write(
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
        const undigested = this.queries.turnsSince(conv.id, conv.digested);
        const playerTurns = 1 + undigested.filter((r) => r.speakerId === PLAYER_ID).length;
        const digestNow = req.end !== true && playerTurns >= this.options.digestEvery;
        const summary = this.queries.playerSummary(npcId);
        const recent = this.queries.lastTurnsOf(conv.id, this.options.recentTurns - 1);
        const request: BrainRequest<"reply"> = {
          purpose: "reply",
          npcId,
          t: ctx.t,
          seed: ctx.seed,
          dossier: withPlayerSummary(
            this.dossiers.dossier({
              npcId,
              t: ctx.t,
              query: req.message,
              scene: { locationId: f.locationId, present: [PLAYER_ID, ...f.witnesses] },
            }),
            conv.id,
            summary,
          ),
          input: {
            conversationId: conv.id,
            self: selfOf(ctx, npcId),
            player: { id: PLAYER_ID, name: this.options.playerName },
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
        if (this.runner.records) this.record(ctx, request, replied);
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
          head: this.known + ctx.writer.size,
        };
      },
      req.signal,
    );
  }

  /** Digests whatever of a conversation is not digested yet: at its end, or whenever asked. */
  endConversation(npcId: string, conversationId: string): Promise<DigestResult | null> {
    const id = this.npc(npcId);
    return this.write({ kind: "end_conversation", npcId: id, conversationId }, async (ctx) => {
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

  private record(
    ctx: TickContext,
    request: BrainRequest<"reply">,
    r: Result.Result<BrainAnswer<"reply">, BrainError>,
  ): void {
    ctx.writer.emit(
      "LlmCallRecorded",
      llmCallPayload({
        request,
        inputHash: inputHash(request),
        callId: ctx.writer.mint("call") as LlmCallId,
        brain: this.runner.name,
        outcome: Result.isSuccess(r)
          ? { ok: true, answer: r.success }
          : { ok: false, error: r.failure },
      }),
    );
  }

  /** What the NPC would be handed now for `query` (with its summary of the player). */
  dossier(npcId: string, query: string | null = null): Dossier | null {
    const id = this.npc(npcId);
    const npc = this.state.npcs.get(id)!;
    const present = this.state.presentAt(npc.locationId).filter((n) => n !== id);
    const d = this.dossiers.dossier({
      npcId: id,
      t: this.state.t,
      query,
      scene: { locationId: npc.locationId, present: [PLAYER_ID, ...present] },
    });
    return withPlayerSummary(d, "summary", this.queries.playerSummary(id));
  }

  /** The NPC's live memories now (only those about the player if asked). */
  memories(npcId: string, aboutPlayer = false): ReadonlyArray<MemoryRow> {
    const id = this.npc(npcId);
    return this.queries.memories(id, this.state.t, aboutPlayer);
  }

  /**
   * Lets the world move on `days` days: a recorded time skip (a `jump`) by the engine,
   * as `hearsay run --resume` would make it, extending the run's length if it must.
   */
  skipDays(days: number): Promise<GameTime> {
    return this.change(async () => {
      const writer = new TickWriter(this.state, this.actors, this.state.t, this.known);
      writer.emit("PlayerInput", { input: { kind: "skip", days }, talk: this.settings, events: 0 });
      this.known = this.spec.log.append(this.spec.saveId, this.known, writer.drain()).head;
      await skipWorldDays(this, days);
      this.catchUp();
      return this.state.t;
    }, true);
  }
}

/** The batch with its leading PlayerInput told how many events follow it. */
const counted = (events: ReadonlyArray<Event>): ReadonlyArray<Event> => {
  const [first, ...rest] = events;
  if (first?.type !== "PlayerInput") return events;
  return [{ ...first, payload: { ...first.payload, events: rest.length } }, ...rest];
};
