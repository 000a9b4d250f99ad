/** Events about NPCs: who they are, where they are, how they regard each other. */
import { Schema } from "effect";
import { GameTime } from "../GameTime.ts";
import { FactionId, LocationId, NpcId, TaskId } from "../ids.ts";
import { defineEvent, Text } from "./defineEvent.ts";

export const NpcRegistered = defineEvent("NpcRegistered", 1, {
  npcId: NpcId,
  name: Schema.String,
  role: Schema.String,
  factionId: Schema.NullOr(FactionId),
  locationId: LocationId,
  traits: Schema.Array(Schema.String),
});

/** A first-meeting profile; generated once per NPC per save. */
export const NpcProfile = Schema.Struct({
  backstory: Text,
  personality: Schema.String,
  speechStyle: Schema.String,
  goals: Schema.Array(Schema.String),
  fears: Schema.Array(Schema.String),
  loyalties: Schema.Array(Schema.String),
  relationshipSeed: Schema.String,
});
export type NpcProfile = typeof NpcProfile.Type;

export const ProfileGenerated = defineEvent("ProfileGenerated", 1, {
  npcId: NpcId,
  profile: NpcProfile,
});

export const NpcMoved = defineEvent("NpcMoved", 1, {
  npcId: NpcId,
  from: LocationId,
  to: LocationId,
});

/**
 * A directed edge changed: how `fromId` regards `toId`. The reverse edge is independent
 * and changes only by its own event. Values are the new absolute levels in [-1, 1].
 */
export const RelationshipChanged = defineEvent("RelationshipChanged", 2, {
  fromId: NpcId,
  toId: NpcId,
  trust: Schema.Number.check(Schema.isBetween({ minimum: -1, maximum: 1 })),
  respect: Schema.Number.check(Schema.isBetween({ minimum: -1, maximum: 1 })),
  suspicion: Schema.Number.check(Schema.isBetween({ minimum: -1, maximum: 1 })),
  summary: Schema.String,
  /** Why it changed: what was said or done, in a line. Never empty (version 2 on). */
  reason: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(300)),
});

/** What an NPC can be doing. The legal moves between these live in the npc machine. */
export const Activity = Schema.Literals([
  "asleep",
  "idle",
  "travelling",
  "working",
  "conversing",
  "debating",
]);
export type Activity = typeof Activity.Type;

/**
 * An NPC's live activity changed: where it is, what it is doing and until when, what it
 * holds and whom it attends to. The npc actor's state is a fold over these, so an actor
 * can always be rebuilt from the log.
 */
export const NpcActivityChanged = defineEvent("NpcActivityChanged", 1, {
  npcId: NpcId,
  activity: Activity,
  locationId: LocationId,
  /** Where a traveller is heading. */
  destination: Schema.NullOr(LocationId),
  /** When the activity ends by itself (the actor's next wake-up); null: until something happens. */
  until: Schema.NullOr(GameTime),
  taskId: Schema.NullOr(TaskId),
  attendingTo: Schema.Array(NpcId),
  holding: Schema.Array(Schema.String),
  note: Schema.String,
});
