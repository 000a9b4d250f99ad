/**
 * A valid request input for each purpose the corpus feeds garbage answers to: an NPC at
 * the mill with Bram present, the green reachable and one task of its own. Only ids
 * offered here may appear in an answer.
 */
import { ids, type LocationId, type TaskId } from "@hearsay/core";
import type { PurposeInput } from "@hearsay/mind";

const self = {
  id: ids.npc("ada"),
  name: "Ada Reed",
  role: "miller",
  factionId: ids.faction("millers"),
  traits: ["careful"],
  speechStyle: null,
};

const bram = {
  id: ids.npc("bram"),
  name: "Bram Holt",
  role: "watchman",
  factionId: ids.faction("watch"),
  regard: 0.2,
};

export const brainInputs: {
  readonly act: PurposeInput<"act">;
  readonly profile: PurposeInput<"profile">;
  readonly extract_memories: PurposeInput<"extract_memories">;
} = {
  act: {
    self,
    location: { id: "mill" as LocationId, name: "The Mill", tags: ["workshop"] },
    reachable: [{ id: "green" as LocationId, name: "The Green", tags: ["square"] }],
    present: [bram],
    tasks: [
      {
        id: "fix-wheel" as TaskId,
        title: "Fix the mill wheel",
        status: "active",
        locationId: "mill" as LocationId,
        deadline: null,
        proposedBy: null,
        assignee: self.id,
        sessions: 0,
        deadlineMoves: 0,
      },
    ],
    home: "green" as LocationId,
    workplace: "mill" as LocationId,
  },
  profile: {
    self,
    locationName: "The Mill",
    factionName: "The Millers",
    acquaintances: [bram],
  },
  extract_memories: {
    conversationId: ids.conversation("c1"),
    self: { id: self.id, name: self.name },
    participants: [{ id: bram.id, name: bram.name }],
    locationName: "The Mill",
    turns: [{ speakerId: bram.id, speakerName: bram.name, text: "The ford is rising." }],
  },
};
