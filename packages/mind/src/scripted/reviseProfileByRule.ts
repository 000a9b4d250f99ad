/**
 * Scripted profile revisions: each trigger changes the fields it bears on, by rule —
 * a task seen through adds a goal, a broken promise a fear, a feud takes the other out
 * of the NPC's loyalties and rewrites how it treats people, a long busy stretch adds a
 * goal of its own — and the backstory's closing "Of late, …" sentence says what
 * happened (replacing the previous one, so a backstory does not grow with every
 * revision). Only fields that end up different are answered.
 */
import { type NpcProfile, profileChanges } from "@hearsay/core";
import type { ReviseProfileInput, ReviseProfileOutput } from "../purposes/ReviseProfilePurpose.ts";
import { snippet, unquotedText } from "./quoted.ts";

/** Opens the one sentence of a backstory that revisions own. */
export const LATELY = "Of late, ";

/** How many goals and fears a revised profile keeps (the newest). */
const KEPT = 4;

/** A task named inside a sentence: its title quoted, never spliced in bare. */
const taskRef = (title: string): string => {
  const text = snippet(unquotedText(title), 80).replace(/[\s.!?…]+$/, "");
  return /\w/.test(text) ? `the task "${text}"` : "a task";
};

const withItem = (list: ReadonlyArray<string>, item: string): Array<string> => {
  const out = list.filter((x) => x !== item);
  out.push(item);
  return out.slice(-KEPT);
};

const joined = (parts: ReadonlyArray<string>): string =>
  parts.length <= 1
    ? (parts[0] ?? "")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;

/** The backstory without the sentence a previous revision added. */
const baseStory = (backstory: string): string => {
  const at = backstory.indexOf(LATELY);
  return (at < 0 ? backstory : backstory.slice(0, at)).trimEnd();
};

export const reviseProfileByRule = (input: ReviseProfileInput): ReviseProfileOutput => {
  const p: NpcProfile = input.profile;
  const name = input.self.name;
  let goals = [...p.goals];
  let fears = [...p.fears];
  let loyalties = [...p.loyalties];
  let seed = p.relationshipSeed;
  const notes: Array<string> = [];
  for (const trigger of input.triggers) {
    switch (trigger) {
      case "task_completed": {
        const title = input.completed[input.completed.length - 1];
        if (title === undefined) break;
        notes.push(`they saw ${taskRef(title)} through`);
        goals = withItem(goals, "take on work that others rely on");
        break;
      }
      case "promise_broken": {
        const title = input.broken[input.broken.length - 1];
        if (title === undefined) break;
        notes.push(`they let ${taskRef(title)} lapse`);
        fears = withItem(fears, "being known as someone who breaks their word");
        break;
      }
      case "feud": {
        const other = input.feuds[input.feuds.length - 1];
        if (other === undefined) break;
        notes.push(`they fell out with ${other.name}`);
        loyalties = loyalties.filter((l) => l !== other.name);
        fears = withItem(fears, `what ${other.name} might do next`);
        seed = `${name} no longer trusts ${other.name} since their falling-out, and is slower to trust anyone.`;
        break;
      }
      case "heavy_activity": {
        const days = input.days === 1 ? "a day" : `${input.days} days`;
        notes.push(`their days have been crowded for ${days} on end`);
        goals = withItem(goals, "find a quiet day to set things in order");
        break;
      }
    }
  }
  const base = baseStory(p.backstory);
  const lately = notes.length === 0 ? "" : `${LATELY}${joined(notes)}.`;
  const next: NpcProfile = {
    ...p,
    backstory: lately === "" ? p.backstory : base === "" ? lately : `${base} ${lately}`,
    goals,
    fears,
    loyalties,
    relationshipSeed: seed,
  };
  const reason =
    notes.length === 0
      ? "Nothing that happened changed who they are."
      : `${notes.map((n) => n.replace(/^they /, "")).join("; ")}.`;
  return {
    changes: profileChanges(p, next),
    reason: reason.charAt(0).toUpperCase() + reason.slice(1, 300),
  };
};
