/**
 * `hearsay skip` as a user runs it: a short default run, then thirty days jumped and
 * thirty elided, each recorded step by step, and `replay --verify` re-makes all of it.
 * Bad input is one line naming the flag or file and the fix, and changes nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireWriterLock, openDatabase, SqliteEventLog } from "@hearsay/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDigest } from "../../../test/support/databaseDigest.ts";
import { hearsay } from "./runCli.ts";

let dir: string;
let db: string;

const oneLine = (stderr: string): string => {
  const lines = stderr
    .trim()
    .split("\n")
    .filter((l) => l !== "");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^hearsay: /);
  return lines[0]!;
};

/** The skips the log records, as (mode, minutes) pairs, and the run's end day. */
const recorded = (path: string) => {
  const handle = openDatabase(path);
  try {
    const log = new SqliteEventLog(handle);
    const events = log.read("main");
    const clock = events.flatMap((e) =>
      e.type === "ClockAdvanced" ? [[e.payload.mode, e.payload.to - e.payload.from] as const] : [],
    );
    const ends = events.flatMap((e) =>
      e.type === "SimulationStarted" || e.type === "RunResumed" ? [e.payload.endDay] : [],
    );
    return { clock, endDay: ends[ends.length - 1], t: events[events.length - 1]!.t };
  } finally {
    handle.close();
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-skip-"));
  db = join(dir, "hearsay.db");
  const run = await hearsay("run", "--days", "2", "--db", db, "--quiet");
  expect(run.code, run.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("hearsay skip", () => {
  it("jumps and elides 30 days each past the run's end, and replay --verify re-makes both", async () => {
    const before = recorded(db);
    const jump = await hearsay("skip", "--db", db, "--days", "30", "--quiet");
    expect(jump.code, jump.stderr).toBe(0);
    expect(jump.stdout).toContain("(jump)");
    // Past the run's end, the run is extended to the day after the skip ends, and says so.
    expect(jump.stdout).toContain(`the run now ends on day ${before.endDay! + 31}`);
    const jumped = recorded(db);
    const jumps = jumped.clock.slice(before.clock.length);
    expect(jumps).toEqual(Array.from({ length: 30 }, () => ["jump", 1440]));
    expect(jumped.endDay).toBe(before.endDay! + 31);

    const elide = await hearsay("skip", "--db", db, "--days", "30", "--mode", "elision", "--quiet");
    expect(elide.code, elide.stderr).toBe(0);
    const elided = recorded(db);
    const steps = elided.clock.slice(jumped.clock.length);
    // Every 6 game hours: 5 hours elided, then one ordinary hourly tick.
    expect(steps).toHaveLength(30 * 4 * 2);
    expect(steps.filter(([m]) => m === "elision").every(([, n]) => n === 300)).toBe(true);
    expect(steps.filter(([m]) => m === "tick")).toHaveLength(30 * 4);
    expect(elided.endDay).toBe(before.endDay! + 61);
    expect(elided.t - before.t).toBe(60 * 1440);

    const verify = await hearsay("replay", "--verify", "--db", db, "--quiet");
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/^verified save "main"/);
  }, 300_000);

  it.each([
    {
      name: "a save that is not there",
      args: (d: string) => ["skip", "--db", d, "--days", "3", "--save", "nope"],
      exit: 1,
      mentions: ['"nope"', "--save", "main"],
    },
    {
      name: "a database that is not there",
      args: (d: string) => ["skip", "--db", join(d, "..", "missing.db"), "--days", "3"],
      exit: 1,
      mentions: ["missing.db"],
    },
    {
      name: "--days 0",
      args: (d: string) => ["skip", "--db", d, "--days", "0"],
      exit: 2,
      mentions: ["days"],
    },
    {
      name: "an unknown mode",
      args: (d: string) => ["skip", "--db", d, "--days", "3", "--mode", "warp"],
      exit: 2,
      mentions: ["mode", "warp"],
    },
  ])(
    "$name: one line, exit $exit, nothing changed",
    async (c) => {
      const rows = databaseDigest(db);
      const r = await hearsay(...c.args(db));
      expect(r.code, r.stderr).toBe(c.exit);
      expect(r.stdout).toBe("");
      const line = oneLine(r.stderr);
      for (const m of c.mentions) expect(line).toContain(m);
      expect(databaseDigest(db)).toEqual(rows);
    },
    60_000,
  );

  it("a database another process writes: one line naming it, nothing changed", async () => {
    const rows = databaseDigest(db);
    const lock = acquireWriterLock(db);
    try {
      const r = await hearsay("skip", "--db", db, "--days", "3");
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toContain(db);
    } finally {
      lock.release();
    }
    expect(databaseDigest(db)).toEqual(rows);
  }, 60_000);
});
