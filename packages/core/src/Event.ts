/**
 * The event catalogue: every fact the log can hold, as one Schema union tagged by
 * `type`. Anything entering the log — from the engine, a file, an old database — is
 * decoded by `Event` first; what does not decode is never stored.
 */
import { Exit, Schema } from "effect";
import { NpcAgendaChanged } from "./events/agenda.ts";
import { LlmCallRecorded, LoreImported } from "./events/external.ts";
import {
  HappeningPlanned,
  HappeningStatusChanged,
  PropAcquired,
  PropIntroduced,
} from "./events/happenings.ts";
import {
  KnowledgeGained,
  MemoriesConsolidated,
  MemoryExpired,
  MemoryRecorded,
  MemoryReinforced,
} from "./events/knowledge.ts";
import { SceneClosed, SceneOpened, SummaryCursorAdvanced } from "./events/narrative.ts";
import {
  NpcActivityChanged,
  NpcMoved,
  NpcRegistered,
  ProfileGenerated,
  ProfileRevised,
  RelationshipChanged,
} from "./events/npc.ts";
import { PlayerInput } from "./events/player.ts";
import { ConversationSummarized, ConversationTurn, DebateHeld } from "./events/social.ts";
import { TaskDeadlineMoved, TaskProposed, TaskStatusChanged } from "./events/tasks.ts";
import { ThreadClosed, ThreadOpened } from "./events/threads.ts";
import {
  Checkpoint,
  ClockAdvanced,
  MaintenanceRan,
  RunResumed,
  SimulationStarted,
  SimulationWarning,
  WorldEventOccurred,
} from "./events/world.ts";
import type { CampaignId, SaveId } from "./ids.ts";
import { eventUpcasters, upcastWith } from "./upcast.ts";

export const Event = Schema.Union([
  SimulationStarted,
  NpcRegistered,
  ProfileGenerated,
  ProfileRevised,
  ClockAdvanced,
  NpcMoved,
  NpcActivityChanged,
  WorldEventOccurred,
  KnowledgeGained,
  MemoryRecorded,
  MemoryExpired,
  TaskProposed,
  TaskStatusChanged,
  TaskDeadlineMoved,
  DebateHeld,
  ConversationTurn,
  ConversationSummarized,
  RelationshipChanged,
  LlmCallRecorded,
  LoreImported,
  Checkpoint,
  SimulationWarning,
  RunResumed,
  PlayerInput,
  ThreadOpened,
  ThreadClosed,
  HappeningPlanned,
  HappeningStatusChanged,
  PropIntroduced,
  PropAcquired,
  SceneOpened,
  SceneClosed,
  SummaryCursorAdvanced,
  MemoryReinforced,
  MaintenanceRan,
  MemoriesConsolidated,
  NpcAgendaChanged,
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

/**
 * Decoders by type tag. An event is decoded by the member its `type` names: the union on
 * its own reports a wrong `type` or `version` as "Expected <every member's shape>" with no
 * path, since both are literal discriminators and a mismatch rules every member out.
 */
const byType = new Map(
  Event.members.map((m) => [
    m.fields.type.schema.literal as EventType,
    {
      sync: Schema.decodeUnknownSync(m) as (input: unknown) => Event,
      exit: Schema.decodeUnknownExit(m) as (input: unknown) => Exit.Exit<Event, Schema.SchemaError>,
    },
  ]),
);
const TypeTag = Schema.Struct({
  type: Schema.Literals(eventTypes as readonly [EventType, ...Array<EventType>]),
});
const decodeTypeTag = Schema.decodeUnknownSync(TypeTag);
const decodeTypeTagExit = Schema.decodeUnknownExit(TypeTag);

/** The version each event type is written at by this build. */
export const currentVersions: ReadonlyMap<EventType, number> = new Map(
  Event.members.map((m) => [m.fields.type.schema.literal as EventType, m.fields.version.literal]),
);

/** Brings an event written at an older version up to the current one (see upcast.ts). */
export const upcastEvent = upcastWith(eventUpcasters, currentVersions);

/**
 * Decodes unknown input as an event, upcasting an older version first; throws a
 * SchemaError naming the bad field.
 */
export const decodeEvent = (input: unknown): Event => {
  const event = upcastEvent(input);
  return byType.get(decodeTypeTag(event).type)!.sync(event);
};

/** Decodes unknown input as an event (upcast first), as an Exit (no throw). */
export const decodeEventExit = (input: unknown): Exit.Exit<Event, Schema.SchemaError> => {
  const event = upcastEvent(input);
  const tag = decodeTypeTagExit(event);
  return Exit.isSuccess(tag) ? byType.get(tag.value.type)!.exit(event) : Exit.failCause(tag.cause);
};

/** Builds an event of a known type with its current version. */
export const makeEvent = <T extends EventType>(
  type: T,
  fields: Omit<EventOf<T>, "type" | "version">,
): EventOf<T> => ({ type, version: currentVersions.get(type), ...fields }) as unknown as EventOf<T>;
