/**
 * Planned happenings (issue 8's scoped events), run by rule each tick — no brain calls.
 *
 *   planned ──(due, preconditions hold)──▶ active ──(its hours are over)──▶ completed
 *      ├──(due, a task or event precondition does not hold)──▶ cancelled
 *      └──(not enough of the right people there within `happeningGraceHours`)──▶ expired
 *
 * The world file's happenings are planned when the run starts. When one becomes active
 * its props come into being (PropIntroduced) and its start is announced to those who may
 * know (core's visibility rule). When it completes, every acquirable prop goes to an
 * attendee (a seeded draw), and only three things outlast it: the objects acquired
 * (the holder's inventory and its memory of carrying it off), knowledge gained (the
 * announcements and each attendee's prop-free memory of being there), and relationship
 * changes (host and attendees warm to each other). Everything else — every prop nobody
 * carried off — stays in the closed happening's record.
 */
import {
  canMoveHappening,
  gameTime,
  type HappeningId,
  type HappeningStatus,
  type NpcId,
  Prng,
  type PlannedHappening as WorldHappening,
} from "@hearsay/core";
import { companyOf } from "./Glimpses.ts";
import type { HappeningRuntime } from "./HappeningBook.ts";
import { announce } from "./Happenings.ts";
import { remember } from "./Memories.ts";
import type { TickContext } from "./TickContext.ts";

/** Trust a shared happening adds between host and attendee, each way. */
const WARMTH = 0.03;

const move = (
  ctx: TickContext,
  h: HappeningRuntime,
  to: HappeningStatus,
  reason: string,
  attendees: ReadonlyArray<NpcId>,
): void => {
  if (!canMoveHappening(h.status, to)) return;
  ctx.writer.emit("HappeningStatusChanged", {
    happeningId: h.id,
    from: h.status,
    to,
    reason,
    attendees: [...attendees],
  });
};

const tell = (
  ctx: TickContext,
  h: HappeningRuntime,
  text: string,
  attendees: ReadonlyArray<NpcId>,
) =>
  announce(ctx, {
    kind: h.kind,
    text,
    locationId: h.locationId,
    factionId: h.factionId,
    visibility: h.visibility,
    importance: 0.5,
    participants: attendees,
    entities: [h.name, ctx.names.locationName(h.locationId)],
  });

/** Plans the world file's happenings not planned yet. */
const planSeeded = (ctx: TickContext): void => {
  for (const w of ctx.world.plannedHappenings) {
    if (ctx.state.happenings.byId.has(w.id)) continue;
    const startsAt = gameTime(w.day, w.hour);
    ctx.writer.emit("HappeningPlanned", {
      happeningId: w.id,
      name: w.name,
      kind: w.kind,
      description: w.description,
      locationId: w.locationId,
      factionId: w.factionId,
      hostId: w.hostId,
      visibility: w.visibility,
      startsAt,
      endsAt: (startsAt + w.durationHours * 60) as typeof startsAt,
    });
  }
};

/** Why a fact precondition (a task done, an event held) fails, or null. */
const factProblem = (ctx: TickContext, w: WorldHappening): string | null => {
  for (const c of w.preconditions) {
    if (c.type === "taskCompleted" && ctx.actors.task(c.taskId)?.status !== "completed")
      return `the task ${c.taskId} was not completed`;
    if (c.type === "eventOccurred" && !ctx.state.worldEvents.has(c.worldEventId))
      return `${c.worldEventId} had not happened`;
  }
  return null;
};

/** Why the people it needs are not there, or null. */
const presenceProblem = (
  ctx: TickContext,
  w: WorldHappening,
  here: ReadonlyArray<NpcId>,
): string | null => {
  for (const c of w.preconditions) {
    if (c.type === "npcPresent" && !here.includes(c.npcId))
      return `${ctx.names.npcName(c.npcId)} was not there`;
    if (c.type === "minPresent" && here.length < c.count)
      return `only ${here.length} of the ${c.count} needed came`;
  }
  return null;
};

const start = (
  ctx: TickContext,
  h: HappeningRuntime,
  w: WorldHappening,
  here: ReadonlyArray<NpcId>,
) => {
  move(ctx, h, "active", "everyone it needs is there", here);
  for (const prop of w.props) {
    ctx.writer.emit("PropIntroduced", {
      happeningId: h.id,
      propId: prop.id,
      name: prop.name,
      description: prop.description,
      acquirable: prop.acquirable ?? false,
    });
  }
  tell(ctx, h, `${h.name} has begun at ${ctx.names.locationName(h.locationId)}.`, here);
};

