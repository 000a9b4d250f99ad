/**
 * The vector index as a user meets it: a default `hearsay run` writes HNSW graph files
 * beside its database; `hearsay index status` shows them; after the index files are
 * deleted `status` says so and `hearsay index rebuild` brings back the same index; index
 * mode `disabled` writes no vectors; bad input is one line and a non-zero exit, and
 * changes nothing.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hearsay } from "./runCli.ts";

const SIM = join("test", "fixtures", "recorded", "hamlet", "simulation");
let dir: string;
let db: string;

interface Status {
  readonly collection: string;
  readonly rows: number;
  readonly count: number;
  readonly onDemand: boolean;
  readonly model: string | null;
  readonly graph: { readonly segments: number; readonly rows: number; readonly intact: boolean };
  readonly stale: boolean;
}

const status = async (): Promise<Array<Status>> => {
  const r = await hearsay("index", "status", "--db", db, "--json");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Array<Status>;
};

const indexFiles = (prefix: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(`${prefix}.`) && !/-(wal|shm)$/.test(f))
    .sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-index-cli-"));
  db = join(dir, "default.db");
  // The default simulation, as `hearsay run` alone would run it.
  const run = await hearsay("run", "--days", "2", "--db", db, "--quiet");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hearsay index", () => {
  it("a default run searches through graphs it saved; rebuild restores them after the files are deleted", async () => {
    const before = await status();
    const withGraph = before.filter((s) => s.graph.segments > 0);
    expect(withGraph.length).toBeGreaterThan(0);
    expect(readdirSync(dir).some((f) => f.endsWith(".usearch"))).toBe(true);
    for (const s of before) {
      expect(s).toMatchObject({ stale: false, model: "hashing-v1-384" });
      // Memories are embedded when a search first reads them, and a scripted run reads none.
      expect(s.onDemand).toBe(s.collection === "memories");
      expect(s.count).toBe(s.onDemand ? 0 : s.rows);
      if (s.onDemand) expect(s.rows).toBeGreaterThan(0);
      expect(s.graph.intact).toBe(true);
    }
    for (const f of indexFiles("default.db").filter((f) => !f.endsWith(".db"))) {
      rmSync(join(dir, f));
    }
    const gone = await status();
    expect(gone.every((s) => s.stale && s.count === 0 && s.graph.segments === 0)).toBe(true);
    const rebuilt = await hearsay("index", "rebuild", "--db", db, "--quiet");
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/rebuilt in/);
    const after = await status();
    expect(after).toEqual(before.map((s) => ({ ...s, bytes: expect.any(Number) })));
  }, 120_000);

  it("rebuilds one collection when asked", async () => {
    const r = await hearsay("index", "rebuild", "--db", db, "--collection", "lore", "--quiet");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter((l) => /vectors/.test(l))).toHaveLength(1);
    expect(r.stdout).toMatch(/^lore: \d+ vectors/);
  }, 60_000);

  it("index mode disabled: the run writes no vectors and still runs", async () => {
    const config = join(dir, "off.config");
    writeFileSync(config, JSON.stringify({ index: { mode: "disabled" } }));
    const off = join(dir, "off.db");
    const run = await hearsay(
      "run",
      SIM,
      "--days",
      "1",
      "--db",
      off,
      "--config",
      config,
      "--quiet",
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(indexFiles("off.db")).toEqual([]);
    // The mode is recorded: a replay ranks as the run did, with no config given...
    const verify = await hearsay("replay", "--db", off, "--verify", "--simulation", SIM);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/are identical/);
    expect(indexFiles("off.db")).toEqual([]);
    // ...and a resume that would rank otherwise is refused in one line, writing nothing,
    // before it says any step of resuming (not quiet: those lines would show).
    const resumed = await hearsay("run", SIM, "--db", off, "--resume", "--days", "2");
    expect(resumed.code).toBe(1);
    expect(resumed.stderr.trim().split("\n")).toHaveLength(1);
    expect(resumed.stderr).toMatch(/index mode disabled/);
  }, 120_000);

  it("bad input is one line, a non-zero exit, and nothing written", async () => {
    const missing = join(dir, "missing.db");
    for (const args of [
      ["index", "status", "--db", missing],
      ["index", "rebuild", "--db", missing],
    ]) {
      const r = await hearsay(...args);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/missing\.db: no such database\. Fix:/);
    }
    expect(readdirSync(dir).some((f) => f.startsWith("missing.db"))).toBe(false);
    const bad = await hearsay("index", "rebuild", "--db", db, "--collection", "gossip");
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    const config = join(dir, "bad.config");
    writeFileSync(config, JSON.stringify({ index: { mode: "fast" } }));
    const badMode = await hearsay(
      "run",
      SIM,
      "--days",
      "1",
      "--db",
      join(dir, "x.db"),
      "--config",
      config,
    );
    expect(badMode.code).toBe(1);
    expect(badMode.stderr.trim()).toMatch(
      /^hearsay: .*bad\.config: index\.mode: "fast" is invalid .*Fix: give "embedded" .* or "disabled"/,
    );
    expect(readdirSync(dir).some((f) => f.startsWith("x.db"))).toBe(false);
  }, 60_000);
});
