/**
 * The JSON API's routes: each `/api/<name>` path and the view that answers it. Every
 * route is a read; all take `save` and most take `at` (a seq: the day scrubber).
 */
import { costView } from "./CostView.ts";
import type { Inspection } from "./Inspection.ts";
import { itemsView, itemView, matrixView } from "./KnowledgeView.ts";
import { dossierView, memoriesView, npcsView, npcView } from "./NpcView.ts";
import type { Params } from "./Params.ts";
import { conversationsView, debatesView } from "./TalkView.ts";
import { eventsView, eventView, timelineView } from "./TimelineView.ts";
import { cursorView, metaView, worldView } from "./WorldView.ts";

/** A route's answer for one request. */
export type Route = (insp: Inspection, params: Params) => unknown;

/** Every API route by path. */
export const routes: Readonly<Record<string, Route>> = {
  "/api/meta": metaView,
  "/api/cursor": cursorView,
  "/api/world": (i, p) => worldView(i.context(p)),
  "/api/timeline": (i, p) => timelineView(i.context(p)),
  "/api/events": (i, p) => eventsView(i.context(p), p),
  "/api/event": (i, p) => eventView(i, i.context(p), p),
  "/api/items": (i, p) => itemsView(i.context(p), p),
  "/api/item": (i, p) => itemView(i.context(p), p),
  "/api/matrix": (i, p) => matrixView(i.context(p), p),
  "/api/npcs": (i, p) => npcsView(i.context(p), p),
  "/api/npc": (i, p) => npcView(i.context(p), p),
  "/api/memories": (i, p) => memoriesView(i.context(p), p),
  "/api/dossier": (i, p) => dossierView(i.context(p), p),
  "/api/debates": (i, p) => debatesView(i.context(p), p),
  "/api/conversations": (i, p) => conversationsView(i.context(p), p),
  "/api/cost": (i, p) => costView(i.context(p), p),
};
