/**
 * Digesting a stretch of a talk with the player: the facts the NPC keeps (and, apart,
 * those each witness who overheard keeps, in its own words), and the NPC's running
 * summary of the player with its regard for them. The requests are fixed before any
 * answer arrives and the answers are applied in request order, so the log does not
 * depend on which answer came first.
 */
import {
  type ConversationId,
  type LocationId,
  type MemoryId,
  type NpcId,
  PLAYER_ID,
} from "@hearsay/core";
import type { BrainRequest, DialogueLine, PlayerRegard } from "@hearsay/mind";
import type { Outcome } from "../BrainRunner.ts";
import { remember } from "../Memories.ts";
import type { TickContext } from "../TickContext.ts";

/** Who is in the talk and where. */
export interface TalkFrame {
  readonly ctx: TickContext;
  readonly conversationId: ConversationId;
  readonly npcId: NpcId;
  readonly npcName: string;
  readonly playerName: string;
  readonly locationId: LocationId;
  readonly locationName: string;
  /** Awake NPCs present who overhear, in id order. */
  readonly witnesses: ReadonlyArray<NpcId>;
}

export type DigestPurpose = "extract_facts" | "summarize_talk";

/** A memory written by a digest, as the caller reports it. */
export interface WrittenMemory {
  readonly memoryId: MemoryId;
  readonly ownerNpcId: NpcId;
  readonly text: string;
  readonly category: string;
  readonly importance: number;
  readonly lifetime: string;
}

export interface DigestResult {
  readonly memories: ReadonlyArray<WrittenMemory>;
  readonly summary: string | null;
  readonly regard: PlayerRegard | null;
}

/** The NPC's regard for the player now (neutral if they never met). */
export const regardOf = (ctx: TickContext, npcId: NpcId): PlayerRegard => {
  const e = ctx.actors.regard(npcId, PLAYER_ID);
  return e ?? { trust: 0, respect: 0, suspicion: 0, summary: "" };
};

/** Extraction for the NPC and each witness, then the NPC's summary, in that order. */
export const digestRequests = (
  f: TalkFrame,
  turns: ReadonlyArray<DialogueLine>,
  priorSummary: string | null,
): ReadonlyArray<BrainRequest<DigestPurpose>> => {
  const { ctx } = f;
  const npc = { id: f.npcId, name: f.npcName };
  const player = { id: PLAYER_ID, name: f.playerName };
  const extract = (
    self: NpcId,
    role: "participant" | "witness",
  ): BrainRequest<"extract_facts"> => ({
    purpose: "extract_facts",
    npcId: self,
    t: ctx.t,
    seed: ctx.seed,
    dossier: null,
    input: {
      conversationId: f.conversationId,
      self: { id: self, name: ctx.state.npcs.get(self)?.name ?? self },
      npc,
      player,
      role,
      locationName: f.locationName,
      turns: [...turns],
    },
  });
  return [
    extract(f.npcId, "participant"),
    ...f.witnesses.map((w) => extract(w, "witness")),
    {
      purpose: "summarize_talk",
      npcId: f.npcId,
      t: ctx.t,
      seed: ctx.seed,
      dossier: null,
      input: {
        conversationId: f.conversationId,
        self: npc,
        partner: player,
        priorSummary,
        regard: regardOf(ctx, f.npcId),
        turns: [...turns],
      },
    },
  ];
};

/** Writes what the answers say: memories, then the summary and the changed edge. */
export const applyDigest = (
  f: TalkFrame,
  requests: ReadonlyArray<BrainRequest<DigestPurpose>>,
  outcomes: ReadonlyArray<Outcome<DigestPurpose>>,
  throughTurn: number,
): DigestResult => {
  const { ctx } = f;
  const memories: Array<WrittenMemory> = [];
  let summary: string | null = null;
  let regard: PlayerRegard | null = null;
  for (const [i, request] of requests.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.ok) {
      ctx.writer.emit("SimulationWarning", {
        code: `${request.purpose}_failed`,
        message: outcome.error.message.slice(0, 2000),
        npcId: request.npcId,
      });
      continue;
    }
    if (request.purpose === "extract_facts") {
      const owner = request.npcId as NpcId;
      const output = outcome.answer.output as {
        memories: ReadonlyArray<{
          text: string;
          category: never;
          importance: number;
          lifetime: never;
        }>;
      };
      for (const m of output.memories) {
        const memoryId = remember(ctx, owner, {
          text: m.text,
          category: m.category,
          importance: m.importance,
          lifetime: m.lifetime,
          entities: [f.playerName, f.npcName],
          about: { kind: "player", id: PLAYER_ID },
          locationId: f.locationId,
        });
        memories.push({
          memoryId,
          ownerNpcId: owner,
          text: m.text,
          category: m.category,
          importance: m.importance,
          lifetime: m.lifetime,
        });
      }
    } else {
      const out = outcome.answer.output as {
        summary: string;
        trust: number;
        respect: number;
        suspicion: number;
        regardSummary: string;
      };
      ctx.writer.emit("ConversationSummarized", {
        conversationId: f.conversationId,
        npcId: f.npcId,
        partnerId: PLAYER_ID,
        throughTurn,
        summary: out.summary,
      });
      summary = out.summary;
      const prior = ctx.actors.regard(f.npcId, PLAYER_ID);
      regard = {
        trust: out.trust,
        respect: out.respect,
        suspicion: out.suspicion,
        summary: out.regardSummary,
      };
      if (
        prior === undefined ||
        prior.trust !== regard.trust ||
        prior.respect !== regard.respect ||
        prior.suspicion !== regard.suspicion ||
        prior.summary !== regard.summary
      ) {
        ctx.writer.emit("RelationshipChanged", {
          fromId: f.npcId,
          toId: PLAYER_ID,
          ...regard,
          reason: "what was said in a talk with the player",
        });
      }
    }
  }
  return { memories, summary, regard };
};
