/**
 * World events and who comes to know them. `announce` records a WorldEventOccurred and,
 * through core's visibility rule, a KnowledgeGained fact for every NPC who learns of it
 * then — so the log, not a later guess, says who knew what and when. Each is written
 * with the time it lapses as news (engine config `worldEventLifetimes`, by importance),
 * after which it leaves every dossier. Scheduled events from the world file are
 * announced at their hour.
 */
import {
  type FactionId,
  gameTime,
  type LocationId,
  type NpcId,
  type Visibility,
  type WorldEventId,
  witnessesOf,
  worldEventLapsesAt,
} from "@hearsay/core";
import type { TickContext } from "./TickContext.ts";

export interface Announcement {
  readonly worldEventId?: WorldEventId;
  readonly kind: string;
  readonly text: string;
  readonly locationId: LocationId | null;
  readonly factionId: FactionId | null;
  readonly visibility: Visibility;
  readonly importance: number;
  readonly participants: ReadonlyArray<NpcId>;
  readonly entities: ReadonlyArray<string>;
}

/** Records a world event and the knowledge it gives; returns its id and who learnt it. */
export const announce = (
  ctx: TickContext,
  a: Announcement,
): { readonly id: WorldEventId; readonly learnt: ReadonlyArray<NpcId> } => {
  const id = a.worldEventId ?? (ctx.writer.mint("we") as WorldEventId);
  ctx.writer.emit("WorldEventOccurred", {
    worldEventId: id,
    kind: a.kind,
    text: a.text,
    locationId: a.locationId,
    factionId: a.factionId,
    visibility: a.visibility,
    importance: a.importance,
    participants: [...a.participants],
    entities: [...a.entities],
    lapsesAt: worldEventLapsesAt(
      ctx.config.worldEventLifetimes,
      { id, importance: a.importance },
      ctx.t,
    ),
  });
  const state = ctx.state;
  const witnesses = witnessesOf(a, {
    presentAt: (l) => state.presentAt(l),
    membersOf: (f) => factionMembers(ctx, f),
    everyone: () => [...state.npcs.keys()].sort(),
  });
  for (const w of witnesses) {
    ctx.writer.emit("KnowledgeGained", {
      npcId: w.npcId,
      itemKind: "world_event",
      itemId: id,
      via: w.via,
      fromNpcId: null,
      confidence: 1,
    });
  }
  return { id, learnt: witnesses.map((w) => w.npcId) };
};

const factionMembers = (ctx: TickContext, faction: FactionId): ReadonlyArray<NpcId> =>
  [...ctx.state.npcs.values()]
    .filter((n) => n.factionId === faction)
    .map((n) => n.id)
    .sort();

/** Announces the world file's scheduled events whose hour falls in this tick. */
export const announceScheduled = (ctx: TickContext): void => {
  const due = ctx.world.scheduledEvents
    .filter((e) => {
      const at = gameTime(e.day, e.hour);
      return at > ctx.from && at <= ctx.t && !ctx.state.worldEvents.has(e.id);
    })
    .sort((a, b) => a.day - b.day || a.hour - b.hour || (a.id < b.id ? -1 : 1));
  for (const e of due) {
    announce(ctx, {
      worldEventId: e.id,
      kind: e.kind,
      text: e.text,
      locationId: e.locationId,
      factionId: e.factionId,
      visibility: e.visibility,
      importance: e.importance,
      participants: e.participants,
      entities: e.entities,
    });
  }
};
