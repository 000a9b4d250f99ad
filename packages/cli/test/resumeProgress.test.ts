/**
 * What `hearsay run --resume` says on a log or CI output before and while it runs: each
 * step of taking up the stored run as it begins (a long log takes seconds over each),
 * then its days counted from where the run stopped, never past all of them.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { describe, expect, it } from "vitest";
import { hearsay } from "./runCli.ts";

const SIM = join("test", "fixtures", "recorded", "hamlet", "simulation");

describe("hearsay run --resume", () => {
  it("says what it takes up, then counts this call's days from 0% to 100%", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "hearsay-resume-")), "r.db");
    const first = await hearsay("run", SIM, "--days", "1", "--db", db, "--quiet");
    expect(first.code).toBe(0);
    const log = new SqliteEventLog(openDatabase(db));
    const head = log.head("main");
    log.db.close();

    const resumed = await hearsay("run", SIM, "--resume", "--days", "3", "--db", db);
    expect(resumed.code).toBe(0);
    const lines = resumed.stderr.split("\n").filter((l) => l !== "");
    expect(lines[0]).toMatch(/^ {2}resuming: the NPCs' actors from [\d,]+ events of the log$/);
    expect(lines[1]).toBe(
      `  resuming: the retrieval index and view of ${head.toLocaleString("en-US")} events`,
    );
    const days = lines.slice(2).map((l) => /^ {2}(\d+)% \(day (\d+), endDay 3,/.exec(l));
    expect(days.every((m) => m !== null)).toBe(true);
    const pct = days.map((m) => Number(m![1]));
    // The run stopped after day 1 of 3: this call's bar starts there, at 0%, not at a third.
    expect(pct[0]).toBe(0);
    expect(Number(days[0]![2])).toBe(1);
    expect(pct.at(-1)).toBe(100);
    for (const p of pct) expect(p).toBeLessThanOrEqual(100);
  }, 120_000);
});
