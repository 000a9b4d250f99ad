/**
 * What the world clock knows of the world: when each NPC's current activity ends (its
 * next wake-up), who is asleep (an elision does not wait for sleepers) and which
 * debates were held. It is a fold over the log — `foldSchedule` is the one function that
 * changes it, applied to every event live (as the engine observes them) and to the
 * history on a resume — so a resumed clock makes the same next decision as one that
 * never stopped.
 *
 * The job calendar is the clock's too: `jobsRun` holds, per maintenance job, the last
 * game day it ran for (`MaintenanceRan`), so a resumed or skipping clock never runs a
 * day's job twice nor leaves one out.
 *
 * Taking wake-ups (`takeWakes`) is the clock's own act, not a fact of the log: a resumed
 * clock holds every NPC's last activity end, and those already past wake at its first
 * tick.
 */
import type { DebateId, Event, GameTime, MaintenanceJob, NpcId } from "@hearsay/core";
import { DueIndex } from "./DueIndex.ts";

export interface ClockSchedule {
  /** When each NPC's current activity ends: its next wake-up. */
  readonly wakes: DueIndex<NpcId>;
  readonly asleep: Set<NpcId>;
  /** Debate ids held, so a topic that recurs is held once per day it falls on. */
  readonly debatesHeld: Set<DebateId>;
  /** Each maintenance job's last game day run (absent: it has not run). */
  readonly jobsRun: Map<MaintenanceJob, number>;
}

export const emptySchedule = (): ClockSchedule => ({
  wakes: new DueIndex<NpcId>(),
  asleep: new Set(),
  debatesHeld: new Set(),
  jobsRun: new Map(),
});

/** Applies one event of the log to the schedule (events it does not track are ignored). */
export const foldSchedule = (schedule: ClockSchedule, event: Event): void => {
  switch (event.type) {
    case "NpcActivityChanged": {
      const p = event.payload;
      schedule.wakes.set(p.npcId, p.until);
      if (p.activity === "asleep") schedule.asleep.add(p.npcId);
      else schedule.asleep.delete(p.npcId);
      return;
    }
    case "DebateHeld":
      schedule.debatesHeld.add(event.payload.debateId);
      return;
    case "MaintenanceRan": {
      const { job, day } = event.payload;
      if (day > (schedule.jobsRun.get(job) ?? -1)) schedule.jobsRun.set(job, day);
      return;
    }
    default:
      return;
  }
};

/** Removes and returns the NPCs due to wake at or before `t`, in id order. */
export const takeWakes = (schedule: ClockSchedule, t: GameTime): ReadonlyArray<NpcId> =>
  schedule.wakes.takeDue(t);
