/**
 * Branded identifiers. Every id is a non-empty string; the brand keeps an NPC id from
 * being passed where a task id is wanted. Each is also a Schema, so ids read from files,
 * the log or model output are decoded, never cast.
 */
import { Schema } from "effect";

const Id = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200));

export const SaveId = Id.pipe(Schema.brand("SaveId"));
export type SaveId = typeof SaveId.Type;
export const CampaignId = Id.pipe(Schema.brand("CampaignId"));
export type CampaignId = typeof CampaignId.Type;
export const EventId = Id.pipe(Schema.brand("EventId"));
export type EventId = typeof EventId.Type;
export const NpcId = Id.pipe(Schema.brand("NpcId"));
export type NpcId = typeof NpcId.Type;
export const LocationId = Id.pipe(Schema.brand("LocationId"));
export type LocationId = typeof LocationId.Type;
export const FactionId = Id.pipe(Schema.brand("FactionId"));
export type FactionId = typeof FactionId.Type;
export const MemoryId = Id.pipe(Schema.brand("MemoryId"));
export type MemoryId = typeof MemoryId.Type;
export const WorldEventId = Id.pipe(Schema.brand("WorldEventId"));
export type WorldEventId = typeof WorldEventId.Type;
export const TaskId = Id.pipe(Schema.brand("TaskId"));
export type TaskId = typeof TaskId.Type;
export const DebateId = Id.pipe(Schema.brand("DebateId"));
export type DebateId = typeof DebateId.Type;
export const ConversationId = Id.pipe(Schema.brand("ConversationId"));
export type ConversationId = typeof ConversationId.Type;
export const LoreSourceId = Id.pipe(Schema.brand("LoreSourceId"));
export type LoreSourceId = typeof LoreSourceId.Type;
export const LoreChunkId = Id.pipe(Schema.brand("LoreChunkId"));
export type LoreChunkId = typeof LoreChunkId.Type;
export const LlmCallId = Id.pipe(Schema.brand("LlmCallId"));
export type LlmCallId = typeof LlmCallId.Type;

/** The player is an entity like an NPC, with one reserved id. */
export const PLAYER_ID = "player" as NpcId;

/** Trusted constructors for ids the engine mints itself (never for outside input). */
export const ids = {
  save: (s: string) => s as SaveId,
  campaign: (s: string) => s as CampaignId,
  event: (s: string) => s as EventId,
  npc: (s: string) => s as NpcId,
  location: (s: string) => s as LocationId,
  faction: (s: string) => s as FactionId,
  memory: (s: string) => s as MemoryId,
  worldEvent: (s: string) => s as WorldEventId,
  task: (s: string) => s as TaskId,
  debate: (s: string) => s as DebateId,
  conversation: (s: string) => s as ConversationId,
  loreSource: (s: string) => s as LoreSourceId,
  loreChunk: (s: string) => s as LoreChunkId,
  llmCall: (s: string) => s as LlmCallId,
} as const;
