/**
 * Makes a recorded talk change again: a `PlayerInput`'s input handed back to the
 * TalkWorld entry point that took it first (a turn, the end of a conversation, a world
 * tick, an action result, a skip). The TalkWorld writes its own PlayerInput and the
 * events after it, exactly as the original did when given the same settings, brain
 * answers and log; replay verification compares the two.
 */
import type { PlayerInputBody } from "@hearsay/core";
import { applyActionResult, applyWorldTick } from "./gameInputs.ts";
import type { TalkWorld } from "./TalkWorld.ts";

/** Applies `input` to `talk`; resolves when its events are stored. */
export const redoInput = async (talk: TalkWorld, input: PlayerInputBody): Promise<void> => {
  switch (input.kind) {
    case "turn":
      await talk.takeTurn({
        npcId: input.npcId,
        conversationId: input.conversationId,
        message: input.message,
        scene: input.scene,
        end: input.end,
      });
      return;
    case "end_conversation":
      await talk.endConversation(input.npcId, input.conversationId);
      return;
    case "world_tick":
      await applyWorldTick(talk, input.diffs);
      return;
    case "action_result":
      await applyActionResult(talk, input);
      return;
    case "skip":
      await talk.skipDays(input.days);
      return;
  }
};
