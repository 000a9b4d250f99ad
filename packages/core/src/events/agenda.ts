/**
 * An NPC's agenda: the few steps one brain answer planned after the action it took, which
 * its actor takes at later wake-ups without asking the brain again. The log holds every
 * change of it, so a resume rebuilds the actor's agenda and a replay takes the same steps.
 */
import { Schema } from "effect";
import { GameTime, Lifetime } from "../GameTime.ts";
import { LocationId, NpcId, TaskId } from "../ids.ts";
import { defineEvent, Text, Unit } from "./defineEvent.ts";
import { MemoryCategory } from "./knowledge.ts";

/** What a step that speaks will be remembered by, if the line goes unanswered. */
export const SpokenMemory = Schema.Struct({
  text: Text,
  category: MemoryCategory,
  importance: Unit,
  lifetime: Lifetime,
});
export type SpokenMemory = typeof SpokenMemory.Type;

const Shift = Schema.Number.check(Schema.isBetween({ minimum: -1, maximum: 1 }));

/**
 * At most this many steps one answer plans: the `act` schema's bound and what an agenda
 * keeps, one number so the two cannot drift apart. Enough for the hours to the day's end,
 * a step an hour or so, so that one answer covers a stretch of the day.
 */
export const AGENDA_MAX_STEPS = 5;

/** One planned step: an action as an `act` answer names it, without a plan of its own. */
export const AgendaStep = Schema.Union([
  Schema.Struct({
    action: Schema.tag("speak"),
    to: NpcId,
    text: Text,
    regard: Schema.optional(
      Schema.Struct({ trust: Shift, respect: Shift, suspicion: Shift, reason: Text }),
    ),
    memories: Schema.optional(Schema.Array(SpokenMemory)),
    /** The line closes the talk: its listener is not asked to answer it. */
    ends: Schema.optional(Schema.Boolean),
  }),
  Schema.Struct({ action: Schema.tag("move"), to: LocationId, reason: Text }),
  Schema.Struct({ action: Schema.tag("work"), taskId: TaskId, note: Text }),
  Schema.Struct({ action: Schema.tag("rest"), hours: Schema.Int }),
  Schema.Struct({
    action: Schema.tag("propose_task"),
    title: Text,
    description: Text,
    assignee: Schema.NullOr(NpcId),
    deadlineDays: Schema.Int,
  }),
]);
export type AgendaStep = typeof AgendaStep.Type;

/**
 * An NPC's agenda changed: an answer planned `steps` (at `plannedAt`), a step was taken
 * and these are left, or a new answer replaced the plan (empty: no plan).
 */
export const NpcAgendaChanged = defineEvent("NpcAgendaChanged", 1, {
  npcId: NpcId,
  steps: Schema.Array(AgendaStep),
  /** When the answer that planned them was given: a plan goes stale some hours after. */
  plannedAt: GameTime,
});
