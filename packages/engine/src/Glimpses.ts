/**
 * How an NPC sees itself and those around it when asked to act: the brain inputs built
 * from the world file and the engine state. Only what the NPC could see is included —
 * who is here and awake, where it can go from here, its own open tasks.
 */
import { liveSteps, type NpcFacts } from "@hearsay/actors";
import {
  type GameTime,
  type LocationId,
  MINUTES_PER_DAY,
  type NpcId,
  type ProfileTrigger,
} from "@hearsay/core";
import type {
  ActInput,
  NpcGlimpse,
  NpcSelf,
  Place,
  ProfileInput,
  ReviseProfileInput,
} from "@hearsay/mind";
import type { Routes } from "./Routes.ts";
import type { TickContext } from "./TickContext.ts";

const awake = (activity: string) => activity !== "asleep" && activity !== "travelling";

/** Whether `npc` is at `place` and awake: someone who can be spoken to there. */
export const awakeAt = (ctx: TickContext, npc: NpcId, place: LocationId): boolean => {
  const other = ctx.state.npcs.get(npc);
  return other !== undefined && other.locationId === place && awake(other.activity);
};

/**
 * Awake NPCs at a location other than `self`, in id order. Filtered before it is sorted:
 * at night, or in a crowded square, most of those present are asleep or on their way.
 */
export const companyOf = (
  ctx: TickContext,
  self: NpcId | null,
  location: LocationId,
): ReadonlyArray<NpcId> => {
  const out: Array<NpcId> = [];
  for (const id of ctx.state.presence.get(location) ?? [])
    if (id !== self && awake(ctx.state.npcs.get(id)!.activity)) out.push(id);
  return out.sort();
};

/** How many awake NPCs other than `self` are at a location (a wake-up's gating needs no list). */
export const companyCount = (ctx: TickContext, self: NpcId, location: LocationId): number => {
  let n = 0;
  for (const id of ctx.state.presence.get(location) ?? [])
    if (id !== self && awake(ctx.state.npcs.get(id)!.activity)) n += 1;
  return n;
};

export const selfOf = (ctx: TickContext, id: NpcId): NpcSelf => {
  const npc = ctx.state.npcs.get(id)!;
  const def = ctx.names.npc(id);
  return {
    id,
    name: npc.name,
    role: npc.role,
    factionId: npc.factionId,
    traits: [...npc.traits],
    speechStyle: def?.speechStyle ?? null,
  };
};

export const glimpseOf = (ctx: TickContext, viewer: NpcId, id: NpcId): NpcGlimpse => {
  const npc = ctx.state.npcs.get(id)!;
  const edge = ctx.actors.regard(viewer, id);
  const regard = edge ? Math.max(-1, Math.min(1, edge.trust - edge.suspicion / 2)) : 0;
  return { id, name: npc.name, role: npc.role, factionId: npc.factionId, regard };
};

/**
 * What an NPC at a place sees of the world's map: the place, and where it can go from
 * there (its neighbours, its home and workplace, if a route leads there), in id order.
 * Both are the world file's, which a run never changes: each NPC's are worked out once
 * per place it stands in, for the run's routes.
 */
interface Whereabouts {
  readonly location: Place;
  readonly reachable: ReadonlyArray<Place>;
}

const whereaboutsByRun = new WeakMap<
  Routes,
  {
    readonly places: Map<LocationId, Place>;
    readonly byNpc: Map<NpcId, Map<LocationId, Whereabouts>>;
  }
>();

const whereabouts = (ctx: TickContext, id: NpcId, at: LocationId): Whereabouts => {
  let run = whereaboutsByRun.get(ctx.routes);
  if (run === undefined) {
    run = { places: new Map(), byNpc: new Map() };
    whereaboutsByRun.set(ctx.routes, run);
  }
  let mine = run.byNpc.get(id);
  if (mine === undefined) {
    mine = new Map();
    run.byNpc.set(id, mine);
  }
  const known = mine.get(at);
  if (known !== undefined) return known;
  const { places } = run;
  const place = (loc: LocationId): Place => {
    let p = places.get(loc);
    if (p === undefined) {
      const l = ctx.names.location(loc)!;
      // Shared by every input that names the place: frozen, so none can change another's.
      p = Object.freeze({ id: l.id, name: l.name, tags: Object.freeze([l.kind]) });
      places.set(loc, p);
    }
    return p;
  };
  const def = ctx.names.npc(id);
  const near = new Set<LocationId>(ctx.names.location(at)!.neighbours.map((n) => n.to));
  if (def?.home) near.add(def.home);
  if (def?.workplace) near.add(def.workplace);
  near.delete(at);
  const reachable = [...near].filter((l) => ctx.routes.travelMinutes(at, l) !== null).sort();
  const seen = { location: place(at), reachable: Object.freeze(reachable.map(place)) };
  mine.set(at, seen);
  return seen;
};

