/**
 * Nothing a command is asked to do loses a database or writes where it should not,
 * through the real CLI: `export --out` onto the database, an export onto a full disk,
 * `run --replace` over another program's SQLite file or while `serve` holds the file,
 * `--resume` of a save that never started or does not exist, `stats` of a missing save,
 * and `branch --at-day` past the end of the log. Each refusal is one stderr line naming
 * what is wrong, a non-zero exit, and the database byte-identical.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileHash } from "../support/databaseDigest.ts";
import { type CliResult, runHearsay, spawnHearsay, tinySimulation } from "../support/hearsayCli.ts";
import { mountTmpfs, unmount } from "../support/mounts.ts";
import { copyDatabase, foreignDatabase, makeGoodDatabase } from "./goodDatabase.ts";

let dir: string;
let good: string;
let n = 0;
const fresh = (name = "hearsay.db") => copyDatabase(good, join(dir, `${n++}-${name}`));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-dbsafety-"));
  good = join(dir, "good.db");
  await makeGoodDatabase(good);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Exactly one `hearsay: …` line on stderr that contains every one of `mentions`. */
const refused = (r: CliResult, mentions: ReadonlyArray<string>, what: string): void => {
  expect(r.code, `${what}: exit code (stderr ${r.stderr})`).toBe(1);
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  expect(lines, `${what}: one stderr line`).toHaveLength(1);
  expect(lines[0], what).toMatch(/^hearsay: /);
  for (const m of mentions) expect(lines[0], `${what}: names ${m}`).toContain(m);
};

describe("files a command must not destroy", () => {
  it("export --out onto the database (or its WAL) is refused and the database is untouched", async () => {
    const db = fresh();
    const before = fileHash(db);
    const [onDb, onWal] = await Promise.all([
      runHearsay(["export", "--db", db, "--out", db]),
      runHearsay(["export", "--db", db, "--out", `${db}-wal`]),
    ]);
    refused(onDb, [db, "--out"], "export onto the database");
    refused(onWal, [db, "-wal"], "export onto the WAL");
    expect(fileHash(db)).toBe(before);
  });

  it("an export onto a full disk fails in one line and leaves no file behind", async (ctx) => {
    const disk = join(dir, "full");
    if (!mountTmpfs(disk, 16)) {
      ctx.skip(); // needs root to mount a 16 KiB tmpfs
      return;
    }
    try {
      const out = join(disk, "events.jsonl");
      const r = await runHearsay(["export", "--db", good, "--out", out]);
      refused(r, [out, "no space left"], "export onto a full disk");
      expect(existsSync(out), "no truncated export").toBe(false);
      expect(readdirSync(disk), "no temporary file left").toEqual([]);
    } finally {
      unmount(disk);
    }
  });

  it("run --replace refuses another program's SQLite file and keeps its table", async () => {
    const path = foreignDatabase(join(dir, "notes.sqlite"));
    const before = fileHash(path);
    const r = await runHearsay(["run", tinySimulation, "--days", "1", "--db", path, "--replace"]);
    refused(r, [path, "not a hearsay database"], "--replace over a foreign file");
    expect(fileHash(path)).toBe(before);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT x FROM t").pluck().all()).toEqual(["keep me"]);
    db.close();
  });

  it("run --replace is refused while serve holds the database, and serve keeps it", async () => {
    const db = fresh();
    const serve = spawnHearsay(["serve", "--db", db, "--port", "0"], { HEARSAY_TOKEN: "" });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = "";
        serve.child.stdout?.on("data", (s: string) => {
          seen += s;
          const m = /listening on (http:\/\/\S+)/.exec(seen);
          if (m) resolve(m[1]!);
        });
        serve.done.then((r) => reject(new Error(`serve ended: ${r.stderr}`)));
      });
      const before = fileHash(db);
      const r = await runHearsay(["run", tinySimulation, "--days", "1", "--db", db, "--replace"]);
      refused(r, [db, "another hearsay process"], "--replace under serve");
      expect(existsSync(db), "the database is still there").toBe(true);
      expect(fileHash(db)).toBe(before);
      const health = await fetch(`${url}/openapi.json`);
      expect(health.status, "serve still answers").toBe(200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.done;
    }
  });
});

describe("--resume needs a run to continue", () => {
  it("refuses a save that never started, instead of starting a default run", async () => {
    const path = join(dir, "never.db");
    const log = new SqliteEventLog(openDatabase(path));
    log.createSave({ saveId: ids.save("main"), campaignId: ids.campaign("c"), name: "main" });
    log.db.close();
    const before = fileHash(path);
    const r = await runHearsay(["run", tinySimulation, "--db", path, "--resume", "--quiet"]);
    refused(r, [path, "never started", "without --resume"], "resume of a never-started save");
    expect(fileHash(path)).toBe(before);
  });

  it("refuses a save that does not exist, naming the ones there are", async () => {
    const db = fresh();
    const before = fileHash(db);
    const r = await runHearsay([
      "run",
      tinySimulation,
      "--db",
      db,
      "--resume",
      "--save",
      "typo",
      "--quiet",
    ]);
    refused(r, [db, "typo", "main"], "resume of a save that is not there");
    expect(fileHash(db)).toBe(before);
  });
});

describe("reads that name what is not there", () => {
  it("stats of a save that does not exist exits non-zero", async () => {
    const db = fresh();
    const r = await runHearsay(["stats", "--db", db, "--save", "nope"]);
    refused(r, [db, "nope"], "stats of a missing save");
  });

  it("branch --at-day past the end of the log is refused instead of branching at its head", async () => {
    const db = fresh();
    const before = fileHash(db);
    const r = await runHearsay(["branch", "--db", db, "--at-day", "99", "--into", "later"]);
    refused(r, ["day 99", "past the end"], "branch past the end");
    expect(fileHash(db)).toBe(before);
  });
});
