/**
 * Who knows what, as of the cursor: knowable items with how many NPCs knew them
 * (`items`), one item's knowers and the path it spread along — each hop from the NPC who
 * told or passed it on, with its confidence (`item`) — and a matrix of NPCs × chosen
 * items (`matrix`). Knowledge is core's knowledge fold of the log (KnowledgeIndex.ts): the
 * `KnowledgeGained` facts, and a memory's owner from its record.
 */
import { formatGameTime, type GameTime } from "@hearsay/core";
import type { ItemDetail, ItemRef, ItemSummary, Knower, Matrix, Page } from "./ApiTypes.ts";
import type { ViewContext } from "./Inspection.ts";
import { BadRequest } from "./InspectorError.ts";
import type { Params } from "./Params.ts";

const kinds = ["world_event", "debate", "memory"] as const;

interface ItemRow {
  readonly id: string;
  readonly t: number;
  readonly text: string;
  readonly owner: string | null;
}

/** Where each kind of item lives in the read models. */
const source = {
  world_event: { table: "world_events", id: "world_event_id", t: "t", text: "text", owner: "NULL" },
  debate: {
    table: "background_debates",
    id: "debate_id",
    t: "t",
    text: "topic || ': ' || outcome",
    owner: "NULL",
  },
  memory: {
    table: "memories",
    id: "memory_id",
    t: "recorded_at",
    text: "text",
    owner: "owner_npc_id",
  },
} as const;

const itemRow = (ctx: ViewContext, item: ItemRef): ItemRow | undefined => {
  const s = source[item.kind];
  const r = ctx.db
    .prepare(
      `SELECT ${s.id}, ${s.t}, ${s.text}, ${s.owner} FROM ${s.table} WHERE save_id = ? AND ${s.id} = ?`,
    )
    .raw(true)
    .get(ctx.saveId, item.id) as [string, number, string, string | null] | undefined;
  return r && { id: r[0], t: r[1], text: r[2], owner: r[3] };
};

/** Every NPC who knew the item at the cursor, in the order they came to know it. */
export const knowersOf = (ctx: ViewContext, item: ItemRef): ReadonlyArray<Knower> =>
  ctx.index.knowledge.knowers(item.kind, item.id, ctx.at).map((f) => ({
    ...f,
    name: ctx.index.nameOf(f.npcId),
    time: formatGameTime(f.t as GameTime),
  }));

const summaryOf = (ctx: ViewContext, kind: ItemRef["kind"], r: ItemRow): ItemSummary => ({
  kind,
  id: r.id,
  t: r.t,
  time: formatGameTime(r.t as GameTime),
  text: r.text,
  knowers: ctx.index.knowledge.count(kind, r.id, ctx.at),
});

