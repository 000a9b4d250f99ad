/**
 * What an NPC can decide to do on a turn. The brain's answer (decoded by its Schema in
 * @hearsay/mind) has this shape; actors keep only the type so they import no brain.
 */
import type {
  AgendaStep,
  LocationId,
  NpcId,
  RegardShift,
  SpokenMemory,
  TaskId,
} from "@hearsay/core";

type NpcActionBody =
  | {
      readonly action: "speak";
      readonly to: NpcId;
      readonly text: string;
      /** How the speaker's regard for `to` moves by saying it; none, no change. */
      readonly regard?: RegardShift | undefined;
      /** What the speaker will remember of saying it (kept if the line goes unanswered). */
      readonly memories?: ReadonlyArray<SpokenMemory> | undefined;
      /** The line closes the talk: its listener is not asked to answer it. */
      readonly ends?: boolean | undefined;
    }
  | { readonly action: "move"; readonly to: LocationId; readonly reason: string }
  | { readonly action: "work"; readonly taskId: TaskId; readonly note: string }
  | {
      readonly action: "propose_task";
      readonly title: string;
      readonly description: string;
      readonly assignee: NpcId | null;
      readonly deadlineDays: number;
    }
  | { readonly action: "rest"; readonly hours: number }
  /** The assignee gives a task up. */
  | { readonly action: "give_up"; readonly taskId: TaskId; readonly reason: string }
  /** The proposer withdraws a task it proposed. */
  | { readonly action: "withdraw"; readonly taskId: TaskId; readonly reason: string }
  /** A party asks the other, present, to move the task's deadline `days` later. */
  | {
      readonly action: "move_deadline";
      readonly taskId: TaskId;
      readonly days: number;
      readonly reason: string;
    };

export type NpcAction = NpcActionBody & {
  /** The steps it means to take next, at later wake-ups (`agenda.ts`); none, no plan. */
  readonly agenda?: ReadonlyArray<AgendaStep> | undefined;
};
