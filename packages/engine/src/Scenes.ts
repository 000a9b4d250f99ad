/**
 * Scenes: a stretch of shared time at one place. The first exchange there — a line
 * between NPCs, a debate — opens one (`SceneOpened`); every exchange at the place joins
 * it (the state's NarrativeLedger folds them); it closes (`SceneClosed`) when a
 * participant leaves or `sceneMaxMinutes` pass. On close every witness gets its own
 * summary — a `summarize_scene` brain call given only what that witness heard, debated
 * or knows of, stored as its own `scene` memory — and every leaver remembers where it
 * was and whom it dealt with there (LeaveMemories.ts). An answer that fails or names
 * someone the witness did not meet is asked once more, then skipped with a recorded
 * warning: no text is ever made up in its place. Per-NPC and per-place cursors
 * (`SummaryCursorAdvanced`) make summarising a scene twice add nothing.
 */
import type { LocationId, NpcId, SceneCause, SceneId } from "@hearsay/core";
import { type BrainRequest, type SceneLine, validateAnswer } from "@hearsay/mind";
import { Result } from "effect";
import { glimpseOf, selfOf } from "./Glimpses.ts";
import { rememberLeaving } from "./LeaveMemories.ts";
import { rememberKept } from "./Memories.ts";
import type { OpenScene } from "./NarrativeLedger.ts";
import type { TickContext } from "./TickContext.ts";
import { warn } from "./Turns.ts";

/** Opens a scene at the place unless one is open; call it before the exchange is emitted. */
export const openScene = (
  ctx: TickContext,
  locationId: LocationId,
  participants: ReadonlyArray<NpcId>,
  cause: SceneCause,
): void => {
  if (ctx.state.narrative.open.has(locationId)) return;
  ctx.writer.emit("SceneOpened", {
    sceneId: ctx.writer.mint("scene") as SceneId,
    locationId,
    participants: [...new Set(participants)].sort(),
    cause,
  });
};

/** Closes, in place order, every scene a participant has left or that has run its time. */
export const closeScenes = async (ctx: TickContext): Promise<void> => {
  const due = [...ctx.state.narrative.open.values()]
    .filter((s) => s.leavers.size > 0 || ctx.t - s.openedAt >= ctx.config.sceneMaxMinutes)
    .sort((a, b) => (a.locationId < b.locationId ? -1 : 1));
  if (due.length === 0) return;
  await summarizeScenes(ctx, due);
  for (const scene of due) {
    ctx.writer.emit("SceneClosed", {
      sceneId: scene.sceneId,
      locationId: scene.locationId,
      participants: [...scene.participants].sort(),
      leavers: [...scene.leavers].sort(),
      reason: scene.leavers.size > 0 ? "left" : "time",
      fromSeq: scene.fromSeq,
      throughSeq: scene.throughSeq,
    });
  }
};

/** One witness's request, or null when it has nothing new to remember of the scene. */
const requestFor = (
  ctx: TickContext,
  scene: OpenScene,
  self: NpcId,
): BrainRequest<"summarize_scene"> | null => {
  const after = ctx.state.narrative.cursor("npc", self);
  const npc = ctx.actors.facts(self)!;
  const company = new Set<NpcId>();
  const lines: Array<SceneLine> = [];
  for (const l of scene.lines) {
    if (l.seq <= after || (l.speakerId !== self && !l.listenerIds.includes(self))) continue;
    lines.push({
      speakerId: l.speakerId,
      speakerName: ctx.names.npcName(l.speakerId),
      listenerIds: [...l.listenerIds],
      text: l.text,
    });
    for (const id of [l.speakerId, ...l.listenerIds]) company.add(id);
  }
  const debates = scene.debates.filter((d) => d.seq > after && d.participants.includes(self));
  for (const d of debates) for (const id of d.participants) company.add(id);
  const happenings = scene.happenings.filter(
    (h) => h.seq > after && npc.rumours.has(h.worldEventId),
  );
  if (lines.length === 0 && debates.length === 0 && happenings.length === 0) return null;
  company.delete(self);
  return {
    purpose: "summarize_scene",
    npcId: self,
    t: ctx.t,
    seed: ctx.seed,
    dossier: null,
    input: {
      sceneId: scene.sceneId,
      self: selfOf(ctx, self),
      locationName: ctx.names.locationName(scene.locationId),
      company: [...company]
        .filter((id) => ctx.state.npcs.has(id))
        .sort()
        .map((id) => glimpseOf(ctx, self, id)),
      lines,
      debates: debates.map((d) => ({ topic: d.topic, summary: d.summary, outcome: d.outcome })),
      happenings: happenings.map((h) => h.text),
    },
  };
};

type Asked = { readonly scene: OpenScene; readonly request: BrainRequest<"summarize_scene"> };

/** Asks every request; returns the valid answers' outputs, null for those that failed twice. */
const askWithRetry = async (ctx: TickContext, asked: ReadonlyArray<Asked>) => {
  const ask = async (batch: ReadonlyArray<Asked>) => {
    const outcomes = await ctx.brain.decideAll(
      batch.map((a) => a.request),
      ctx.writer,
    );
    return outcomes.map((o, i) => {
      if (!o.ok) return { output: null, why: o.error.message };
      const checked = validateAnswer("summarize_scene", batch[i]!.request.input, o.answer.output);
      return Result.isSuccess(checked)
        ? { output: checked.success, why: "" }
        : { output: null, why: checked.failure.message };
    });
  };
  const first = await ask(asked);
  const again = asked.filter((_, i) => first[i]!.output === null);
  const second = await ask(again);
  let j = 0;
  return first.map((r) => (r.output !== null ? r : second[j++]!));
};

/**
 * Summarises scenes for their witnesses and remembers the leavers' leaving, then moves
 * the cursors. Anything already covered by a cursor is skipped, so a second call over
 * the same scenes adds nothing.
 */
export const summarizeScenes = async (
  ctx: TickContext,
  scenes: ReadonlyArray<OpenScene>,
): Promise<void> => {
  const todo = scenes.filter(
    (s) => ctx.state.narrative.cursor("location", s.locationId) < s.throughSeq,
  );
  const asked: Array<Asked> = [];
  for (const scene of todo) {
    for (const self of [...scene.participants].sort()) {
      if (!ctx.state.npcs.has(self)) continue;
      const request = requestFor(ctx, scene, self);
      if (request !== null) asked.push({ scene, request });
    }
  }
  const answers = await askWithRetry(ctx, asked);
  for (const [i, { scene, request }] of asked.entries()) {
    const self = request.npcId!;
    const answer = answers[i]!;
    if (answer.output === null) {
      warn(ctx, self, "scene_summary_failed", `scene ${scene.sceneId}: ${answer.why}`);
      continue;
    }
    rememberKept(ctx, self, {
      text: answer.output.summary,
      category: "scene",
      importance: answer.output.importance,
      lifetime: "30d",
      entities: [
        ctx.names.locationName(scene.locationId),
        ...answer.output.about.map((id) => ctx.names.npcName(id)),
      ],
      about: { kind: "scene", id: scene.sceneId },
      locationId: scene.locationId,
    });
    ctx.writer.emit("SummaryCursorAdvanced", {
      scope: "npc",
      scopeId: self,
      throughSeq: scene.throughSeq,
    });
  }
  for (const scene of todo) {
    for (const leaver of [...scene.leavers].sort()) rememberLeaving(ctx, scene, leaver);
    ctx.writer.emit("SummaryCursorAdvanced", {
      scope: "location",
      scopeId: scene.locationId,
      throughSeq: scene.throughSeq,
    });
  }
};
