/**
 * The `revise_profile` purpose: after something that changes a person — a task seen
 * through, a promise broken, a feud, a long run of busy days — the NPC's profile is
 * revised from its current one and what it remembers (the dossier). The answer names
 * only the fields that change; the engine records them in a `ProfileRevised` event.
 */
import { NpcProfile, ProfileChanges, ProfileTrigger } from "@hearsay/core";
import { Schema } from "effect";
import { LineText, NpcGlimpse, NpcSelf } from "./Fields.ts";

export const ReviseProfileInput = Schema.Struct({
  self: NpcSelf,
  /** The profile as it stands. */
  profile: NpcProfile,
  /** What made the revision due. */
  triggers: Schema.Array(ProfileTrigger).check(Schema.isMinLength(1)),
  /** Tasks it saw through since the last revision, by title (newest last). */
  completed: Schema.Array(Schema.String),
  /** Tasks it took up and let lapse or failed, by title (newest last). */
  broken: Schema.Array(Schema.String),
  /** Those it fell out with, with how it regards them now (newest last). */
  feuds: Schema.Array(NpcGlimpse),
  /** Game days since the profile last changed. */
  days: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })),
});
export type ReviseProfileInput = typeof ReviseProfileInput.Type;

export const ReviseProfileOutput = Schema.Struct({
  /** Only the fields that change; a field left out keeps its value. */
  changes: ProfileChanges,
  /** Why, in one line, as the character would put it. */
  reason: LineText(300),
});
export type ReviseProfileOutput = typeof ReviseProfileOutput.Type;

export const reviseProfileInstruction = [
  "Revise this character's profile after what happened to them, as one JSON object:",
  "`changes` holds only the profile fields that change (any of `backstory`, `personality`,",
  "`speechStyle`, `goals`, `fears`, `loyalties`, `relationshipSeed`, each in the form the",
  "profile has it; leave out every field that stays), and `reason` is one line on why.",
  "Change little: people shift, they are not replaced. Ground every change in the",
  "triggers and in what they remember; invent no new people, factions or places.",
].join("\n");
