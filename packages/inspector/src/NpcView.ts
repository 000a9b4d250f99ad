/**
 * NPCs as of the cursor: the list with where each is and what it does (`npcs`), one
 * NPC's page — profile, directed relationship edges, tasks and their states, open
 * threads, who is with it (`npc`) — its memories with importance and lifetime
 * (`memories`), and the dossier it would be handed at that moment (`dossier`).
 */
import type { GameTime, LocationId, NpcId } from "@hearsay/core";
import type { DossierAnswer, Edge, MemoryRow, NpcPage, NpcRow, Page, TaskRow } from "./ApiTypes.ts";
import type { ViewContext } from "./Inspection.ts";
import { BadRequest } from "./InspectorError.ts";
import type { Params } from "./Params.ts";
import type { Character } from "./SaveIndex.ts";

const rowOf = (ctx: ViewContext, c: Character): NpcRow => {
  const place = ctx.index.places.at(c.npcId, ctx.at);
  return {
    npcId: c.npcId,
    name: c.name,
    role: c.role,
    factionId: c.factionId,
    locationId: place?.locationId ?? "",
    activity: place?.activity ?? "unborn",
  };
};

/** `q` (name, role, id or place contains), `location`, paging (≤ 500). */
export const npcsView = (ctx: ViewContext, params: Params): Page<NpcRow> => {
  const q = params.str("q")?.toLowerCase();
  const location = params.str("location");
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 100, 1, 500);
  let rows = ctx.index.characters.map((c) => rowOf(ctx, c));
  if (location) rows = rows.filter((r) => r.locationId === location);
  if (q)
    rows = rows.filter((r) =>
      `${r.name} ${r.role} ${r.npcId} ${r.locationId}`.toLowerCase().includes(q),
    );
  return { total: rows.length, offset, limit, rows: rows.slice(offset, offset + limit) };
};

const needNpc = (ctx: ViewContext, params: Params): Character => {
  const id = params.need("id");
  const c = ctx.index.character(id);
  if (!c) throw new BadRequest({ status: 404, detail: `no NPC "${id}" in save "${ctx.saveId}"` });
  return c;
};

const presentWith = (ctx: ViewContext, npcId: string, locationId: string): Array<string> =>
  ctx.index.characters
    .filter(
      (c) => c.npcId !== npcId && ctx.index.places.at(c.npcId, ctx.at)?.locationId === locationId,
    )
    .map((c) => c.npcId);

/** `id`. */
export const npcView = (ctx: ViewContext, params: Params): NpcPage => {
  const c = needNpc(ctx, params);
  const { db, saveId, at, index } = ctx;
  const t = ctx.cursor.t;
  const place = index.places.at(c.npcId, at);
  // As it stood at the cursor: the read model holds only the latest revision.
  const profile = index.profiles.profileAt(c.npcId, at);
  const edges: Array<Edge> = index.edges.edgesOf(c.npcId, at).map((e) => ({
    from: e.from,
    to: e.to,
    fromName: index.nameOf(e.from),
    toName: index.nameOf(e.to),
    trust: e.trust,
    respect: e.respect,
    suspicion: e.suspicion,
    summary: e.summary,
    t: e.t,
  }));
  const tasks: Array<TaskRow> = [];
  const taskRows = db
    .prepare(
      `SELECT task_id, title, assignee, deadline, proposed_at FROM tasks
       WHERE save_id = ? AND (assignee = ? OR proposed_by = ?) AND proposed_at <= ? ORDER BY proposed_at DESC, task_id`,
    )
    .raw(true)
    .all(saveId, c.npcId, c.npcId, t) as Array<
    [string, string, string | null, number | null, number]
  >;
  for (const [taskId, title, assignee, deadline, proposedAt] of taskRows) {
    const status = index.tasks.statusAt(taskId, at);
    if (status === null) continue;
    tasks.push({
      taskId,
      title,
      status,
      role: assignee === c.npcId ? "assignee" : "proposer",
      deadline,
      proposedAt,
    });
  }
  const turns = db
    .prepare(
      `SELECT conversation_id, t, speaker_id, listener_ids, text FROM conversation_turns
       WHERE save_id = ? AND t > ? AND t <= ? ORDER BY t, conversation_id, turn_index`,
    )
    .raw(true)
    .all(saveId, t - 1440, t) as Array<[string, number, string, string, string]>;
  const threads = new Map<string, NpcPage["threads"][number]>();
  for (const [conversationId, tt, speaker, listeners, text] of turns) {
    const ls = JSON.parse(listeners) as Array<string>;
    if (speaker !== c.npcId && !ls.includes(c.npcId)) continue;
    const partnerId = speaker === c.npcId ? (ls[0] ?? speaker) : speaker;
    const summary = db
      .prepare(
        "SELECT summary FROM conversation_summaries WHERE save_id = ? AND conversation_id = ? AND npc_id = ? AND t <= ?",
      )
      .pluck()
      .get(saveId, conversationId, c.npcId, t) as string | undefined;
    threads.set(conversationId, {
      conversationId,
      partnerId,
      partnerName: index.nameOf(partnerId),
      lastT: tt,
      lastLine: `${index.nameOf(speaker)}: ${text}`,
      summary: summary ?? null,
    });
  }
  return {
    npc: { ...rowOf(ctx, c), traits: c.traits },
    note: place?.note ?? "",
    destination: place?.destination ?? null,
    profile,
    edges,
    tasks,
    threads: [...threads.values()].reverse(),
    present: place ? presentWith(ctx, c.npcId, place.locationId) : [],
  };
};

