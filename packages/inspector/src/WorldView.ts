/**
 * The views every panel shares: the database and its saves (`meta`), the day scrubber's
 * cursor (`cursor`: the last event of a day, or any seq, with its neighbours) and the
 * world's overview at the cursor (`world`: where NPCs are, what they do, running totals).
 */
import type { CursorAnswer, Meta, SaveSummary, WorldAt } from "./ApiTypes.ts";
import type { Inspection, ViewContext } from "./Inspection.ts";
import { BadRequest } from "./InspectorError.ts";
import type { Params } from "./Params.ts";

export const metaView = (insp: Inspection, params: Params): Meta => {
  const saveId = params.str("save") ?? insp.defaultSave;
  const index = insp.index(saveId);
  const saves = (
    insp.db
      .prepare(
        "SELECT save_id, name, head_seq, parent_save_id, parent_seq FROM saves ORDER BY save_id",
      )
      .raw(true)
      .all() as Array<[string, string, number, string | null, number | null]>
  ).map(
    ([id, name, head, parent, parentSeq]): SaveSummary => ({
      saveId: id,
      name,
      head,
      parent: parent === null ? null : { saveId: parent, seq: parentSeq ?? 0 },
    }),
  );
  const ws = insp.db
    .prepare("SELECT simulation, seed, brain, tick_minutes FROM world_state WHERE save_id = ?")
    .get(saveId) as
    | { simulation: string; seed: number; brain: string; tick_minutes: number }
    | undefined;
  const days = index.days.all();
  return {
    dbPath: insp.dbPath,
    saves,
    saveId,
    head: index.head,
    firstDay: days[0]?.day ?? 0,
    lastDay: days[days.length - 1]?.day ?? 0,
    simulation: ws?.simulation ?? null,
    seed: ws?.seed ?? null,
    brain: ws?.brain ?? null,
    tickMinutes: ws?.tick_minutes ?? null,
    npcCount: index.characters.length,
    eventTypes: [...index.days.types].sort(),
    dossiers: typeof insp.context(params).dossiers() !== "string",
  };
};

/** `day=D`: the last event of day D; else `at`. `step=±1` moves one event from there. */
export const cursorView = (insp: Inspection, params: Params): CursorAnswer => {
  const saveId = params.str("save") ?? insp.defaultSave;
  const index = insp.index(saveId);
  const day = params.int("day", 0, 1_000_000);
  let seq = params.intOr("at", index.head, 1, index.head);
  if (day !== undefined) {
    const d = index.days.get(day) ?? index.days.nearest(day);
    if (!d) throw new BadRequest({ status: 404, detail: `save "${saveId}" has no days` });
    seq = d.lastSeq;
  }
  seq = Math.min(index.head, Math.max(1, seq + params.intOr("step", 0, -1_000_000, 1_000_000)));
  const e = insp.event(saveId, seq);
  if (!e) throw new BadRequest({ status: 404, detail: `no event ${seq} in save "${saveId}"` });
  const cursor = insp.cursorOf(index, e);
  const d = index.days.get(cursor.day);
  return {
    cursor,
    prevSeq: seq > 1 ? seq - 1 : null,
    nextSeq: seq < index.head ? seq + 1 : null,
    dayFirstSeq: d?.firstSeq ?? seq,
    dayLastSeq: d?.lastSeq ?? seq,
  };
};

export const worldView = (ctx: ViewContext): WorldAt => {
  const { index, at, cursor } = ctx;
  const byLocation = new Map<string, number>();
  const byActivity: Record<string, number> = {};
  for (const c of index.characters) {
    const place = index.places.at(c.npcId, at);
    if (!place) continue;
    byLocation.set(place.locationId, (byLocation.get(place.locationId) ?? 0) + 1);
    byActivity[place.activity] = (byActivity[place.activity] ?? 0) + 1;
  }
  const t = cursor.t;
  return {
    cursor,
    byLocation: [...byLocation]
      .map(([locationId, npcs]) => ({ locationId, npcs }))
      .sort((a, b) => b.npcs - a.npcs || (a.locationId < b.locationId ? -1 : 1)),
    byActivity,
    eventsSoFar: at,
    knowledgeFacts: index.knowledge.total.valueAt(at, 0),
    liveMemories: index.liveMemories.valueAt(at, 0),
    openTasks: index.tasks.openAt(at),
    tasksByStatus: index.tasks.byStatusAt(at),
    deadlinesMoved: index.tasks.deadlinesMovedAt(at),
    debates: ctx.db
      .prepare("SELECT count(*) FROM background_debates WHERE save_id = ? AND t <= ?")
      .pluck()
      .get(ctx.saveId, t) as number,
  };
};
