/**
 * Inspector bench: the latency of every API view (the day scrubber, timeline, events of a
 * day, one event, who-knows-what, matrix, NPC list and page, memories, dossier, debates,
 * conversations, cost) at the start, middle and end of two recorded runs — the 30-day
 * default world and the default world scaled to 1,000 NPCs (target: a year) — plus how
 * long opening and indexing each log takes. Baseline, in the same run: the questions the
 * index answers, asked of the log in plain SQL instead (where every NPC was after seq S;
 * events per day by type). Target: every view < 1 s.
 *
 *   pnpm bench:run inspector                     # both worlds; the big one grows ≤ 20 min
 *   pnpm bench:run inspector -- --days 365 --grow-minutes 60
 *
 * The generated databases are cached under $HEARSAY_BENCH_DIR (default /tmp/hearsay-bench);
 * the 1,000-NPC one is resumed where it stopped, so a year can be grown over several runs.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { loadSimulation, runSimulation, scaleSimulation } from "@hearsay/engine";
import { startInspector } from "@hearsay/inspector";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import Database from "better-sqlite3";
import { summarise } from "./lib/measure.ts";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

const dir = process.env.HEARSAY_BENCH_DIR ?? "/tmp/hearsay-bench";
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** Grows (or creates) a recorded run of `npcs` NPCs toward `days` days within `minutes`. */
const grow = async (
  path: string,
  npcs: number | null,
  days: number,
  minutes: number,
): Promise<void> => {
  const base = loadSimulation();
  // As `hearsay run [--scale N]` runs it, hash and all.
  const sim = npcs === null ? base : scaleSimulation(base, npcs);
  const world = sim.world;
  const began = performance.now();
  if (minutes <= 0 && existsSync(path)) return;
  for (;;) {
    const db = openDatabase(path);
    const log = new SqliteEventLog(db, { snapshotEvery: 0 });
    const resume = log.saves().some((s) => s.saveId === "main");
    const summary = await runSimulation({
      world,
      worldHash: sim.worldHash,
      lore: sim.lore,
      log,
      saveId: ids.save("main"),
      days,
      seed: 1,
      brain: ScriptedBrain.make(),
      recordBrain: true,
      dossiers: () => ({ dossier: () => null }),
      resume,
      maxTicks: 24 * 10,
    });
    db.close();
    const elapsed = (performance.now() - began) / 60_000;
    console.log(
      `  ${path}: day ${Math.floor(summary.t / 1440)} of ${days}, ${summary.head.toLocaleString()} events (${elapsed.toFixed(1)} min)`,
    );
    if (summary.finished || elapsed >= minutes) return;
  }
};

interface Row {
  readonly world: string;
  readonly view: string;
  readonly at: string;
  readonly medianMs: number;
  readonly maxMs: number;
  readonly bytes: number;
}

