/**
 * Significance gating, read back from the log. An NPC's wake-up either asks the brain or
 * follows its routine (the npc machine's `routine`); only the first costs a model call.
 * The log records the outcome of every wake-up as one `NpcActivityChanged`, so:
 *
 * - a **wake-up** is an `NpcActivityChanged` that is not the NPC's first one (its first is
 *   where genesis placed it: not a turn) and whose note is not one the engine writes when
 *   it draws an NPC into a conversation or a debate, or stops it at a time skip;
 * - a wake-up is **gated** (skipped: the brain was not asked) when its note is one the
 *   routine writes and the log holds no `decision_failed` warning for that NPC at that
 *   time (a failed or refused decision also falls back to the routine, but it did ask),
 *   or when it took a step of an earlier plan (an `NpcAgendaChanged` of that NPC at that
 *   time whose `plannedAt` is earlier: the answer that planned it was asked before);
 * - every other wake-up **asked** the brain.
 *
 * The notes are the npc machine's own words (packages/actors/src/npcMachine.ts): a brain
 * could in principle write one of them as its own note, which would count as gated.
 */

/** Notes of the routine a wake-up follows when nothing significant calls for a decision. */
export const routineNotes: ReadonlySet<string> = new Set([
  "asleep",
  "heading home for the night",
  "off to work",
  "at work",
  "passing the time",
]);

/** Notes of activity changes that are not wake-ups: joining talk, stopping at a skip. */
export const nonTurnNotes: ReadonlySet<string> = new Set([
  "in conversation",
  "debating",
  "finished what it was doing",
]);

/** What one `NpcActivityChanged` was, for gating. */
export type TurnKind = "none" | "gated" | "asked";

/**
 * Classifies an activity change. `placement`: it is the NPC's first (genesis placed it);
 * `decisionFailed`: a `decision_failed` warning names this NPC at this t; `stepped`: it
 * took a planned step then.
 */
export const turnKind = (
  note: string,
  placement: boolean,
  decisionFailed: boolean,
  stepped = false,
): TurnKind => {
  if (placement || nonTurnNotes.has(note)) return "none";
  if (stepped) return "gated";
  return routineNotes.has(note) && !decisionFailed ? "gated" : "asked";
};
