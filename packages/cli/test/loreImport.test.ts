/**
 * `hearsay lore import`: lore added to a recorded save is an event in its log — chunked
 * into `lore_chunks`, skipped when re-imported unchanged, seen by a branch and by a
 * verified replay of the run resumed after it — and a bad input (binary, invalid UTF-8,
 * a missing path, an empty folder, no database) is one line, exit 1, nothing changed.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { beforeAll, describe, expect, it } from "vitest";
import { hearsay } from "./runCli.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-lore-"));
const db = join(dir, "run.db");
const lore = join(dir, "lore");

const sentence = (i: number) =>
  `The ferryman Oswin keeps the Tarn crossing ${i} and asks a copper toll, two in flood season.`;
const ferry = `# The Tarn Ferry\n\n${Array.from({ length: 14 }, (_, i) => sentence(i)).join(" ")}\n\n## Tolls\n\n${Array.from({ length: 14 }, (_, i) => `Toll rule ${i}: pilgrims cross free on feast days, merchants pay by the cart.`).join(" ")}\n`;

/** What the database holds that an import could change. */
const stored = () => {
  const log = new SqliteEventLog(openDatabase(db));
  const out = {
    head: log.head(ids.save("main")),
    chunks: log.db.prepare("SELECT count(*) FROM lore_chunks").pluck().get() as number,
  };
  log.db.close();
  return out;
};

beforeAll(async () => {
  const run = await hearsay("run", "--days", "1", "--db", db, "--quiet");
  expect(run.code).toBe(0);
  mkdirSync(join(lore, "deep"), { recursive: true });
  writeFileSync(join(lore, "ferry.md"), ferry);
  writeFileSync(
    join(lore, "deep", "notes.markdown"),
    `# Notes\n\n${sentence(99)} ${sentence(98)}\n`,
  );
  writeFileSync(join(lore, "ignored.txt"), "not lore");
}, 120_000);

describe("hearsay lore import", () => {
  it("imports a folder as events, skips it unchanged, and replay and branch see it", async () => {
    const before = stored();
    const first = await hearsay("lore", "import", lore, "--db", db);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/imported {2}deep\/notes\.markdown: 1 chunk/);
    expect(first.stdout).toMatch(/imported {2}ferry\.md: \d+ chunk/);
    expect(first.stdout).not.toMatch(/ignored/);
    const after = stored();
    expect(after.head).toBe(before.head + 2);
    expect(after.chunks).toBeGreaterThan(before.chunks + 1);
    const log = new SqliteEventLog(openDatabase(db));
    const events = log.read(ids.save("main"), { fromSeq: before.head + 1 });
    const texts = log.db
      .prepare("SELECT text FROM lore_chunks WHERE source_id = ? ORDER BY ord")
      .pluck()
      .all("lore:ferry.md") as Array<string>;
    log.db.close();
    expect(events.map((e) => e.type)).toEqual(["LoreImported", "LoreImported"]);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const text of texts) {
      const words = text.split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(100);
      expect(words).toBeLessThanOrEqual(300);
    }

    const again = await hearsay("lore", "import", lore, "--db", db);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/unchanged ferry\.md/);
    expect(again.stdout).toMatch(/0 file\(s\) imported/);
    expect(stored()).toEqual(after);

    // The run goes on after the import, and a verified replay appends the import as recorded.
    const resumed = await hearsay("run", "--days", "2", "--db", db, "--resume", "--quiet");
    expect(resumed.code).toBe(0);
    const replay = await hearsay("replay", "--db", db, "--verify", "--quiet");
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(0);
    const branch = await hearsay("branch", "--db", db, "--at-day", "1", "--into", "b");
    expect(branch.stderr).toBe("");
    expect(branch.code).toBe(0);
    const b = new SqliteEventLog(openDatabase(db));
    const inBranch = b.db
      .prepare(
        "SELECT count(*) FROM lore_chunks WHERE save_id = 'b' AND source_id = 'lore:ferry.md'",
      )
      .pluck()
      .get() as number;
    b.db.close();
    expect(inBranch).toBe(texts.length);
  }, 240_000);

  it("refuses bad input with one line naming it, exit 1, and changes nothing", async () => {
    const bad = join(dir, "bad");
    mkdirSync(join(bad, "empty"), { recursive: true });
    writeFileSync(join(bad, "image.md"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2]));
    writeFileSync(
      join(bad, "latin1.md"),
      Buffer.from("# Caf\xe9\n\nThe caf\xe9 by the ferry.\n", "latin1"),
    );
    const before = stored();
    const cases: Array<[ReadonlyArray<string>, RegExp]> = [
      [[join(bad, "image.md")], /image\.md: is a binary file, not markdown text; .*UTF-8 markdown/],
      [[join(bad, "latin1.md")], /latin1\.md: invalid UTF-8 at byte 5; re-save the file as UTF-8/],
      [[join(bad, "missing.md")], /missing\.md: no such file or folder; check the path/],
      [[join(bad, "empty")], /empty: no \.md or \.markdown files in this folder/],
      [
        [lore, "--db", join(dir, "none.db")],
        /none\.db: no such file; pass the --db of a recorded run/,
      ],
      [[lore, "--save", "nope"], /nope/],
    ];
    for (const [args, message] of cases) {
      const r = await hearsay(
        "lore",
        "import",
        ...args,
        ...(args.includes("--db") ? [] : ["--db", db]),
      );
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
    expect(existsSync(join(dir, "none.db"))).toBe(false);
    expect(stored()).toEqual(before);
  }, 240_000);
});
