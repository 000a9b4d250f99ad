/**
 * The `summarize_shared_scene` purpose: witnesses of a scene who heard the same lines,
 * took part in the same debates and know of the same happenings there are asked together,
 * once, for a memory each. The input holds only what every one of them knows — those
 * lines, debates and happenings, who took part (ids and names), and the speech style of
 * a witness only when the others heard it speak — and nothing private to any of them: no
 * regard, traits, role or memories. So each summary is that witness's view of what it
 * shared with the others, told in the first person; anything private stays in calls that
 * carry one witness's own view (`summarize_scene`).
 *
 * The answer holds one summary per witness, each naming its witness; an answer naming
 * someone the input did not offer is refused, and a witness it leaves out is asked on its
 * own.
 */
import { NpcId, SceneId } from "@hearsay/core";
import { Schema } from "effect";
import { Fraction, LineText, Participant } from "./Fields.ts";
import { SceneDebate, SceneLine } from "./SummarizeScenePurpose.ts";

/** One of the witnesses a summary is asked for. */
export const SharedWitness = Schema.Struct({
  id: NpcId,
  name: Schema.String,
  /** How it speaks, when the others heard it speak in the scene; else null. */
  speechStyle: Schema.NullOr(Schema.String),
});
export type SharedWitness = typeof SharedWitness.Type;

export const SummarizeSharedSceneInput = Schema.Struct({
  sceneId: SceneId,
  locationName: Schema.String,
  /** Whose memories these are, in id order. */
  witnesses: Schema.Array(SharedWitness).check(Schema.isMinLength(2)),
  /** Everyone the lines and debates involve (the witnesses among them), in id order. */
  present: Schema.Array(Participant),
  /** What every witness heard or said, oldest first. */
  lines: Schema.Array(SceneLine),
  /** Debates every witness took part in. */
  debates: Schema.Array(SceneDebate),
  /** Happenings at the place that every witness knows of. */
  happenings: Schema.Array(Schema.String),
});
export type SummarizeSharedSceneInput = typeof SummarizeSharedSceneInput.Type;

/** One witness's memory of the scene. */
export const WitnessSummary = Schema.Struct({
  witnessId: NpcId,
  /** First person, as that witness: what it saw and what it made of it. */
  summary: LineText(1000),
  importance: Fraction,
  /** The NPCs the summary is about, from `present`, never the witness itself. */
  about: Schema.Array(NpcId).check(Schema.isMaxLength(8)),
});
export type WitnessSummary = typeof WitnessSummary.Type;

export const SummarizeSharedSceneOutput = Schema.Struct({
  summaries: Schema.Array(WitnessSummary).check(Schema.isMaxLength(32)),
});
export type SummarizeSharedSceneOutput = typeof SummarizeSharedSceneOutput.Type;

export const summarizeSharedSceneInstruction = [
  "A scene has ended. Each of the `witnesses` remembers it: answer one JSON object with",
  "`summaries`, one entry per witness: `witnessId` (its id), `summary` (two to four",
  "sentences in that witness's first person and, where given, its speech style: what it",
  "saw and heard, and what it made of it — use only the lines, debates and happenings",
  "given, invent nothing, and let each witness speak of its own part: what it said and",
  "what was said to it), `importance` from 0 to 1 (small talk is low, promises, quarrels",
  "and news are high) and `about` (ids from `present` the summary is about, never the",
  "witness's own).",
].join("\n");
