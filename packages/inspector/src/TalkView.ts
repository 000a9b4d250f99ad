/**
 * Debates and conversations as of the cursor: each debate's topic, participants, summary
 * and outcome, newest first (`debates`); one day's conversations with their turns
 * (`conversations`). For both, what each participant took away: the memories it recorded
 * about it, and for conversations its own running summary.
 */
import { formatGameTime, type GameTime } from "@hearsay/core";
import type { ConversationRow, DebateRow, Page } from "./ApiTypes.ts";
import type { ViewContext } from "./Inspection.ts";
import type { Params } from "./Params.ts";

/** Memories the participants recorded about an item, within a day of it, up to the cursor. */
const takeaways = (
  ctx: ViewContext,
  participants: ReadonlyArray<string>,
  kind: string,
  id: string,
  t: number,
): Array<{ npcId: string; text: string }> => {
  const stmt = ctx.db
    .prepare(
      `SELECT text FROM memories WHERE save_id = ? AND owner_npc_id = ? AND recorded_at >= ? AND recorded_at <= ?
       AND about_kind = ? AND about_id = ? ORDER BY recorded_at, memory_id`,
    )
    .pluck();
  return participants.flatMap((npcId) =>
    (
      stmt.all(ctx.saveId, npcId, t, Math.min(ctx.cursor.t, t + 1440), kind, id) as Array<string>
    ).map((text) => ({
      npcId,
      text,
    })),
  );
};

/** Paging (≤ 200), newest first. */
export const debatesView = (ctx: ViewContext, params: Params): Page<DebateRow> => {
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 20, 1, 200);
  const t = ctx.cursor.t;
  const total = ctx.db
    .prepare("SELECT count(*) FROM background_debates WHERE save_id = ? AND t <= ?")
    .pluck()
    .get(ctx.saveId, t) as number;
  const rows = ctx.db
    .prepare(
      `SELECT debate_id, t, topic, participants, summary, outcome FROM background_debates
       WHERE save_id = ? AND t <= ? ORDER BY t DESC, debate_id LIMIT ? OFFSET ?`,
    )
    .raw(true)
    .all(ctx.saveId, t, limit, offset) as Array<[string, number, string, string, string, string]>;
  return {
    total,
    offset,
    limit,
    rows: rows.map(([debateId, dt, topic, participants, summary, outcome]) => {
      const ids = JSON.parse(participants) as Array<string>;
      return {
        debateId,
        t: dt,
        time: formatGameTime(dt as GameTime),
        topic,
        participants: ids.map((npcId) => ({ npcId, name: ctx.index.nameOf(npcId) })),
        summary,
        outcome,
        takeaways: takeaways(ctx, ids, "debate", debateId, dt),
      };
    }),
  };
};

/** `day` (default: the cursor's; up to the cursor on its own day), paging (≤ 200). */
export const conversationsView = (ctx: ViewContext, params: Params): Page<ConversationRow> => {
  const day = params.intOr("day", ctx.cursor.day, 0, 1_000_000);
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 20, 1, 200);
  const until = Math.min(ctx.cursor.t, day * 1440 + 1439);
  const turns = ctx.db
    .prepare(
      `SELECT conversation_id, t, speaker_id, listener_ids, location_id, text FROM conversation_turns
       WHERE save_id = ? AND t >= ? AND t <= ? ORDER BY t, conversation_id, turn_index`,
    )
    .raw(true)
    .all(ctx.saveId, day * 1440, until) as Array<
    [string, number, string, string, string | null, string]
  >;
  const byId = new Map<
    string,
    {
      t: number;
      locationId: string | null;
      ids: Set<string>;
      turns: Array<{ speakerId: string; text: string }>;
    }
  >();
  for (const [id, t, speaker, listeners, locationId, text] of turns) {
    let c = byId.get(id);
    if (!c) {
      c = { t, locationId, ids: new Set(), turns: [] };
      byId.set(id, c);
    }
    c.ids.add(speaker);
    for (const l of JSON.parse(listeners) as Array<string>) c.ids.add(l);
    c.turns.push({ speakerId: speaker, text });
  }
  const all = [...byId].reverse();
  const summary = ctx.db
    .prepare(
      "SELECT npc_id, summary FROM conversation_summaries WHERE save_id = ? AND conversation_id = ? AND t <= ? ORDER BY npc_id",
    )
    .raw(true);
  return {
    total: all.length,
    offset,
    limit,
    rows: all.slice(offset, offset + limit).map(([conversationId, c]) => {
      const ids = [...c.ids].sort();
      return {
        conversationId,
        t: c.t,
        time: formatGameTime(c.t as GameTime),
        locationId: c.locationId,
        participants: ids.map((npcId) => ({ npcId, name: ctx.index.nameOf(npcId) })),
        turns: c.turns,
        takeaways: [
          ...(summary.all(ctx.saveId, conversationId, ctx.cursor.t) as Array<[string, string]>).map(
            ([npcId, text]) => ({
              npcId,
              text,
            }),
          ),
          ...takeaways(ctx, ids, "conversation", conversationId, c.t),
        ],
      };
    }),
  };
};