/** `kind` (world_event|debate|memory), `q` (text contains), `sort` (recent|knowers), paging. */
export const itemsView = (ctx: ViewContext, params: Params): Page<ItemSummary> => {
  const kind = params.oneOf("kind", kinds, "world_event");
  const sort = params.oneOf("sort", ["recent", "knowers"], "recent");
  const q = params.str("q");
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 50, 1, 500);
  const s = source[kind];
  // Memories are many: their text is searched through the FTS5 index, every word quoted.
  const fts = kind === "memory" && q !== undefined;
  const match = (q ?? "")
    .split(/\s+/)
    .filter((w) => w !== "")
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(" ");
  const from = fts ? "memories_fts f JOIN memories m ON m.rowid = f.rowid" : s.table;
  const where = fts
    ? "memories_fts MATCH ? AND m.save_id = ? AND m.recorded_at <= ?"
    : `save_id = ? AND ${s.t} <= ?${q ? ` AND ${s.text} LIKE ? ESCAPE '\\'` : ""}`;
  const args = fts
    ? [match, ctx.saveId, ctx.cursor.t]
    : [ctx.saveId, ctx.cursor.t, ...(q ? [`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [])];
  const total = ctx.db
    .prepare(`SELECT count(*) FROM ${from} WHERE ${where}`)
    .pluck()
    .get(...args) as number;
  const col = (c: string) => (fts ? `m.${c}` : c);
  const select = `SELECT ${col(s.id)}, ${col(s.t)}, ${col(s.text)}, ${fts ? "m.owner_npc_id" : s.owner} FROM ${from} WHERE ${where}`;
  const toRow = ([id, t, text, owner]: [string, number, string, string | null]): ItemRow => ({
    id,
    t,
    text,
    owner,
  });
  let rows: ReadonlyArray<ItemSummary>;
  if (sort === "recent" || kind === "memory") {
    rows = (
      ctx.db
        .prepare(`${select} ORDER BY ${col(s.t)} DESC, ${col(s.id)} LIMIT ? OFFSET ?`)
        .raw(true)
        .all(...args, limit, offset) as Array<[string, number, string, string | null]>
    ).map((r) => summaryOf(ctx, kind, toRow(r)));
  } else {
    rows = (
      ctx.db
        .prepare(select)
        .raw(true)
        .all(...args) as Array<[string, number, string, string | null]>
    )
      .map((r) => summaryOf(ctx, kind, toRow(r)))
      .sort((a, b) => b.knowers - a.knowers || b.t - a.t || (a.id < b.id ? -1 : 1))
      .slice(offset, offset + limit);
  }
  return { total, offset, limit, rows };
};

const parseItem = (key: string): ItemRef => {
  const i = key.indexOf(":");
  const kind = key.slice(0, i) as ItemRef["kind"];
  if (i < 0 || !kinds.includes(kind)) {
    throw new BadRequest({
      status: 400,
      detail: `item "${key}": expected kind:id with kind one of ${kinds.join(", ")}`,
    });
  }
  return { kind, id: key.slice(i + 1) };
};

const needItem = (ctx: ViewContext, item: ItemRef): ItemRow => {
  const row = itemRow(ctx, item);
  if (!row)
    throw new BadRequest({
      status: 404,
      detail: `no ${item.kind} "${item.id}" in save "${ctx.saveId}"`,
    });
  return row;
};

/** `item=kind:id`. */
export const itemView = (ctx: ViewContext, params: Params): ItemDetail => {
  const item = parseItem(params.need("item"));
  const row = needItem(ctx, item);
  const knowers = knowersOf(ctx, item);
  return {
    item: { ...summaryOf(ctx, item.kind, row), knowers: knowers.length },
    ownerNpcId: row.owner,
    knowers,
    spread: knowers.map((k) => ({
      from: k.fromNpcId,
      to: k.npcId,
      via: k.via,
      confidence: k.confidence,
      t: k.t,
    })),
  };
};

/** `items=kind:id,…` (≤ 24), `knowersOnly=1`, paging over NPCs (≤ 500). */
export const matrixView = (ctx: ViewContext, params: Params): Matrix => {
  const refs = params.list("items").map(parseItem);
  if (refs.length > 24)
    throw new BadRequest({ status: 400, detail: "items: at most 24 at a time" });
  const offset = params.intOr("offset", 0, 0, 100_000_000);
  const limit = params.intOr("limit", 100, 1, 500);
  const items = refs.map((r) => ({ ref: r, row: needItem(ctx, r), knowers: knowersOf(ctx, r) }));
  const cellOf = items.map(
    (it) => new Map(it.knowers.map((k) => [k.npcId, { via: k.via, confidence: k.confidence }])),
  );
  let npcs = ctx.index.characters.map((c) => ({
    npcId: c.npcId,
    name: c.name,
    cells: cellOf.map((m) => m.get(c.npcId) ?? null),
  }));
  if (params.str("knowersOnly") === "1") npcs = npcs.filter((n) => n.cells.some((c) => c !== null));
  return {
    items: items.map((it) => ({
      ...summaryOf(ctx, it.ref.kind, it.row),
      knowers: it.knowers.length,
    })),
    npcs: { total: npcs.length, offset, limit, rows: npcs.slice(offset, offset + limit) },
  };
};
