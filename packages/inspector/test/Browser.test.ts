/**
 * The page in headless Chromium (Debian's, driven by playwright-core; no browser is ever
 * downloaded): open the default world, move the day scrubber, open an NPC and see its
 * dossier and directed edges, follow a rumour's spread; screenshots of each view go to
 * packages/inspector/screenshots/ for the README. Skipped, saying why, without Chromium.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  Inspector,
  ItemDetail,
  ItemSummary,
  Meta,
  NpcPage,
  NpcRow,
  Page,
} from "@hearsay/inspector";
import { defaultPageDir, startInspector } from "@hearsay/inspector";
import { type BrowserContext, chromium, type Page as Tab } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeDossiers, getJson, recordHaskerry } from "./harness.ts";

const CHROMIUM = process.env.HEARSAY_CHROMIUM ?? "/usr/bin/chromium";
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(
    `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set HEARSAY_CHROMIUM)`,
  );

const pkg = join(import.meta.dirname, "..");
const shots = join(pkg, "screenshots");

const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((d) =>
      d.isDirectory() ? newest(join(dir, d.name)) : statSync(join(dir, d.name)).mtimeMs,
    ),
  );

/** Builds the page when it is missing or older than its sources. */
const ensureBuilt = (): void => {
  const index = join(defaultPageDir(), "index.html");
  if (existsSync(index) && statSync(index).mtimeMs >= newest(join(pkg, "web"))) return;
  const vite = join(pkg, "node_modules", "vite", "bin", "vite.js");
  const r = spawnSync(
    process.execPath,
    [vite, "build", "--config", join(pkg, "web", "vite.config.ts")],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`vite build failed: ${r.stderr}`);
};