export const actInputOf = (
  ctx: TickContext,
  id: NpcId,
  present: ReadonlyArray<NpcId>,
): ActInput => {
  const npc = ctx.state.npcs.get(id)!;
  const def = ctx.names.npc(id);
  const { location, reachable } = whereabouts(ctx, id, npc.locationId);
  const tasks = ctx.actors.partyTasksOf(id).map((task) => {
    // Progress is counted where the task is held: the assignee's own record.
    const held = task.assignee === id ? task : (ctx.actors.task(task.id) ?? task);
    return {
      id: task.id,
      title: task.title,
      status: task.status,
      locationId: task.locationId,
      deadline: task.deadline,
      proposedBy: task.proposedBy,
      assignee: task.assignee,
      sessions: held.sessions,
      deadlineMoves: task.deadlineMoves,
    };
  });
  // What it had planned and not yet taken: the answer keeps or changes it.
  const planned = liveSteps(ctx.actors.facts(id)?.agenda ?? null, ctx.t);
  return {
    self: selfOf(ctx, id),
    location,
    reachable,
    present: present.map((p) => glimpseOf(ctx, id, p)),
    tasks,
    home: def?.home ?? null,
    workplace: def?.workplace ?? null,
    ...(planned.length > 0 ? { planned: [...planned] } : {}),
  };
};

export const profileInputOf = (ctx: TickContext, id: NpcId): ProfileInput => {
  const npc = ctx.state.npcs.get(id)!;
  const def = ctx.names.npc(id);
  const known = (def?.knows ?? []).map((k) => k.npcId).filter((k) => ctx.state.npcs.has(k));
  return {
    self: selfOf(ctx, id),
    locationName: ctx.names.locationName(npc.locationId),
    factionName: ctx.names.factionName(npc.factionId),
    acquaintances: [...new Set(known)].sort().map((k) => glimpseOf(ctx, id, k)),
  };
};

/** Where the NPC is and who is there awake: the scene a dossier is built for. */
export const sceneOf = (
  ctx: TickContext,
  id: NpcId,
): { readonly locationId: LocationId; readonly present: ReadonlyArray<NpcId> } => {
  const locationId = ctx.state.npcs.get(id)!.locationId;
  return { locationId, present: companyOf(ctx, id, locationId) };
};

/** What a first profile's dossier searches for: who the NPC is, where, and with whom. */
export const profileQuery = (ctx: TickContext, id: NpcId): string => {
  const npc = ctx.state.npcs.get(id)!;
  return [
    npc.name,
    npc.role,
    ctx.names.locationName(npc.locationId),
    ctx.names.factionName(npc.factionId) ?? "",
    ...npc.traits,
  ]
    .filter((w) => w.length > 0)
    .join(" ");
};

/** What a revision's dossier searches for: what made it due. */
export const revisionQuery = (ctx: TickContext, facts: NpcFacts): string => {
  const since = facts.sinceProfile;
  const parts = [
    ctx.state.npcs.get(facts.npcId)?.name ?? "",
    ...since.completed,
    ...since.broken,
    ...since.feuds.map((f) => ctx.state.npcs.get(f)?.name ?? ""),
  ];
  return parts
    .filter((w) => w.length > 0)
    .join(" ")
    .split(/\s+/)
    .slice(0, 48)
    .join(" ");
};

/** A revision's input: the profile as it stands and the evidence for each trigger. */
export const reviseInputOf = (
  ctx: TickContext,
  facts: NpcFacts,
  triggers: ReadonlyArray<ProfileTrigger>,
  t: GameTime,
): ReviseProfileInput => {
  const since = facts.sinceProfile;
  const id = facts.npcId;
  return {
    self: selfOf(ctx, id),
    profile: facts.profile!,
    triggers: [...triggers],
    completed: [...since.completed],
    broken: [...since.broken],
    feuds: since.feuds.filter((f) => ctx.state.npcs.has(f)).map((f) => glimpseOf(ctx, id, f)),
    days: since.at === null ? 0 : Math.floor((t - since.at) / MINUTES_PER_DAY),
  };
};