const warm = (ctx: TickContext, from: NpcId, to: NpcId, why: string): void => {
  const prior = ctx.actors.regard(from, to) ?? { trust: 0, respect: 0, suspicion: 0, summary: "" };
  ctx.writer.emit("RelationshipChanged", {
    fromId: from,
    toId: to,
    trust: Math.min(1, Math.round((prior.trust + WARMTH) * 1000) / 1000),
    respect: prior.respect,
    suspicion: prior.suspicion,
    summary: prior.summary === "" ? why : prior.summary,
    reason: why.slice(0, 300),
  });
};

const complete = (ctx: TickContext, h: HappeningRuntime, here: ReadonlyArray<NpcId>): void => {
  const place = ctx.names.locationName(h.locationId);
  if (here.length > 0) {
    for (const prop of [...h.props.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (!prop.acquirable || prop.holder !== null) continue;
      const holder = Prng.derive(ctx.seed, "prop", h.id, prop.id).pick(here);
      ctx.writer.emit("PropAcquired", { happeningId: h.id, propId: prop.id, npcId: holder });
    }
  }
  move(ctx, h, "completed", "its hours are over", here);
  // 1. Objects acquired become the holder's own.
  for (const prop of [...h.props.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (prop.holder === null) continue;
    remember(ctx, prop.holder, {
      text: `I came away from ${h.name} with ${prop.name}.`,
      category: "observation",
      importance: 0.6,
      lifetime: "permanent",
      entities: [h.name, prop.name],
      about: { kind: "happening", id: h.id },
      locationId: h.locationId,
    });
  }
  // 2. Knowledge gained: that it was held, and each attendee's memory of being there.
  tell(ctx, h, `${h.name} at ${place} is over.`, here);
  for (const npc of here) {
    remember(ctx, npc, {
      text: `I was at ${h.name} at ${place}.`,
      category: "observation",
      importance: 0.5,
      lifetime: "30d",
      entities: [h.name, place],
      about: { kind: "happening", id: h.id },
      locationId: h.locationId,
    });
  }
  // 3. Relationship changes: host and attendees warm to each other.
  if (h.hostId !== null && here.includes(h.hostId)) {
    for (const npc of here) {
      if (npc === h.hostId) continue;
      warm(ctx, h.hostId, npc, `Came to my ${h.kind}.`);
      warm(ctx, npc, h.hostId, `Hosted ${h.name}.`);
    }
  }
};

const stop = (
  ctx: TickContext,
  h: HappeningRuntime,
  to: "cancelled" | "expired",
  reason: string,
  here: ReadonlyArray<NpcId>,
): void => {
  move(ctx, h, to, reason, here);
  tell(ctx, h, `${h.name} was ${to === "cancelled" ? "called off" : "given up"}: ${reason}.`, here);
};

/**
 * The tick's happening step: plans the world's happenings, starts, cancels or expires
 * those due, and completes those whose hours are over — in id order.
 */
export const runPlannedHappenings = (ctx: TickContext): void => {
  planSeeded(ctx);
  const book = ctx.state.happenings;
  const defs = new Map<HappeningId, WorldHappening>(
    ctx.world.plannedHappenings.map((w) => [w.id, w]),
  );
  for (const id of [...book.live].sort()) {
    const h = book.byId.get(id)!;
    const here = companyOf(ctx, null, h.locationId);
    if (h.status === "active") {
      if (h.endsAt <= ctx.t) complete(ctx, h, here);
      continue;
    }
    const w = defs.get(id);
    if (h.startsAt > ctx.t || w === undefined) continue;
    const fact = factProblem(ctx, w);
    if (fact !== null) {
      stop(ctx, h, "cancelled", fact, here);
      continue;
    }
    const missing = presenceProblem(ctx, w, here);
    if (missing === null) start(ctx, h, w, here);
    else if (ctx.t >= h.startsAt + ctx.config.happeningGraceHours * 60 || ctx.t >= h.endsAt)
      stop(ctx, h, "expired", missing, here);
  }
};
