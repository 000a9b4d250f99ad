/**
 * The event catalogue: every fact the log can hold, as one Schema union tagged by
 * `type`. Anything entering the log — from the engine, a file, an old database — is
 * decoded by `Event` first; what does not decode is never stored.
 */
import { Schema } from "effect";
import { LlmCallRecorded, LoreImported } from "./events/external.ts";
import { KnowledgeGained, MemoryExpired, MemoryRecorded } from "./events/knowledge.ts";
import {
  NpcActivityChanged,
  NpcMoved,
  NpcRegistered,
  ProfileGenerated,
  RelationshipChanged,
} from "./events/npc.ts";
import { ConversationSummarized, ConversationTurn, DebateHeld } from "./events/social.ts";
import { TaskProposed, TaskStatusChanged } from "./events/tasks.ts";
import {
  Checkpoint,
  ClockAdvanced,
  SimulationStarted,
  SimulationWarning,
  WorldEventOccurred,
} from "./events/world.ts";
import type { CampaignId, SaveId } from "./ids.ts";

export const Event = Schema.Union([
  SimulationStarted,
  NpcRegistered,
  ProfileGenerated,
  ClockAdvanced,
  NpcMoved,
  NpcActivityChanged,
  WorldEventOccurred,
  KnowledgeGained,
  MemoryRecorded,
  MemoryExpired,
  TaskProposed,
  TaskStatusChanged,
  DebateHeld,
  ConversationTurn,
  ConversationSummarized,
  RelationshipChanged,
  LlmCallRecorded,
  LoreImported,
  Checkpoint,
  SimulationWarning,
]);
export type Event = typeof Event.Type;
export type EventType = Event["type"];
export type EventOf<T extends EventType> = Extract<Event, { readonly type: T }>;
export type PayloadOf<T extends EventType> = EventOf<T>["payload"];

/** Every event type, in catalogue order. */
export const eventTypes: ReadonlyArray<EventType> = Event.members.map(
  (m) => m.fields.type.schema.literal,
);

/** An event as the log holds it: with its save, campaign and gapless per-save seq. */
export type StoredEvent = Event & {
  readonly seq: number;
  readonly saveId: SaveId;
  readonly campaignId: CampaignId;
};

/** Decodes unknown input as an event; throws a SchemaError naming the bad field. */
export const decodeEvent = Schema.decodeUnknownSync(Event);
/** Decodes unknown input as an event, as an Exit (no throw). */
export const decodeEventExit = Schema.decodeUnknownExit(Event);

/** Builds an event of a known type with its current version. */
export const makeEvent = <T extends EventType>(
  type: T,
  fields: Omit<EventOf<T>, "type" | "version">,
): EventOf<T> => ({ type, version: 1, ...fields }) as unknown as EventOf<T>;
