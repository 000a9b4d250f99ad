/**
 * The `profile` purpose: a first-meeting profile for an NPC, generated once per NPC per
 * save. The answer is core's `NpcProfile`, so it goes into a `ProfileGenerated` event
 * as it is.
 */
import { NpcProfile } from "@hearsay/core";
import { Schema } from "effect";
import { NpcGlimpse, NpcSelf } from "./Fields.ts";

export const ProfileInput = Schema.Struct({
  self: NpcSelf,
  locationName: Schema.String,
  factionName: Schema.NullOr(Schema.String),
  /** People it already knows, with how it regards them. */
  acquaintances: Schema.Array(NpcGlimpse),
});
export type ProfileInput = typeof ProfileInput.Type;

export const ProfileOutput = NpcProfile;
export type ProfileOutput = typeof ProfileOutput.Type;

export const profileInstruction = [
  "Write this character's first-meeting profile as one JSON object:",
  "`backstory` (3-5 sentences), `personality` (a phrase), `speechStyle` (how they talk),",
  "`goals`, `fears` and `loyalties` (short lists), and `relationshipSeed` (one sentence on",
  "how they treat the people they already know). Stay consistent with the role, traits,",
  "faction and lore you were given; invent no new factions or places.",
].join("\n");
