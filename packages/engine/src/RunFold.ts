/**
 * What a resume folds the log into, in three owners: the engine's shared books
 * (`EngineState`), the world clock's schedule (`ClockSchedule`) and the NPCs' own facts
 * with the schedules the actors' host keeps (`NpcFold`). An engine snapshot is this, at a
 * seq: a resume fills a fresh fold from the newest snapshot and folds only the log after it.
 */
import { type ClockSchedule, emptySchedule } from "@hearsay/actors";
import { EngineState } from "./EngineState.ts";
import { emptyNpcFold, type NpcFold } from "./NpcActors.ts";

export type RunFold = {
  readonly engine: EngineState;
  readonly clock: ClockSchedule;
  readonly npcs: NpcFold;
};

export const emptyRunFold = (): RunFold => ({
  engine: new EngineState(),
  clock: emptySchedule(),
  npcs: emptyNpcFold(),
});
