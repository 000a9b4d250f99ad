/**
 * The inspector's JSON API over real HTTP on 127.0.0.1: every view answers, and what it
 * says "as of seq S" equals a plain fold of the log up to S (places, edges, knowledge,
 * day counts, model calls), checked at random seqs. Also: it never writes the database,
 * answers GET only, refuses other hosts, and every bad input is one clear line.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  Cost,
  CursorAnswer,
  DossierAnswer,
  EventDetail,
  EventRow,
  Inspector,
  ItemDetail,
  ItemSummary,
  Matrix,
  Meta,
  NpcPage,
  NpcRow,
  Page,
  Timeline,
  WorldAt,
} from "@hearsay/inspector";
import { startInspector } from "@hearsay/inspector";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DossierRequest, fakeDossiers, getJson, recordHaskerry } from "./harness.ts";

let path: string;
let inspector: Inspector;
let events: Array<{
  seq: number;
  t: number;
  day: number;
  type: string;
  payload: Record<string, unknown>;
}>;
const asked: Array<DossierRequest> = [];
const fileHash = () => createHash("sha256").update(readFileSync(path)).digest("hex");
let hashBefore: string;

const api = async <T>(route: string): Promise<T> => {
  const { status, body } = await getJson<T & { error?: string }>(inspector.url, route);
  if (status !== 200) throw new Error(`${route}: ${status} ${body.error}`);
  return body;
};

beforeAll(async () => {
  path = await recordHaskerry(2);
  const db = new Database(path, { readonly: true });
  events = (
    db
      .prepare("SELECT seq, t, day, type, payload FROM events WHERE save_id = 'main' ORDER BY seq")
      .all() as Array<{
      seq: number;
      t: number;
      day: number;
      type: string;
      payload: string;
    }>
  ).map((e) => ({ ...e, payload: JSON.parse(e.payload) }));
  db.close();
  hashBefore = fileHash();
  inspector = await startInspector({
    dbPath: path,
    port: 0,
    pageDir: null,
    dossiers: fakeDossiers(asked),
  });
});

afterAll(async () => {
  await inspector?.close();
});

const upTo = (seq: number) => events.filter((e) => e.seq <= seq);
const seqArb = () => fc.integer({ min: 1, max: events.length });

describe("the API", () => {
  it("describes the database and the save", async () => {
    const meta = await api<Meta>("/api/meta");
    expect(meta.saveId).toBe("main");
    expect(meta.head).toBe(events.length);
    expect(meta.npcCount).toBe(60);
    expect(meta.simulation).toBe("haskerry");
    expect(meta.firstDay).toBe(events[0]!.day);
    expect(meta.lastDay).toBe(events[events.length - 1]!.day);
    expect(meta.dossiers).toBe(true);
  });

  it("puts the cursor on a day's last event and steps one event at a time", async () => {
    const day = events[events.length - 1]!.day - 1;
    const last = Math.max(...events.filter((e) => e.day === day).map((e) => e.seq));
    const c = await api<CursorAnswer>(`/api/cursor?day=${day}`);
    expect(c.cursor.seq).toBe(last);
    expect(c.cursor.day).toBe(day);
    expect(c.dayLastSeq).toBe(last);
    const next = await api<CursorAnswer>(`/api/cursor?at=${last}&step=1`);
    expect(next.cursor.seq).toBe(last + 1);
    expect(next.cursor.type).toBe(events[last]!.type);
    expect(next.prevSeq).toBe(last);
  });

  it("counts events per day by type exactly", async () => {
    const tl = await api<Timeline>("/api/timeline");
    const want = new Map<string, number>();
    for (const e of events)
      want.set(`${e.day}/${e.type}`, (want.get(`${e.day}/${e.type}`) ?? 0) + 1);
    const got = new Map<string, number>();
    for (const d of tl.days)
      for (const [type, n] of Object.entries(d.counts)) got.set(`${d.day}/${type}`, n);
    expect(got).toEqual(want);
  });

  it("shows every NPC where the log last put it, at any seq", async () => {
    await fc.assert(
      fc.asyncProperty(seqArb(), async (seq) => {
        const where = new Map<string, string>();
        for (const e of upTo(seq))
          if (e.type === "NpcActivityChanged")
            where.set(String(e.payload.npcId), String(e.payload.locationId));
        const page = await api<Page<NpcRow>>(`/api/npcs?at=${seq}&limit=500`);
        for (const row of page.rows) expect(row.locationId).toBe(where.get(row.npcId) ?? "");
        const world = await api<WorldAt>(`/api/world?at=${seq}`);
        expect(world.byLocation.reduce((n, l) => n + l.npcs, 0)).toBe(where.size);
        const seen = upTo(seq);
        const live =
          seen.filter((e) => e.type === "MemoryRecorded").length -
          seen.filter((e) => e.type === "MemoryExpired").length;
        expect(world.liveMemories).toBe(live);
        // Tasks by their last status, and deadlines moved, as the log had them at the seq.
        const status = new Map<string, string>();
        for (const e of seen)
          if (e.type === "TaskProposed") status.set(String(e.payload.taskId), "proposed");
          else if (e.type === "TaskStatusChanged")
            status.set(String(e.payload.taskId), String(e.payload.to));
        const byStatus: Record<string, number> = {};
        for (const s of status.values()) byStatus[s] = (byStatus[s] ?? 0) + 1;
        expect(world.tasksByStatus).toEqual(byStatus);
        expect(world.deadlinesMoved).toBe(
          seen.filter((e) => e.type === "TaskDeadlineMoved").length,
        );
      }),
      { numRuns: 8 },
    );
  });

  it("shows each directed edge as the last RelationshipChanged before the cursor left it", async () => {
    const npc = String(events.find((e) => e.type === "RelationshipChanged")!.payload.fromId);
    await fc.assert(
      fc.asyncProperty(seqArb(), async (seq) => {
        const edges = new Map<string, number>();
        for (const e of upTo(seq)) {
          const p = e.payload;
          if (e.type === "RelationshipChanged" && (p.fromId === npc || p.toId === npc))
            edges.set(`${p.fromId}>${p.toId}`, Number(p.trust));
        }
        const page = await api<NpcPage>(`/api/npc?id=${npc}&at=${seq}`);
        expect(new Map(page.edges.map((e) => [`${e.from}>${e.to}`, e.trust]))).toEqual(edges);
      }),
      { numRuns: 8 },
    );
  });

  it("says who knew an item at a seq: the first fact of each NPC, in order", async () => {
    const facts = events.filter(
      (e) => e.type === "KnowledgeGained" && e.payload.itemKind === "world_event",
    );
    const itemId = String(facts[facts.length - 1]!.payload.itemId);
    await fc.assert(
      fc.asyncProperty(seqArb(), async (seq) => {
        const first = new Map<string, string>();
        for (const e of upTo(seq)) {
          if (
            e.type === "KnowledgeGained" &&
            e.payload.itemId === itemId &&
            !first.has(String(e.payload.npcId))
          ) {
            first.set(String(e.payload.npcId), String(e.payload.via));
          }
        }
        const d = await api<ItemDetail>(`/api/item?item=world_event:${itemId}&at=${seq}`);
        expect(d.knowers.map((k) => [k.npcId, k.via])).toEqual([...first]);
        expect(d.spread.map((s) => s.to)).toEqual([...first.keys()]);
      }),
      { numRuns: 8 },
    );
  });

  it("lists items by how many knew them, and crosses NPCs with chosen items", async () => {
    const items = await api<Page<ItemSummary>>("/api/items?kind=world_event&sort=knowers&limit=5");
    expect(items.rows.length).toBeGreaterThan(1);
    for (let i = 1; i < items.rows.length; i++)
      expect(items.rows[i - 1]!.knowers).toBeGreaterThanOrEqual(items.rows[i]!.knowers);
    const [a, b] = items.rows;
    const m = await api<Matrix>(
      `/api/matrix?items=world_event:${a!.id},world_event:${b!.id}&knowersOnly=1&limit=500`,
    );
    const known = m.npcs.rows.filter((r) => r.cells[0] !== null).length;
    expect(known).toBe(a!.knowers);
    expect(m.npcs.rows.every((r) => r.cells.some((c) => c !== null))).toBe(true);
  });

  it("finds memories by their words through the full-text index", async () => {
    const m = events.find(
      (e) => e.type === "MemoryRecorded" && /\b[a-z]{7,}\b/i.test(String(e.payload.text)),
    )!;
    const word = /\b[a-z]{7,}\b/i.exec(String(m.payload.text))![0];
    const found = await api<Page<ItemSummary>>(
      `/api/items?kind=memory&q=${encodeURIComponent(word)}&limit=500`,
    );
    expect(found.total).toBeGreaterThan(0);
    expect(found.rows.map((r) => r.id)).toContain(m.payload.memoryId);
    const none = await api<Page<ItemSummary>>(
      `/api/items?kind=memory&q=${encodeURIComponent('zzqx "quoted')}`,
    );
    expect(none.total).toBe(0);
  });

  it("pages a day's events and explains one", async () => {
    const day = events[0]!.day;
    const all = events.filter((e) => e.day === day);
    const p2 = await api<Page<EventRow>>(`/api/events?day=${day}&offset=10&limit=10`);
    expect(p2.total).toBe(all.length);
    expect(p2.rows.map((r) => r.seq)).toEqual(all.slice(10, 20).map((e) => e.seq));
    const we = events.find(
      (e) =>
        e.type === "WorldEventOccurred" && (e.payload.participants as Array<string>).length > 0,
    )!;
    const d = await api<EventDetail>(`/api/event?seq=${we.seq}`);
    expect(d.item).toEqual({ kind: "world_event", id: we.payload.worldEventId });
    expect(d.npcIds).toEqual(expect.arrayContaining(we.payload.participants as Array<string>));
    expect(d.knowers.length).toBeGreaterThan(0);
  });

  it("hands the dossier source the cursor's time and the NPC's scene", async () => {
    const seq = Math.floor(events.length / 2);
    const npc = String(
      events.find((e) => e.seq > seq && e.type === "MemoryRecorded")?.payload.ownerNpcId ??
        "abel-wix",
    );
    const d = await api<DossierAnswer>(`/api/dossier?id=${npc}&at=${seq}&query=tides`);
    const req = asked[asked.length - 1]!;
    expect(req.npcId).toBe(npc);
    expect(req.t).toBe(events[seq - 1]!.t);
    expect(req.query).toBe("tides");
    const page = await api<NpcPage>(`/api/npc?id=${npc}&at=${seq}`);
    expect(req.scene?.locationId).toBe(page.npc.locationId);
    expect([...(req.scene?.present ?? [])].sort()).toEqual([...page.present].sort());
    expect(d.available).toBe(true);
    expect(d.dossier!.sections.find((s) => s.name === "memories")!.tokens).toBeLessThanOrEqual(120);
  });

  it("adds up model calls and gated wake-ups to the cursor", async () => {
    await fc.assert(
      fc.asyncProperty(seqArb(), async (seq) => {
        const calls = upTo(seq).filter((e) => e.type === "LlmCallRecorded");
        const c = await api<Cost>(`/api/cost?at=${seq}&limit=500`);
        expect(c.totals.calls).toBe(calls.length);
        expect(c.days.reduce((n, d) => n + d.calls, 0)).toBe(calls.length);
        expect(c.days.reduce((n, d) => n + d.gated, 0)).toBe(c.totals.gated);
        expect(c.totals.asked + c.totals.gated).toBe(c.totals.wakeUps);
        const purposes = new Map<string, number>();
        for (const e of calls)
          purposes.set(
            String(e.payload.purpose),
            (purposes.get(String(e.payload.purpose)) ?? 0) + 1,
          );
        expect(new Map(c.byPurpose.map((p) => [p.purpose, p.calls]))).toEqual(purposes);
        expect(c.byNpc.rows.reduce((n, r) => n + r.calls, 0)).toBe(
          calls.filter((e) => e.payload.npcId !== null).length,
        );
      }),
      { numRuns: 6 },
    );
  });

  it("answers GET only, from loopback hosts only, and never writes the file", async () => {
    const post = await fetch(new URL("/api/meta", inspector.url), { method: "POST" });
    expect(post.status).toBe(405);
    const status = await new Promise<number | undefined>((ok, fail) =>
      get(new URL("/api/meta", inspector.url), { headers: { host: "evil.example:80" } }, (res) => {
        res.resume();
        ok(res.statusCode);
      }).on("error", fail),
    );
    expect(status).toBe(403);
    expect(fileHash()).toBe(hashBefore);
  });

  it("says what is wrong with a request in one line", async () => {
    const bad = await getJson<{ error: string }>(inspector.url, "/api/world?at=0");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^at: expected an integer in 1\.\.\d+, got "0"$/);
    expect((await getJson(inspector.url, "/api/npc?id=nobody")).status).toBe(404);
    expect((await getJson(inspector.url, "/api/item?item=thing:x")).status).toBe(400);
    expect((await getJson(inspector.url, "/api/nowhere")).status).toBe(404);
    expect((await getJson(inspector.url, "/api/meta?save=other")).status).toBe(404);
  });
});

describe("starting", () => {
  it("refuses what it cannot serve, naming the fix", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-inspector-"));
    await expect(
      startInspector({ dbPath: path, host: "0.0.0.0", port: 0, pageDir: null }),
    ).rejects.toThrow(/serves this machine only/);
    await expect(
      startInspector({ dbPath: join(dir, "none.db"), port: 0, pageDir: null }),
    ).rejects.toThrow(/no such file/);
    writeFileSync(join(dir, "text.db"), "hello, not a database");
    await expect(
      startInspector({ dbPath: join(dir, "text.db"), port: 0, pageDir: null }),
    ).rejects.toThrow(/not an SQLite database/);
    await expect(
      startInspector({ dbPath: path, saveId: "nope", port: 0, pageDir: null }),
    ).rejects.toThrow(/no save "nope"; pass --save with one of: main/);
    await expect(startInspector({ dbPath: path, port: 0, pageDir: dir })).rejects.toThrow(
      /page is not built.*pnpm run build/,
    );
  });
});
