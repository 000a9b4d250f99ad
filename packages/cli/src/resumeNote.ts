/**
 * What a command that takes up a stored run (`run --resume`, `skip`) says before its
 * first tick: rebuilding the NPCs' actors and opening the retrieval service each read a
 * long log for seconds, and a bar only starts once the run ticks.
 */
import type { ResumeStep } from "@hearsay/engine";
import { type ProgressStream, progressNote } from "./Progress.ts";

/** The line for a step of taking up a run. */
export const resumeStepText = ({ step, events }: ResumeStep): string => {
  const n = events.toLocaleString("en-US");
  return step === "actors"
    ? `resuming: the NPCs' actors from ${n} events of the log`
    : `resuming: the retrieval index and view of ${n} events`;
};

/** An `onResumeStep` that writes each step's line (nothing when quiet). */
export const resumeNotes =
  (quiet: boolean, out?: ProgressStream) =>
  (step: ResumeStep): void =>
    progressNote(resumeStepText(step), quiet, out);
