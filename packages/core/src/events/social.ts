/** Events of talk: conversation turns, their summaries, and background debates. */
import { Schema } from "effect";
import { ConversationId, DebateId, FactionId, LocationId, NpcId } from "../ids.ts";
import { defineEvent, Text } from "./defineEvent.ts";

export const ConversationTurn = defineEvent("ConversationTurn", 1, {
  conversationId: ConversationId,
  turnIndex: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  speakerId: NpcId,
  listenerIds: Schema.Array(NpcId),
  locationId: Schema.NullOr(LocationId),
  text: Text,
  /** The line closed its talk (its speaker had nothing left to say): nobody was asked to answer it. */
  ends: Schema.optional(Schema.Boolean),
});

/** One participant's running summary of a conversation, from its own point of view. */
export const ConversationSummarized = defineEvent("ConversationSummarized", 1, {
  conversationId: ConversationId,
  npcId: NpcId,
  partnerId: NpcId,
  throughTurn: Schema.Int,
  summary: Text,
});

/** A debate's summary and outcome — never its transcript. */
export const DebateHeld = defineEvent("DebateHeld", 1, {
  debateId: DebateId,
  topic: Schema.String,
  participants: Schema.Array(NpcId),
  locationId: Schema.NullOr(LocationId),
  factionId: Schema.NullOr(FactionId),
  summary: Text,
  outcome: Text,
});
