/**
 * Events of narrative memory: scenes and the cursors of summarisation. A scene is a
 * stretch of shared time at one place — NPCs who talked or debated there — opened by its
 * first exchange and closed when a participant leaves or enough game time passes; on
 * close each witness remembers it in its own words (a `MemoryRecorded` it owns, never a
 * narration shared by all). A cursor records, per scope, the last seq summarised, so
 * nothing is summarised twice — not by a resumed run, not by a second pass.
 */
import { Schema } from "effect";
import { LocationId, NpcId } from "../ids.ts";
import { defineEvent } from "./defineEvent.ts";

export const SceneId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).pipe(
  Schema.brand("SceneId"),
);
export type SceneId = typeof SceneId.Type;

/** What drew NPCs into a scene: talk between them, or a debate held at the place. */
export const SceneCause = Schema.Literals(["conversation", "debate"]);
export type SceneCause = typeof SceneCause.Type;

/** Why a scene ended: a participant left (moved off, set out, fell asleep), or time ran out. */
export const SceneCloseReason = Schema.Literals(["left", "time"]);
export type SceneCloseReason = typeof SceneCloseReason.Type;

/** A scene began at a place; its seq is the first of the scene's range. */
export const SceneOpened = defineEvent("SceneOpened", 1, {
  sceneId: SceneId,
  locationId: LocationId,
  /** Who drew it open; others join as they speak, listen or debate there. */
  participants: Schema.Array(NpcId),
  cause: SceneCause,
});

/** A scene ended. Its range of the log is [fromSeq, throughSeq]. */
export const SceneClosed = defineEvent("SceneClosed", 1, {
  sceneId: SceneId,
  locationId: LocationId,
  /** Everyone who spoke, was spoken to or debated in it, in id order. */
  participants: Schema.Array(NpcId),
  /** Participants who had left when it closed, in id order. */
  leavers: Schema.Array(NpcId),
  reason: SceneCloseReason,
  /** The SceneOpened seq. */
  fromSeq: Schema.Int,
  /** The seq of its last exchange. */
  throughSeq: Schema.Int,
});

/** The scope a summary cursor covers: one NPC's scenes, one place's scenes, the world's changes. */
export const SummaryScope = Schema.Literals(["npc", "location", "world"]);
export type SummaryScope = typeof SummaryScope.Type;

/** Everything of `scope`/`scopeId` up to `throughSeq` has been summarised. */
export const SummaryCursorAdvanced = defineEvent("SummaryCursorAdvanced", 1, {
  scope: SummaryScope,
  /** The NPC or location id; `world` for the world scope. */
  scopeId: Schema.String,
  throughSeq: Schema.Int,
});