const timeGet = async (
  url: string,
  repeat = 5,
): Promise<{ medianMs: number; maxMs: number; bytes: number; body: unknown }> => {
  const samples: Array<number> = [];
  let body: unknown = null;
  let bytes = 0;
  for (let i = 0; i < repeat + 1; i++) {
    const t = performance.now();
    const res = await fetch(url);
    const text = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${text}`);
    if (i > 0) samples.push(performance.now() - t);
    bytes = text.length;
    body = JSON.parse(text);
  }
  const s = summarise(samples);
  return { medianMs: s.medianMs, maxMs: s.maxMs, bytes, body };
};

const benchWorld = async (
  name: string,
  path: string,
): Promise<{ rows: Array<Row>; openMs: number; events: number; days: number }> => {
  const t0 = performance.now();
  const insp = await startInspector({ dbPath: path, port: 0, pageDir: null, dossiers: null });
  const openMs = performance.now() - t0;
  const rows: Array<Row> = [];
  try {
    const meta = (await (await fetch(`${insp.url}api/meta`)).json()) as {
      head: number;
      lastDay: number;
      firstDay: number;
    };
    const positions: Array<[string, number]> = [
      ["day 1", 0],
      ["middle", Math.floor(meta.head / 2)],
      ["head", meta.head],
    ];
    const run = async (view: string, label: string, route: string) => {
      const r = await timeGet(`${insp.url}api/${route}`);
      rows.push({
        world: name,
        view,
        at: label,
        medianMs: r.medianMs,
        maxMs: r.maxMs,
        bytes: r.bytes,
      });
      return r.body;
    };
    for (const [label, pos] of positions) {
      const cur = (await run(
        "cursor (day)",
        label,
        pos === 0 ? `cursor?day=${meta.firstDay + 1}` : `cursor?at=${pos}`,
      )) as { cursor: { seq: number; day: number } };
      const at = cur.cursor.seq;
      await run("world overview", label, `world?at=${at}`);
      await run("timeline", label, `timeline?at=${at}`);
      await run(
        "events of day (page)",
        label,
        `events?at=${at}&day=${cur.cursor.day}&offset=200&limit=100`,
      );
      await run("event detail", label, `event?at=${at}&seq=${Math.max(1, at - 7)}`);
      const items = (await run(
        "items by knowers",
        label,
        `items?at=${at}&kind=world_event&sort=knowers&limit=50`,
      )) as { rows: Array<{ id: string }> };
      const first = items.rows[0];
      if (first) {
        await run("item spread", label, `item?at=${at}&item=world_event:${first.id}`);
        const keys = items.rows
          .slice(0, 12)
          .map((i) => `world_event:${i.id}`)
          .join(",");
        await run("matrix 12 items", label, `matrix?at=${at}&items=${keys}&limit=100`);
      }
      await run("memories (search)", label, `items?at=${at}&kind=memory&q=tide&limit=50`);
      const npcs = (await run("npc list (page)", label, `npcs?at=${at}&offset=100&limit=100`)) as {
        rows: Array<{ npcId: string }>;
      };
      const npc = npcs.rows[0]?.npcId ?? "abel-wix";
      await run("npc page", label, `npc?at=${at}&id=${npc}`);
      await run("npc memories", label, `memories?at=${at}&id=${npc}&limit=50`);
      await run("dossier", label, `dossier?at=${at}&id=${npc}`);
      await run("debates", label, `debates?at=${at}&limit=20`);
      await run("conversations of day", label, `conversations?at=${at}&limit=20`);
      await run("cost", label, `cost?at=${at}&limit=50`);
    }
    // Baseline: the same questions asked of the log directly, without the index.
    const db = new Database(path, { readonly: true });
    const sql = (view: string, label: string, f: () => unknown) => {
      const samples: Array<number> = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        f();
        samples.push(performance.now() - t);
      }
      const s = summarise(samples);
      rows.push({
        world: name,
        view: `baseline: ${view}`,
        at: label,
        medianMs: s.medianMs,
        maxMs: s.maxMs,
        bytes: 0,
      });
    };
    sql("places by SQL over the log", "head", () =>
      db
        .prepare(
          `SELECT json_extract(payload, '$.npcId') AS npc, json_extract(payload, '$.locationId'), max(seq) FROM events
           WHERE save_id = 'main' AND type = 'NpcActivityChanged' AND seq <= ? GROUP BY npc`,
        )
        .all(meta.head),
    );
    sql("day counts by SQL GROUP BY", "head", () =>
      db
        .prepare("SELECT day, type, count(*) FROM events WHERE save_id = 'main' GROUP BY day, type")
        .all(),
    );
    db.close();
    return { rows, openMs, events: meta.head, days: meta.lastDay - meta.firstDay };
  } finally {
    await insp.close();
  }
};

const main = async (): Promise<void> => {
  mkdirSync(dir, { recursive: true });
  const small = join(dir, "inspector-haskerry-30d.db");
  const big = join(dir, "inspector-1000npcs.db");
  const days = arg("days", 365);
  if (!existsSync(small)) await grow(small, null, 30, 60);
  console.log(`growing ${big} toward ${days} days (≤ ${arg("grow-minutes", 20)} min)…`);
  await grow(big, 1000, days, arg("grow-minutes", 20));
  const worlds: Array<[string, string]> = [
    ["haskerry 60 NPCs", small],
    ["scaled 1,000 NPCs", big],
  ];
  const all: Array<Row> = [];
  const opened: Array<Record<string, unknown>> = [];
  for (const [name, path] of worlds) {
    const r = await benchWorld(name, path);
    all.push(...r.rows);
    opened.push({
      world: name,
      events: r.events,
      days: r.days,
      openAndIndexMs: Math.round(r.openMs),
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    });
  }
  printTable(
    "inspector: opening a log (read-only open + in-memory index of the save)",
    ["world", "events", "game days", "open + index ms", "RSS MiB"],
    opened.map((o) => [
      String(o.world),
      Number(o.events),
      Number(o.days),
      Number(o.openAndIndexMs),
      Number(o.rssMiB),
    ]),
  );
  printTable(
    "inspector: API view latency over HTTP (median and max of 5 requests; target < 1,000 ms)",
    ["world", "view", "cursor", "median ms", "max ms", "KiB", "< 1 s"],
    all.map((r) => [
      r.world,
      r.view,
      r.at,
      r.medianMs,
      r.maxMs,
      Math.round(r.bytes / 1024),
      r.view.startsWith("baseline") ? "" : r.maxMs < 1000 ? "yes" : "NO",
    ]),
  );
  const slowest = all
    .filter((r) => !r.view.startsWith("baseline"))
    .reduce((a, b) => (b.maxMs > a.maxMs ? b : a));
  console.log(
    `slowest view: ${slowest.view} on ${slowest.world} at ${slowest.at}: ${slowest.maxMs.toFixed(1)} ms`,
  );
  writeResults("inspector", { opened, views: all, slowest });
};

export default main;
