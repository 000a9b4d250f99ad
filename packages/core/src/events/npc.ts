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

/** What can make an NPC's profile due for revision. */
export const ProfileTrigger = Schema.Literals([
  "task_completed",
  "promise_broken",
  "feud",
  "heavy_activity",
]);
export type ProfileTrigger = typeof ProfileTrigger.Type;

/** The fields of a profile a revision changed; a field left out kept its value. */
export const ProfileChanges = Schema.Struct({
  backstory: Schema.optionalKey(Text),
  personality: Schema.optionalKey(Schema.String),
  speechStyle: Schema.optionalKey(Schema.String),
  goals: Schema.optionalKey(Schema.Array(Schema.String)),
  fears: Schema.optionalKey(Schema.Array(Schema.String)),
  loyalties: Schema.optionalKey(Schema.Array(Schema.String)),
  relationshipSeed: Schema.optionalKey(Schema.String),
});
export type ProfileChanges = typeof ProfileChanges.Type;

/**
 * An NPC's profile changed after what happened to it: only the changed fields are
 * stored, so the profile at any moment is its `ProfileGenerated` with every later
 * revision laid over it (`reviseProfile`), and the history stays in the log.
 */
export const ProfileRevised = defineEvent("ProfileRevised", 1, {
  npcId: NpcId,
  changes: ProfileChanges,
  /** What made it due, in the order they were noticed. */
  triggers: Schema.Array(ProfileTrigger).check(Schema.isMinLength(1)),
  /** Why, in a line (what happened, as the NPC would put it). */
  reason: Schema.String.check(Schema.isMaxLength(300)),
});

/** `profile` with `changes` laid over it: fields the changes leave out keep their values. */
export const reviseProfile = (profile: NpcProfile, changes: ProfileChanges): NpcProfile => {
  const out: Record<string, unknown> = { ...profile };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) out[key] = value;
  return out as NpcProfile;
};

/** The fields of `next` that differ from `profile` (by value): what a revision records. */
export const profileChanges = (profile: NpcProfile, next: NpcProfile): ProfileChanges => {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(profile) as Array<keyof NpcProfile>)
    if (JSON.stringify(profile[key]) !== JSON.stringify(next[key])) out[key] = next[key];
  return out as ProfileChanges;
};

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
