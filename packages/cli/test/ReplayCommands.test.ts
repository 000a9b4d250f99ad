/**
 * `hearsay replay`, `branch`, `export` and `dossier` as a user runs them: on a database
 * written by `hearsay run`, each does its job, never changes the file it reads, and any
 * failure is one line on stderr (`hearsay: …`) with exit 1 — 2 for a bad invocation.
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hearsay } from "./runCli.ts";

const SIM = join("test", "fixtures", "recorded", "hamlet", "simulation");
let dir: string;
let db: string;

/**
 * sha256 of the database file and of its write-ahead log (what holds its content; the
 * `-shm` index a reader may create holds none).
 */
const fileState = (path: string): string => {
  const h = createHash("sha256").update(readFileSync(path));
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) h.update(readFileSync(wal));
  return h.digest("hex");
};

const oneLine = (stderr: string) =>
  stderr
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("hearsay:"));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-replay-"));
  db = join(dir, "hamlet.db");
  const run = await hearsay(
    "run",
    SIM,
    "--days",
    "2",
    "--seed",
    "3",
    "--db",
    db,
    "--checkpoint-every",
    "6",
    "--quiet",
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.concurrent("on a recorded database", () => {
  it("replay refolds and matches every checkpoint, changing nothing", async () => {
    const before = fileState(db);
    const r = await hearsay("replay", "--db", db, "--quiet");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^replayed save "main": (\d+) events \(seq 1–\1\) refolded in .* 7 checkpoint\(s\) match; state hash [0-9a-f]+\n$/,
    );
    expect(fileState(db)).toBe(before);
  });

  it("replay --verify names the simulation it cannot find and the flag that fixes it", async () => {
    const r = await hearsay("replay", "--db", db, "--verify", "--quiet");
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toEqual([
      'hearsay: the run names simulation "hamlet", which is not found here: pass --simulation with the folder it was recorded from',
    ]);
  });

  it("export writes one JSON event per line to stdout and nothing else", async () => {
    const r = await hearsay("export", "--db", db, "--format", "jsonl");
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      seq: 1,
      saveId: "main",
      day: 0,
      type: "SimulationStarted",
      version: 1,
    });
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
  });

  it("dossier --json gives the NPC's dossier with the documented fields", async () => {
    const r = await hearsay("dossier", "--db", db, "--npc", "ada", "--day", "1", "--json");
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({
      npcId: "ada",
      day: 1,
      budget: expect.any(Number),
      totalTokens: expect.any(Number),
    });
    expect(d.sections.map((s: { name: string }) => s.name)).toContain("memories");
    for (const s of d.sections) {
      expect(s).toMatchObject({
        name: expect.any(String),
        tokens: expect.any(Number),
        items: expect.any(Array),
      });
      for (const i of s.items)
        expect(Object.keys(i)).toEqual(["kind", "id", "score", "tokens", "text"]);
    }
  });

  it("dossier prints the rendered prompt", async () => {
    const text = await hearsay("dossier", "--db", db, "--npc", "bram", "--day", "1", "--hour", "9");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^# Dossier of Bram Holt \(bram\) at day 1, 09:00, through seq \d+: \d+ of \d+ tokens\n\n## Who you are\n- You are Bram Holt, watchman/,
    );
  });

  it("refuses bad invocations in one line, creating nothing", async () => {
    const [both, missing] = await Promise.all([
      hearsay("branch", "--db", db, "--at", "5", "--at-day", "1", "--into", "x"),
      hearsay("replay", "--db", join(dir, "nope.db")),
    ]);
    expect(both.code).toBe(1);
    expect(oneLine(both.stderr)).toEqual(["hearsay: pass exactly one of --at SEQ and --at-day D"]);
    expect(missing.code).toBe(1);
    expect(oneLine(missing.stderr)[0]).toMatch(/nope\.db: no such file/);
    expect(existsSync(join(dir, "nope.db"))).toBe(false);
  });
});

describe("branch, continue, verify", () => {
  it("a branch continued with another seed (and the default checkpoint interval) verifies, and so does its untouched parent", async () => {
    const copy = join(dir, "branched.db");
    copyFileSync(db, copy);
    const b = await hearsay("branch", "--db", copy, "--at-day", "1", "--into", "alt");
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(
      /^branched save "main" at seq \d+ \(day 1, 00:00\) into "alt"; "main" is unchanged\n/,
    );
    const resumed = await hearsay(
      "run",
      SIM,
      "--resume",
      "--db",
      copy,
      "--save",
      "alt",
      "--seed",
      "9",
      "--quiet",
    );
    expect(resumed.code).toBe(0);
    const [parent, child] = await Promise.all([
      hearsay("replay", "--db", copy, "--verify", "--simulation", SIM, "--quiet"),
      hearsay("replay", "--db", copy, "--save", "alt", "--verify", "--simulation", SIM, "--quiet"),
    ]);
    expect(parent.code).toBe(0);
    expect(child.code).toBe(0);
    expect(child.stdout).toMatch(/with scripted, then scripted are identical/);
    expect(parent.stdout).toMatch(
      /^verified save "main": \d+ events \(seq 1–\d+\) re-run from "hamlet" with scripted are identical; 7 checkpoint\(s\) equal/,
    );
  });

  it("a tampered log fails both replays at the right place, exit 1", async () => {
    const copy = join(dir, "tampered.db");
    copyFileSync(db, copy);
    const log = new SqliteEventLog(openDatabase(copy));
    const target = log.read("main").find((e) => e.type === "WorldEventOccurred" && e.t > 1440)!;
    const next = log.read("main").find((e) => e.type === "Checkpoint" && e.seq > target.seq)!;
    log.db
      .prepare(
        "UPDATE events SET payload = json_set(payload, '$.text', 'rewritten') WHERE save_id = 'main' AND seq = ?",
      )
      .run(target.seq);
    log.db.close();
    const [fast, verify] = await Promise.all([
      hearsay("replay", "--db", copy, "--quiet"),
      hearsay("replay", "--db", copy, "--verify", "--simulation", SIM, "--quiet"),
    ]);
    expect(fast.code).toBe(1);
    expect(fast.stdout).toMatch(
      new RegExp(
        `^checkpoint at seq ${next.seq} \\(day \\d, \\d\\d:00\\) does not match the refold\\n`,
      ),
    );
    expect(oneLine(fast.stderr)[0]).toMatch(
      new RegExp(`does not match its checkpoint at seq ${next.seq}`),
    );
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(
      new RegExp(
        `^diverged at seq ${target.seq} \\(day \\d, \\d\\d:00\\), WorldEventOccurred: the events differ\\n  expected: .*"text":"rewritten".*\\n  actual:   .*\\n  differs at: payload.text\\n  state after seq \\d+: expected [0-9a-f]+…, actual [0-9a-f]+…\\n`,
      ),
    );
    expect(oneLine(verify.stderr)).toEqual([
      `hearsay: replay of save "main" diverged from its log at seq ${target.seq} (${target.seq - 1} events agreed before it)`,
    ]);
  });
});

it("leaves no stray files beside the database", () => {
  const names = readdirSync(dir).filter((n) => n.startsWith("hamlet.db"));
  expect(names.every((n) => /^hamlet\.db(-wal|-shm|-lock|\..*)?$/.test(n))).toBe(true);
});
