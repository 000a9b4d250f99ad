/**
 * The timeline: events per game day by type (`timeline`), one day's events a page at a
 * time (`events`), and one event in full — payload, where and when, and who came to know
 * the item it is about, as of the cursor (`event`).
 */
import { formatGameTime, type GameTime } from "@hearsay/core";
import type { EventDetail, EventRow, ItemRef, Knower, Page, Timeline } from "./ApiTypes.ts";
import type { Inspection, RawEvent, ViewContext } from "./Inspection.ts";
import { BadRequest } from "./InspectorError.ts";
import { knowersOf } from "./KnowledgeView.ts";
import type { Params } from "./Params.ts";
import { segmentsOf } from "./Segments.ts";
import { summarise } from "./summarise.ts";

export const timelineView = (ctx: ViewContext): Timeline => ({
  days: ctx.index.days.all().map((d) => ({
    day: d.day,
    firstSeq: d.firstSeq,
    lastSeq: d.lastSeq,
    counts: d.counts,
  })),
  types: [...ctx.index.days.types].sort(),
});

const rowOf = (ctx: ViewContext, e: RawEvent): EventRow => ({
  seq: e.seq,
  t: e.t,
  time: formatGameTime(e.t as GameTime),
  type: e.type,
  summary: summarise(e.type, e.payload, (id) => ctx.index.nameOf(id)),
});

/** `day` (default: the cursor's), optional `type`, `offset`, `limit` (≤ 500). */
export const eventsView = (ctx: ViewContext, params: Params): Page<EventRow> => {
  const day = params.intOr("day", ctx.cursor.day, 0, 1_000_000);
  const type = params.str("type");
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 100, 1, 500);
  const rows: Array<RawEvent> = [];
  let total = 0;
  for (const s of segmentsOf(ctx.db, ctx.saveId)) {
    const where = `save_id = ? AND day = ? AND seq >= ? AND seq <= ?${type ? " AND type = ?" : ""}`;
    const args = [s.saveId, day, s.fromSeq, s.toSeq, ...(type ? [type] : [])];
    const n = ctx.db
      .prepare(`SELECT count(*) FROM events INDEXED BY events_day WHERE ${where}`)
      .pluck()
      .get(...args) as number;
    const skip = Math.max(0, offset - total);
    const want = limit - rows.length;
    if (want > 0 && skip < n) {
      const page = ctx.db
        .prepare(
          `SELECT seq, event_id, t, type, payload FROM events INDEXED BY events_day WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`,
        )
        .raw(true)
        .all(...args, want, skip) as Array<[number, string, number, string, string]>;
      for (const [seq, id, t, ty, payload] of page)
        rows.push({ seq, id, t, type: ty, payload: JSON.parse(payload) });
    }
    total += n;
  }
  return { total, offset, limit, rows: rows.map((e) => rowOf(ctx, e)) };
};

/** The item an event is, or is about, when it can be known. */
const itemOf = (e: RawEvent): ItemRef | null => {
  const p = e.payload as Record<string, unknown>;
  switch (e.type) {
    case "WorldEventOccurred":
      return { kind: "world_event", id: String(p.worldEventId) };
    case "DebateHeld":
      return { kind: "debate", id: String(p.debateId) };
    case "MemoryRecorded":
    case "MemoryExpired":
      return { kind: "memory", id: String(p.memoryId) };
    case "KnowledgeGained":
      return { kind: p.itemKind as ItemRef["kind"], id: String(p.itemId) };
    default:
      return null;
  }
};

const npcFields = [
  "npcId",
  "ownerNpcId",
  "speakerId",
  "fromId",
  "toId",
  "assignee",
  "proposedBy",
  "partnerId",
  "fromNpcId",
];

/** `seq` (default: the cursor). */
export const eventView = (insp: Inspection, ctx: ViewContext, params: Params): EventDetail => {
  const seq = params.intOr("seq", ctx.at, 1, ctx.index.head);
  const e = insp.event(ctx.saveId, seq);
  if (!e) throw new BadRequest({ status: 404, detail: `no event ${seq} in save "${ctx.saveId}"` });
  const p = (e.payload ?? {}) as Record<string, unknown>;
  const npcIds = new Set<string>();
  for (const f of npcFields) if (typeof p[f] === "string") npcIds.add(p[f] as string);
  for (const f of ["participants", "listenerIds"]) {
    if (Array.isArray(p[f])) for (const id of p[f] as Array<unknown>) npcIds.add(String(id));
  }
  let locationId =
    typeof p.locationId === "string"
      ? p.locationId
      : typeof p.to === "string" && e.type === "NpcMoved"
        ? p.to
        : null;
  const first = [...npcIds][0];
  if (locationId === null && first !== undefined)
    locationId = ctx.index.places.at(first, seq)?.locationId ?? null;
  const item = itemOf(e);
  const knowers: ReadonlyArray<Knower> = item ? knowersOf(ctx, item) : [];
  return {
    event: { ...rowOf(ctx, e), id: e.id, payload: e.payload },
    day: Math.floor(e.t / 1440),
    locationId,
    npcIds: [...npcIds],
    item,
    knowers,
  };
};
