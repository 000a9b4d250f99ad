/**
 * The `act` purpose: an NPC chooses its next action. The input carries every id the
 * answer may name — reachable locations, present NPCs, its own tasks — so an answer
 * naming anything else is rejected by `validateAnswer`, never acted on.
 */
import { GameTime, LocationId, NpcId, TaskId, TaskStatus } from "@hearsay/core";
import { Schema } from "effect";
import { BoundedText, LineText, NpcGlimpse, NpcSelf, RegardChange } from "./Fields.ts";

/** A place, with tags the world gives it (`home`, `tavern`, `market`, `faction:<id>`…). */
export const Place = Schema.Struct({
  id: LocationId,
  name: Schema.String,
  tags: Schema.Array(Schema.String),
});
export type Place = typeof Place.Type;

/** One of the NPC's own tasks. */
export const OwnTask = Schema.Struct({
  id: TaskId,
  title: Schema.String,
  status: TaskStatus,
  locationId: Schema.NullOr(LocationId),
  deadline: Schema.NullOr(GameTime),
});
export type OwnTask = typeof OwnTask.Type;

export const ActInput = Schema.Struct({
  self: NpcSelf,
  location: Place,
  /** Where it can go from here this turn (never includes `location`). */
  reachable: Schema.Array(Place),
  /** Who is here with it (never includes itself). */
  present: Schema.Array(NpcGlimpse),
  tasks: Schema.Array(OwnTask),
  home: Schema.NullOr(LocationId),
  workplace: Schema.NullOr(LocationId),
});
export type ActInput = typeof ActInput.Type;

export const Speak = Schema.Struct({
  action: Schema.tag("speak"),
  to: NpcId,
  text: LineText(600),
  /** How its regard for `to` moves by saying this, and why; none, no change. */
  regard: Schema.optional(RegardChange),
});
export const Move = Schema.Struct({
  action: Schema.tag("move"),
  to: LocationId,
  reason: BoundedText(300),
});
export const Work = Schema.Struct({
  action: Schema.tag("work"),
  taskId: TaskId,
  note: BoundedText(300),
});
export const ProposeTask = Schema.Struct({
  action: Schema.tag("propose_task"),
  title: LineText(120),
  description: BoundedText(600),
  /** Itself, a present NPC, or nobody in particular. */
  assignee: Schema.NullOr(NpcId),
  deadlineDays: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60 })),
});
export const Rest = Schema.Struct({
  action: Schema.tag("rest"),
  hours: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
});

/** One action, tagged by `action`. */
export const ActOutput = Schema.Union([Speak, Move, Work, ProposeTask, Rest]);
export type ActOutput = typeof ActOutput.Type;
export type ActionKind = ActOutput["action"];

export const actInstruction = [
  "Choose your next action as one JSON object. `action` is one of:",
  '- "speak": say `text` (one or two sentences, in your own voice) to `to`, an id from `present`,',
  "  and optionally `regard`: how your trust, respect and suspicion of them move (each -0.2 to",
  "  0.2) with a short `reason`;",
  '- "move": go to `to`, an id from `reachable`, giving a short `reason`;',
  '- "work": work on `taskId`, an id from `tasks`, with a short `note` of what you do;',
  '- "propose_task": propose a task (`title`, `description`, `assignee`: your id, an id from `present` or null, `deadlineDays` 1-60);',
  '- "rest": rest or idle for `hours` (1-12).',
  "Act as your character would at this hour. Name only ids that appear in the input.",
].join("\n");
