/**
 * The `act` purpose: an NPC chooses its next action, and may plan the few steps after it
 * (`agenda`), which its actor takes at later wake-ups without asking again. The input
 * carries every id the answer may name — reachable locations, present NPCs, its own
 * tasks — so an answer naming anything else is rejected by `validateAnswer`, never acted
 * on; a planned step is checked again when its time comes.
 */
import {
  AGENDA_MAX_STEPS,
  ConversationId,
  GameTime,
  LocationId,
  NpcId,
  TaskId,
  TaskStatus,
} from "@hearsay/core";
import { Schema } from "effect";
import { DialogueLine, MemoryDraft } from "./ExtractMemoriesPurpose.ts";
import { BoundedText, LineText, NpcGlimpse, NpcSelf, Participant, RegardChange } from "./Fields.ts";
import { ProfileInput, ProfileOutput } from "./ProfilePurpose.ts";
import { ReviseProfileInput, ReviseProfileOutput } from "./ReviseProfilePurpose.ts";

/** A place, with tags the world gives it (`home`, `tavern`, `market`, `faction:<id>`…). */
export const Place = Schema.Struct({
  id: LocationId,
  name: Schema.String,
  tags: Schema.Array(Schema.String),
});
export type Place = typeof Place.Type;

/** One of the NPC's own open tasks: assigned to it, or proposed by it. */
export const OwnTask = Schema.Struct({
  id: TaskId,
  title: Schema.String,
  status: TaskStatus,
  locationId: Schema.NullOr(LocationId),
  deadline: Schema.NullOr(GameTime),
  proposedBy: Schema.NullOr(NpcId),
  assignee: Schema.NullOr(NpcId),
  /** Work sessions done on it so far. */
  sessions: Schema.Int,
  /** How often its deadline was already moved. */
  deadlineMoves: Schema.Int,
});
export type OwnTask = typeof OwnTask.Type;

/**
 * The conversation the NPC was just drawn into: what it remembers of it comes back with
 * this answer (`memories`), so one call both answers and remembers.
 */
export const ActConversation = Schema.Struct({
  conversationId: ConversationId,
  participants: Schema.Array(Participant),
  locationName: Schema.NullOr(Schema.String),
  /** What was said so far, oldest first. */
  turns: Schema.Array(DialogueLine),
});
export type ActConversation = typeof ActConversation.Type;

/** A step planned after the action: an action of its own, with no plan of its own. */
export const AgendaStep = Schema.Union([
  Schema.Struct({
    action: Schema.tag("speak"),
    to: NpcId,
    text: LineText(600),
    regard: Schema.optional(RegardChange),
    /** What it will remember of having said it. */
    memories: Schema.optional(Schema.Array(MemoryDraft).check(Schema.isMaxLength(8))),
    /** The line closes the talk: its listener is not asked to answer it. */
    ends: Schema.optional(Schema.Boolean),
  }),
  Schema.Struct({ action: Schema.tag("move"), to: LocationId, reason: BoundedText(300) }),
  Schema.Struct({ action: Schema.tag("work"), taskId: TaskId, note: BoundedText(300) }),
  Schema.Struct({
    action: Schema.tag("rest"),
    hours: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
  }),
  Schema.Struct({
    action: Schema.tag("propose_task"),
    title: LineText(120),
    description: BoundedText(600),
    assignee: Schema.NullOr(NpcId),
    deadlineDays: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60 })),
  }),
]);
export type AgendaStep = typeof AgendaStep.Type;

const { self: _self, ...dueFields } = ReviseProfileInput.fields;
/**
 * Its profile is due for revision: what `revise_profile` would be given but `self`. A run
 * that carries `revise_profile` (`SimulationStarted.carried`) asks it here, in the `act`
 * call of the NPC's own turn that would have followed the separate call.
 */
export const ProfileDue = Schema.Struct(dueFields);
export type ProfileDue = typeof ProfileDue.Type;

const { self: _selfToo, ...needFields } = ProfileInput.fields;
/**
 * It has no profile yet: what `profile` would be given but `self`. A run that carries
 * `profile` asks it here, in the `act` call of the NPC's first turn of its own.
 */
export const ProfileNeed = Schema.Struct(needFields);
export type ProfileNeed = typeof ProfileNeed.Type;

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
  /** Present when it is answering someone in a conversation. */
  conversation: Schema.optional(ActConversation),
  /** The steps it had planned and not yet taken, when it has a plan. */
  planned: Schema.optional(Schema.Array(AgendaStep)),
  /** Present when it has no profile yet: the answer's `profile` is its first. */
  firstProfile: Schema.optional(ProfileNeed),
  /** Present when its profile is due for revision: the answer's `revision` revises it. */
  revise: Schema.optional(ProfileDue),
});
export type ActInput = typeof ActInput.Type;

/**
 * What it will remember of `conversation`, the same drafts `extract_memories` returns;
 * with no conversation, on a `speak`, what it will remember of saying that line (kept
 * if the line is heard and not answered: the talk is then that line alone).
 */
const remembers = {
  memories: Schema.optional(Schema.Array(MemoryDraft).check(Schema.isMaxLength(8))),
  /** The next steps it means to take, in order (at most `AGENDA_MAX_STEPS`); none, no plan. */
  agenda: Schema.optional(Schema.Array(AgendaStep).check(Schema.isMaxLength(AGENDA_MAX_STEPS))),
  /** When the input has `firstProfile`: its first-meeting profile, as `profile` answers it. */
  profile: Schema.optional(ProfileOutput),
  /** When the input has `revise`: the profile's revision, as `revise_profile` answers it. */
  revision: Schema.optional(ReviseProfileOutput),
};

