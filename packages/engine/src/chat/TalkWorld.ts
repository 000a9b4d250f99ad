/**
 * A save a player talks to: its one writer in this process (`TalkWriter`: the engine
 * state, the head, every change as one batch) with the talk's turns (`TalkTurn`: what
 * builds a reply) and what the player may look at (an NPC's dossier and memories).
 */
import { type Dossier, PLAYER_ID } from "@hearsay/core";
import type { ReplyListener } from "@hearsay/mind";
import type { DigestResult } from "./digestTalk.ts";
import { replyStreamerOf } from "./replyStreamerOf.ts";
import type { MemoryRow } from "./TalkQueries.ts";
import { TalkTurn, type TurnRequest, type TurnResult } from "./TalkTurn.ts";
import { type TalkWorldSpec, TalkWriter } from "./TalkWriter.ts";
import { withPlayerSummary } from "./withPlayerSummary.ts";

export class TalkWorld extends TalkWriter {
  private readonly turns: TalkTurn;

  constructor(spec: TalkWorldSpec) {
    super(spec);
    this.turns = new TalkTurn(this, spec.streamer ?? replyStreamerOf(spec.brain));
  }

  /** One exchange: the player's line, the NPC's streamed reply, and what it remembers. */
  takeTurn(req: TurnRequest, listener?: ReplyListener): Promise<TurnResult> {
    return this.turns.takeTurn(req, listener);
  }

  /** Digests whatever of a conversation is not digested yet: at its end, or whenever asked. */
  endConversation(npcId: string, conversationId: string): Promise<DigestResult | null> {
    return this.turns.endConversation(npcId, conversationId);
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
}