/** `id`, `state` (live|all), paging (≤ 500). Newest first. */
export const memoriesView = (ctx: ViewContext, params: Params): Page<MemoryRow> => {
  const c = needNpc(ctx, params);
  const t = ctx.cursor.t;
  const live = params.oneOf("state", ["live", "all"], "all") === "live";
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 50, 1, 500);
  const alive = live
    ? "AND (expires_at IS NULL OR expires_at > @t) AND (gone_at IS NULL OR gone_at > @t)"
    : "";
  const where = `save_id = @save AND owner_npc_id = @npc AND recorded_at <= @t ${alive}`;
  const args = { save: ctx.saveId, npc: c.npcId, t };
  const total = ctx.db
    .prepare(`SELECT count(*) FROM memories WHERE ${where}`)
    .pluck()
    .get(args) as number;
  const rows = ctx.db
    .prepare(
      `SELECT memory_id, text, category, importance, recorded_at, expires_at, gone_at, gone_reason
       FROM memories WHERE ${where} ORDER BY recorded_at DESC, memory_id LIMIT @limit OFFSET @offset`,
    )
    .all({ ...args, limit, offset }) as Array<{
    memory_id: string;
    text: string;
    category: string;
    importance: number;
    recorded_at: number;
    expires_at: number | null;
    gone_at: number | null;
    gone_reason: string | null;
  }>;
  return {
    total,
    offset,
    limit,
    rows: rows.map((r) => {
      const gone = r.gone_at !== null && r.gone_at <= t;
      const expired = r.expires_at !== null && r.expires_at <= t;
      const state: MemoryRow["state"] = gone
        ? ((r.gone_reason ?? "expired") as MemoryRow["state"])
        : expired
          ? "expired"
          : "live";
      return {
        memoryId: r.memory_id,
        text: r.text,
        category: r.category,
        importance: r.importance,
        recordedAt: r.recorded_at,
        expiresAt: r.expires_at,
        lifetime: r.expires_at === null ? null : r.expires_at - r.recorded_at,
        state,
        goneAt: gone ? r.gone_at : null,
      };
    }),
  };
};

/** `id`, optional `query`: the dossier the NPC would get at the cursor, in its scene. */
export const dossierView = (ctx: ViewContext, params: Params): DossierAnswer => {
  const c = needNpc(ctx, params);
  const source = ctx.dossiers();
  if (typeof source === "string") return { available: false, reason: source, dossier: null };
  const place = ctx.index.places.at(c.npcId, ctx.at);
  try {
    const d = source.dossier({
      npcId: c.npcId as NpcId,
      t: ctx.cursor.t as GameTime,
      query: params.str("query") ?? null,
      scene: place
        ? {
            locationId: place.locationId as LocationId,
            present: presentWith(ctx, c.npcId, place.locationId) as Array<NpcId>,
          }
        : null,
    });
    if (d === null)
      return {
        available: false,
        reason: "the dossier builder returned no dossier for this NPC",
        dossier: null,
      };
    return {
      available: true,
      reason: null,
      dossier: {
        budget: d.budget,
        totalTokens: d.totalTokens,
        query: d.query,
        sections: d.sections,
      },
    };
  } catch (e) {
    return {
      available: false,
      reason: `the dossier builder failed: ${e instanceof Error ? e.message : String(e)}`,
      dossier: null,
    };
  }
};
