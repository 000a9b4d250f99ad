/**
 * `hearsay run --scale N`: the default world grown to N NPCs runs as a stress run and
 * the summary ends with the run's own time; a scaled save resumes only scaled the same
 * way, and replays by the world it names; a bad N is one line naming the flag, a non-zero
 * exit, and no database is made.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { hearsay } from "./runCli.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-scale-"));

/** How many NPCs the save registered. */
const registered = (db: string): number => {
  const log = new SqliteEventLog(openDatabase(db));
  try {
    return log.read(ids.save("main")).filter((e) => e.type === "NpcRegistered").length;
  } finally {
    log.db.close();
  }
};

describe("hearsay run --scale", () => {
  it("runs the world scaled to N NPCs and prints the run's own time", async () => {
    const db = join(dir, "scaled.db");
    const run = await hearsay("run", "--days", "1", "--scale", "75", "--db", db, "--quiet");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(registered(db)).toBe(75);
    const time = run.stdout.split("\n").find((l) => l.startsWith("time:"));
    expect(time).toMatch(
      /^time: +\d+\.\d s wall, \d+\.\d ticks\/s, \d+ µs per NPC-day \(75 NPCs × 0\.8 days\)$/,
    );

    // The scaled world is the run's world: resuming it unscaled is refused, scaled resumes.
    const unscaled = await hearsay("run", "--resume", "--days", "2", "--db", db, "--quiet");
    expect(unscaled.code).not.toBe(0);
    expect(unscaled.stderr).toMatch(/world definition changed/);
    const resumed = await hearsay(
      "run",
      ...["--resume", "--days", "2", "--scale", "75", "--db", db, "--quiet"],
    );
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(registered(db)).toBe(75);

    // Commands that take the run up by the world it names find the scaled world too.
    const verified = await hearsay("replay", "--db", db, "--verify", "--quiet");
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/re-run from "haskerry-x75"/);
  }, 180_000);

  it.each(["0", "-3", "many", "1.5", "2000000"])(
    "refuses --scale %s in one line naming the flag, and makes no database",
    async (n) => {
      const db = join(dir, `bad-${n}.db`);
      const run = await hearsay("run", "--days", "1", "--scale", n, "--db", db, "--quiet");
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/--scale/);
      expect(existsSync(db)).toBe(false);
    },
    60_000,
  );
});
