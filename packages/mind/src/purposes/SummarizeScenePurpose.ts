/**
 * The `summarize_scene` purpose: when a scene closes, one witness writes what it saw and
 * what it made of it, in its own words. The input holds only what that witness knew —
 * the lines it heard or said while present, the debates it took part in, the happenings
 * at the place it knows of — so a summary can only ever draw on the witness's own view.
 * The answer names the NPCs it is about; an id the input did not offer is refused.
 */
import { NpcId, SceneId } from "@hearsay/core";
import { Schema } from "effect";
import { Fraction, LineText, NpcGlimpse, NpcSelf } from "./Fields.ts";

/** A line the witness heard (or said) during the scene. */
export const SceneLine = Schema.Struct({
  speakerId: NpcId,
  speakerName: Schema.String,
  /** Whom it was said to. */
  listenerIds: Schema.Array(NpcId),
  text: Schema.String,
});
export type SceneLine = typeof SceneLine.Type;

/** A debate the witness took part in during the scene. */
export const SceneDebate = Schema.Struct({
  topic: Schema.String,
  summary: Schema.String,
  outcome: Schema.String,
});
export type SceneDebate = typeof SceneDebate.Type;

export const SummarizeSceneInput = Schema.Struct({
  sceneId: SceneId,
  /** The witness whose summary this is. */
  self: NpcSelf,
  locationName: Schema.String,
  /** The others it shared the scene with, as it regards them. */
  company: Schema.Array(NpcGlimpse),
  /** What it heard or said while present, oldest first. */
  lines: Schema.Array(SceneLine),
  debates: Schema.Array(SceneDebate),
  /** Happenings at the place during the scene that it knows of. */
  happenings: Schema.Array(Schema.String),
});
export type SummarizeSceneInput = typeof SummarizeSceneInput.Type;

export const SummarizeSceneOutput = Schema.Struct({
  /** First person: what it saw and what it made of it. */
  summary: LineText(1000),
  importance: Fraction,
  /** The NPCs the summary is about, from `company`. */
  about: Schema.Array(NpcId).check(Schema.isMaxLength(8)),
});
export type SummarizeSceneOutput = typeof SummarizeSceneOutput.Type;

export const summarizeSceneInstruction = [
  "A scene you were in has ended. Remember it as one JSON object: `summary` (two to four",
  "sentences in the first person and in your own voice: what you saw and heard, and what",
  "you made of it — use only the lines, debates and happenings given, invent nothing),",
  "`importance` from 0 to 1 (small talk is low, promises, quarrels and news are high) and",
  "`about` (the ids of the people from `company` the summary is about).",
].join("\n");