export const Speak = Schema.Struct({
  ...remembers,
  action: Schema.tag("speak"),
  to: NpcId,
  text: LineText(600),
  /** How its regard for `to` moves by saying this, and why; none, no change. */
  regard: Schema.optional(RegardChange),
  /**
   * The line closes the talk (nothing is left to say): its listener hears it but is not
   * asked to answer, so a talk's last line costs no answering call. Absent: the talk
   * stays open, as every line did before the field existed.
   */
  ends: Schema.optional(Schema.Boolean),
});
export const Move = Schema.Struct({
  ...remembers,
  action: Schema.tag("move"),
  to: LocationId,
  reason: BoundedText(300),
});
export const Work = Schema.Struct({
  ...remembers,
  action: Schema.tag("work"),
  taskId: TaskId,
  note: BoundedText(300),
});
export const ProposeTask = Schema.Struct({
  ...remembers,
  action: Schema.tag("propose_task"),
  title: LineText(120),
  description: BoundedText(600),
  /** Itself, a present NPC, or nobody in particular. */
  assignee: Schema.NullOr(NpcId),
  deadlineDays: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60 })),
});
export const Rest = Schema.Struct({
  ...remembers,
  action: Schema.tag("rest"),
  hours: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
});

const TermsReason = BoundedText(300);
export const GiveUp = Schema.Struct({
  ...remembers,
  action: Schema.tag("give_up"),
  taskId: TaskId,
  reason: TermsReason,
});
export const Withdraw = Schema.Struct({
  ...remembers,
  action: Schema.tag("withdraw"),
  taskId: TaskId,
  reason: TermsReason,
});
export const MoveDeadline = Schema.Struct({
  ...remembers,
  action: Schema.tag("move_deadline"),
  taskId: TaskId,
  days: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 14 })),
  reason: TermsReason,
});

/** One action, tagged by `action`. */
export const ActOutput = Schema.Union([
  Speak,
  Move,
  Work,
  ProposeTask,
  Rest,
  GiveUp,
  Withdraw,
  MoveDeadline,
]);
export type ActOutput = typeof ActOutput.Type;
export type ActionKind = ActOutput["action"];

export const actInstruction = [
  "Choose your next action as one JSON object. `action` is one of:",
  '- "speak": say `text` (one or two sentences, in your own voice) to `to`, an id from `present`,',
  "  and optionally `regard`: how your trust, respect and suspicion of them move (each -0.2 to",
  "  0.2) with a short `reason`, and `ends`: true when your line closes the talk — you have",
  "  nothing left to say and want no answer (a farewell, a last word, a warning); leave it",
  "  out when you ask something or expect a reply;",
  '- "move": go to `to`, an id from `reachable`, giving a short `reason`;',
  '- "work": work on `taskId`, an id from `tasks` assigned to you, with a short `note` of what you do;',
  '- "propose_task": propose a task (`title`, `description`, `assignee`: your id, an id from `present` or null, `deadlineDays` 1-60);',
  '- "rest": rest or idle for `hours` (1-12);',
  '- "give_up": give up `taskId`, a task from `tasks` assigned to you, with a short `reason`;',
  '- "withdraw": withdraw `taskId`, a task from `tasks` you proposed, with a short `reason`;',
  '- "move_deadline": ask the task\'s other party (who must be in `present`) to move the deadline',
  "  of `taskId` `days` (1-14) later, with a short `reason`; they may refuse.",
  "Act as your character would at this hour. Name only ids that appear in the input.",
  "If the input has a `conversation`, also give `memories`: what you will remember of it (at",
  "most 8), each `{text, category, importance, lifetime}` as for extracting memories — one",
  "self-contained first-person fact; small talk fades in a day, promises and tasks last a",
  'week or more ("1d", "3d", "7d", "30d" or "permanent"). With no `conversation`, when you',
  "speak, give `memories` of that: what you will remember of having said it, and to whom.",
  `Also give \`agenda\`: the next 1-${AGENDA_MAX_STEPS} steps you mean to take after this one, up to the day's end, in order, each an`,
  'object of the same form ("speak" with `to`, `text`, optional `memories` and `ends`, "move", "work",',
  '"rest" or "propose_task"). You take them in the hours ahead without being asked again,',
  "until something new happens; a step naming someone who is not there then is dropped.",
  "`planned`, if the input has it, is what you had meant to do next: keep it or change it.",
  "If the input has `firstProfile`, you have no profile yet: also give `profile`, your",
  "first-meeting profile — `backstory` (3-5 sentences), `personality` (a phrase),",
  "`speechStyle`, `goals`, `fears` and `loyalties` (short lists) and `relationshipSeed` (one",
  "sentence on how you treat the people you know) — true to your role, traits and faction.",
  "If the input has `revise`, your profile is due for revision after what happened to you:",
  "also give `revision`, `{changes, reason}`: `changes` holds only the fields of",
  "`revise.profile` that change (each in the form the profile has it), `reason` one line on",
  "why. Change little, ground it in `revise` and what you remember, invent nobody new.",
].join("\n");
