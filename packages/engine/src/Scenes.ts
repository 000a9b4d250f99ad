/**
 * Scenes: a stretch of shared time at one place. The first exchange there — a line
 * between NPCs, a debate — opens one (`SceneOpened`); every exchange at the place joins
 * it (the state's NarrativeLedger folds them); it closes (`SceneClosed`) when a
 * participant leaves or `sceneMaxMinutes` pass. On close every witness gets its own
 * summary, stored as its own `scene` memory, drawn only from what that witness heard,
 * debated or knows of (SceneWitnesses.ts): witnesses who heard the same lines share one
 * `summarize_shared_scene` call that answers a summary for each, given only what they
 * all know; any other witness gets a `summarize_scene` call of its own view. Every
 * leaver remembers where it was and whom it dealt with there (LeaveMemories.ts). An
 * answer that fails or names someone the witness did not meet is asked once more (for a
 * shared call, each witness it left without a summary, on its own), then skipped with a
 * recorded warning:
 * no text is ever made up in its place. Per-NPC and per-place cursors
 * (`SummaryCursorAdvanced`) make summarising a scene twice add nothing.
 */
import type { LocationId, NpcId, SceneCause, SceneId } from "@hearsay/core";
import {
  type BrainRequest,
  type SummarizeSceneInput,
  type SummarizeSharedSceneInput,
  type SummarizeSharedSceneOutput,
  validateAnswer,
  type WitnessSummary,
} from "@hearsay/mind";
import { Result } from "effect";
import { glimpseOf, selfOf } from "./Glimpses.ts";
import { rememberLeaving } from "./LeaveMemories.ts";
import { rememberKept } from "./Memories.ts";
import type { OpenScene } from "./NarrativeLedger.ts";
import { type SharedScene, shareScene, witnessView } from "./SceneWitnesses.ts";
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

const viewsOf = (ctx: TickContext, scene: OpenScene): Array<SummarizeSceneInput> => {
  const record = { ...scene, locationName: ctx.names.locationName(scene.locationId) };
  return [...scene.participants].sort().flatMap((self) => {
    if (!ctx.state.npcs.has(self)) return [];
    const npc = ctx.actors.facts(self)!;
    const view = witnessView(record, {
      self: selfOf(ctx, self),
      after: ctx.state.narrative.cursor("npc", self),
      knows: (id) => npc.rumours.has(id),
      glimpse: (id) => (ctx.state.npcs.has(id) ? glimpseOf(ctx, self, id) : null),
      nameOf: (id) => ctx.names.npcName(id),
    });
    return view === null ? [] : [view];
  });
};

const aloneRequest = (ctx: TickContext, input: SummarizeSceneInput): Request => ({
  purpose: "summarize_scene",
  npcId: input.self.id,
  t: ctx.t,
  seed: ctx.seed,
  dossier: null,
  input,
});

const sharedRequest = (ctx: TickContext, input: SummarizeSharedSceneInput): Request => ({
  purpose: "summarize_shared_scene",
  npcId: null,
  t: ctx.t,
  seed: ctx.seed,
  dossier: null,
  input,
});

type Request = BrainRequest<"summarize_scene"> | BrainRequest<"summarize_shared_scene">;
type Summary = Omit<WitnessSummary, "witnessId">;
/** A call to make: one witness's view, or witnesses sharing one. */
type Ask =
  | { readonly scene: OpenScene; readonly view: SummarizeSceneInput; readonly shared?: undefined }
  | { readonly scene: OpenScene; readonly shared: SharedScene; readonly view?: undefined };

/**
 * Asks every call once, then once more for each witness still without a summary — on
 * its own, whether its call was its own or shared. Returns each witness's summary, or
 * why it has none, by scene and witness.
 */
const askWithRetry = async (ctx: TickContext, asks: ReadonlyArray<Ask>) => {
  const got = new Map<string, { summary: Summary | null; why: string }>();
  const keyOf = (scene: OpenScene, id: NpcId) => `${scene.sceneId}\u0000${id}`;
  const round = async (batch: ReadonlyArray<Ask>): Promise<Array<Ask>> => {
    const requests = batch.map((a) =>
      a.shared === undefined ? aloneRequest(ctx, a.view) : sharedRequest(ctx, a.shared.input),
    );
    const outcomes = await ctx.brain.decideAll<Request["purpose"]>(requests, ctx.writer);
    const again: Array<Ask> = [];
    for (const [i, ask] of batch.entries()) {
      const o = outcomes[i]!;
      const request = requests[i]!;
      const checked = o.ok
        ? validateAnswer(request.purpose, request.input, o.answer.output)
        : Result.fail(o.error);
      const why = Result.isFailure(checked) ? checked.failure.message : "";
      if (ask.shared === undefined) {
        const summary = Result.isSuccess(checked) ? (checked.success as Summary) : null;
        got.set(keyOf(ask.scene, ask.view.self.id), { summary, why });
        if (summary === null) again.push(ask);
        continue;
      }
      const answered = Result.isSuccess(checked)
        ? (checked.success as SummarizeSharedSceneOutput).summaries
        : null;
      for (const view of ask.shared.views) {
        const own = answered?.find((s) => s.witnessId === view.self.id);
        if (own !== undefined) {
          const { witnessId: _, ...summary } = own;
          got.set(keyOf(ask.scene, view.self.id), { summary, why: "" });
        } else {
          // Asked again on its own, so one witness's refused part leaves the others a try.
          const left = answered === null ? why : "the shared summary left this witness out";
          got.set(keyOf(ask.scene, view.self.id), { summary: null, why: left });
          again.push({ scene: ask.scene, view });
        }
      }
    }
    return again;
  };
  const again = await round(asks);
  await round(again);
  return (scene: OpenScene, id: NpcId) => got.get(keyOf(scene, id));
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
  const asks: Array<Ask> = [];
  const witnesses: Array<{ scene: OpenScene; self: NpcId }> = [];
  for (const scene of todo) {
    const views = viewsOf(ctx, scene);
    for (const v of views) witnesses.push({ scene, self: v.self.id });
    const { shared, alone } = shareScene(views);
    for (const group of shared) asks.push({ scene, shared: group });
    for (const view of alone) asks.push({ scene, view });
  }
  const answerOf = await askWithRetry(ctx, asks);
  for (const { scene, self } of witnesses) {
    const answer = answerOf(scene, self)!;
    if (answer.summary === null) {
      warn(ctx, self, "scene_summary_failed", `scene ${scene.sceneId}: ${answer.why}`);
      continue;
    }
    rememberKept(ctx, self, {
      text: answer.summary.summary,
      category: "scene",
      importance: answer.summary.importance,
      lifetime: "30d",
      entities: [
        ctx.names.locationName(scene.locationId),
        ...answer.summary.about.map((id) => ctx.names.npcName(id)),
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
