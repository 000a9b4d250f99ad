/**
 * What each witness of a scene knows of it, and which witnesses can share one summary
 * call. Pure, so the visibility of both can be tested on any scene.
 *
 * A witness's view holds the lines it said or was addressed in, the debates it took part
 * in and the happenings at the place it knows of, all after its summary cursor, with the
 * others as it regards them. Witnesses whose views hold the same lines, debates and
 * happenings, and who each met all the others there, share a call: its input is what
 * they all know — those items, everyone they involve by id and name, and a witness's
 * speech style only when the others heard it speak. Nothing one of them holds alone
 * (regard, traits, role, faction) goes into it; that stays in calls for a single view.
 */
import type { NpcId, SceneId, WorldEventId } from "@hearsay/core";
import type {
  NpcGlimpse,
  NpcSelf,
  SceneLine,
  SummarizeSceneInput,
  SummarizeSharedSceneInput,
} from "@hearsay/mind";
import type { SceneDebateHeld, SceneExchange, SceneHappening } from "./NarrativeLedger.ts";

/** The part of a scene its summaries read. */
export interface SceneRecord {
  readonly sceneId: SceneId;
  readonly locationName: string;
  readonly lines: ReadonlyArray<SceneExchange>;
  readonly debates: ReadonlyArray<SceneDebateHeld>;
  readonly happenings: ReadonlyArray<SceneHappening>;
}

/** What the engine knows of one witness. */
export interface WitnessFacts {
  readonly self: NpcSelf;
  /** The last seq its summaries already cover. */
  readonly after: number;
  readonly knows: (worldEventId: WorldEventId) => boolean;
  /** How it regards another, or null when that one is no longer in the world. */
  readonly glimpse: (id: NpcId) => NpcGlimpse | null;
  readonly nameOf: (id: NpcId) => string;
}

/** One witness's view of the scene, or null when it has nothing new to remember. */
export const witnessView = (scene: SceneRecord, w: WitnessFacts): SummarizeSceneInput | null => {
  const self = w.self.id;
  const company = new Set<NpcId>();
  const lines: Array<SceneLine> = [];
  for (const l of scene.lines) {
    if (l.seq <= w.after || (l.speakerId !== self && !l.listenerIds.includes(self))) continue;
    lines.push({
      speakerId: l.speakerId,
      speakerName: w.nameOf(l.speakerId),
      listenerIds: [...l.listenerIds],
      text: l.text,
    });
    for (const id of [l.speakerId, ...l.listenerIds]) company.add(id);
  }
  const debates = scene.debates.filter((d) => d.seq > w.after && d.participants.includes(self));
  for (const d of debates) for (const id of d.participants) company.add(id);
  const happenings = scene.happenings.filter((h) => h.seq > w.after && w.knows(h.worldEventId));
  if (lines.length === 0 && debates.length === 0 && happenings.length === 0) return null;
  company.delete(self);
  return {
    sceneId: scene.sceneId,
    self: w.self,
    locationName: scene.locationName,
    company: [...company].sort().flatMap((id) => {
      const g = w.glimpse(id);
      return g === null ? [] : [g];
    }),
    lines,
    debates: debates.map((d) => ({ topic: d.topic, summary: d.summary, outcome: d.outcome })),
    happenings: happenings.map((h) => h.text),
  };
};

/** Witnesses asked together: the shared input, and each one's own view (in id order). */
export interface SharedScene {
  readonly input: SummarizeSharedSceneInput;
  readonly views: ReadonlyArray<SummarizeSceneInput>;
}

const heardKey = (v: SummarizeSceneInput): string =>
  JSON.stringify([v.lines, v.debates, v.happenings]);

/** Whether every witness of a group met every other one in the scene. */
const metAll = (group: ReadonlyArray<SummarizeSceneInput>): boolean =>
  group.every((v) =>
    group.every((o) => o.self.id === v.self.id || v.company.some((c) => c.id === o.self.id)),
  );

const sharedInput = (group: ReadonlyArray<SummarizeSceneInput>): SummarizeSharedSceneInput => {
  const first = group[0]!;
  // Everyone the items involve, as every witness knows them: by id and name only, and
  // only those all the witnesses met.
  const involved = [first.self, ...first.company]
    .filter((p) => group.every((v) => v.self.id === p.id || v.company.some((c) => c.id === p.id)))
    .map((p) => ({ id: p.id, name: p.name }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const spoke = (id: NpcId) =>
    first.debates.length > 0 || first.lines.some((l) => l.speakerId === id);
  return {
    sceneId: first.sceneId,
    locationName: first.locationName,
    witnesses: group.map((v) => ({
      id: v.self.id,
      name: v.self.name,
      speechStyle: spoke(v.self.id) ? v.self.speechStyle : null,
    })),
    present: involved,
    lines: first.lines,
    debates: first.debates,
    happenings: first.happenings,
  };
};

/**
 * Splits one scene's views into shared calls and views asked alone: witnesses whose
 * views hold the same items and who all met share one; the rest are asked alone. Views
 * come in witness id order and keep it within each part.
 */
export const shareScene = (
  views: ReadonlyArray<SummarizeSceneInput>,
): { readonly shared: ReadonlyArray<SharedScene>; readonly alone: Array<SummarizeSceneInput> } => {
  const groups = new Map<string, Array<SummarizeSceneInput>>();
  for (const v of views) {
    const key = heardKey(v);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [v]);
    else group.push(v);
  }
  const shared: Array<SharedScene> = [];
  const alone: Array<SummarizeSceneInput> = [];
  for (const group of groups.values()) {
    if (group.length >= 2 && metAll(group))
      shared.push({ input: sharedInput(group), views: group });
    else alone.push(...group);
  }
  const idOf = (v: SummarizeSceneInput) => v.self.id;
  alone.sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));
  return { shared, alone };
};