describe.skipIf(!present)("the inspector page in Chromium", () => {
  let inspector: Inspector;
  let context: BrowserContext;
  let tab: Tab;
  let meta: Meta;

  beforeAll(async () => {
    ensureBuilt();
    // Six days: by then a rumour has passed from NPC to NPC (seed 3).
    const path = await recordHaskerry(6);
    inspector = await startInspector({ dbPath: path, port: 0, dossiers: fakeDossiers([]) });
    meta = (await getJson<Meta>(inspector.url, "/api/meta")).body;
    context = await chromium.launchPersistentContext(
      mkdtempSync(join(tmpdir(), "hearsay-chromium-")),
      {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
        viewport: { width: 1400, height: 1000 },
      },
    );
    tab = await context.newPage();
    mkdirSync(shots, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await inspector?.close();
  });

  const cursorText = async () => (await tab.getByTestId("cursor").textContent()) ?? "";

  it("opens on the timeline and moves the day scrubber", async () => {
    await tab.goto(inspector.url);
    await tab.getByTestId("timeline-chart").locator("canvas").waitFor();
    expect(await cursorText()).toContain(`day ${meta.lastDay},`);
    const slider = tab.getByTestId("day-slider");
    await slider.focus();
    await tab.keyboard.press("Home");
    await expect.poll(cursorText).toContain(`day ${meta.firstDay},`);
    await tab.getByTestId("next-day").click();
    await expect.poll(cursorText).toContain(`day ${meta.firstDay + 1}, 23:00`);
    const at = () => Number(new URL(tab.url().replace("#/", "")).searchParams.get("at"));
    const before = at();
    await tab.getByTestId("next-event").click();
    await expect.poll(at).toBe(before + 1);
    await expect.poll(cursorText).toContain(`day ${meta.firstDay + 2},`);
    await tab.getByTestId("day-events").locator("tr").nth(3).click();
    await tab.getByTestId("event-detail").locator("pre").waitFor();
    await tab.screenshot({ path: join(shots, "timeline.png") });
  });

  it("opens an NPC: its dossier and its directed edges, drawn apart", async () => {
    const npcs = (await getJson<Page<NpcRow>>(inspector.url, "/api/npcs?limit=500")).body.rows;
    let best = npcs[0]!.npcId;
    let bestMutual = -1;
    for (const n of npcs.slice(0, 20)) {
      const p = (await getJson<NpcPage>(inspector.url, `/api/npc?id=${n.npcId}`)).body;
      const out = new Set(p.edges.filter((e) => e.from === n.npcId).map((e) => e.to));
      const mutual = p.edges.filter((e) => e.to === n.npcId && out.has(e.from)).length;
      if (mutual > bestMutual) [best, bestMutual] = [n.npcId, mutual];
    }
    expect(bestMutual).toBeGreaterThan(0);
    await tab.getByTestId("tab-npcs").click();
    await tab.getByTestId("npc-list").getByRole("link").first().waitFor();
    await tab.goto(`${inspector.url}#/npc/${best}?at=${meta.head}`);
    await tab.getByTestId("npc-name").waitFor();
    await tab.getByTestId("dossier-section").first().waitFor();
    expect(await tab.getByTestId("dossier").textContent()).toMatch(/memories[\s\S]*\/ 120 tokens/);
    await tab.getByTestId("edge-graph").locator("canvas").first().waitFor();
    const edges = await tab.getByTestId("edge-graph").evaluate((el) =>
      (
        el as unknown as {
          cy: {
            edges(): Array<{
              id(): string;
              source(): { id(): string };
              target(): { id(): string };
            }>;
          };
        }
      ).cy
        .edges()
        .map((e) => [e.id(), e.source().id(), e.target().id()]),
    );
    const pairs = new Set(edges.map(([, s, t]) => `${s}>${t}`));
    const both = edges.filter(([, s, t]) => pairs.has(`${t}>${s}`));
    expect(both.length).toBeGreaterThanOrEqual(2);
    expect(new Set(both.map(([id]) => id)).size).toBe(both.length);
    await tab.screenshot({ path: join(shots, "npc.png"), fullPage: true });
  });

  it("follows a rumour's spread from NPC to NPC, confidence falling", async () => {
    const items = (
      await getJson<Page<ItemSummary>>(
        inspector.url,
        "/api/items?kind=world_event&sort=knowers&limit=500",
      )
    ).body.rows;
    let best: ItemDetail | null = null;
    const hops = (d: ItemDetail) =>
      d.spread.filter((s) => s.via === "told" || s.via === "rumor").length;
    for (const i of items) {
      const d = (await getJson<ItemDetail>(inspector.url, `/api/item?item=world_event:${i.id}`))
        .body;
      if (best === null || hops(d) > hops(best)) best = d;
    }
    expect(best && hops(best)).toBeGreaterThan(0);
    const key = encodeURIComponent(`world_event:${best!.item.id}`);
    await tab.goto(`${inspector.url}#/knows/${key}?at=${meta.head}`);
    await tab.getByTestId("spread-graph").locator("canvas").first().waitFor();
    expect(await tab.getByTestId("knower-count").textContent()).toBe(String(best!.knowers.length));
    const labels = await tab
      .getByTestId("spread-graph")
      .evaluate((el) =>
        (el as unknown as { cy: { edges(): Array<{ data(k: string): string }> } }).cy
          .edges()
          .map((e) => e.data("label")),
      );
    const told = labels.filter((l) => /^(told|rumor) /.test(l));
    expect(told.length).toBe(hops(best!));
    expect(told.every((l) => Number(l.split(" ")[1]) < 1)).toBe(true);
    for (const box of (await tab.getByTestId("items").locator("input[type=checkbox]").all()).slice(
      0,
      4,
    ))
      await box.check();
    await tab.getByTestId("matrix").locator("table").waitFor();
    await tab.screenshot({ path: join(shots, "knows.png"), fullPage: true });
  });

  it("shows debates and conversations, and the cost", async () => {
    await tab.goto(`${inspector.url}#/talk?at=${meta.head}`);
    await tab.getByTestId("debate").first().waitFor();
    await tab.screenshot({ path: join(shots, "talk.png") });
    await tab.goto(`${inspector.url}#/cost?at=${meta.head}`);
    await tab.getByTestId("gating-chart").locator("canvas").waitFor();
    expect(await tab.getByTestId("cost-totals").textContent()).toMatch(
      /model calls .* NPC wake-ups gated/,
    );
    await tab.screenshot({ path: join(shots, "cost.png") });
  });
});
