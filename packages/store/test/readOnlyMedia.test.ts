/**
 * Reading a database on read-only media (a tmpfs remounted read-only; mounting needs
 * root, so elsewhere this is skipped): a cleanly closed WAL database reads (its `-shm`
 * cannot be created there, so it is opened immutable), and one whose `-wal` still holds
 * frames is refused in one line rather than read without them.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ids } from "@hearsay/core";
import { openDatabase, openForReading, SqliteEventLog } from "@hearsay/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
let media: string;
let mounted = false;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-romedia-"));
  media = join(dir, "media");
  mkdirSync(media);
  if (process.platform !== "linux" || process.getuid?.() !== 0) return;
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", media], { stdio: "ignore" });
    mounted = true;
  } catch {
    return;
  }
  const clean = join(dir, "clean.db");
  const log = new SqliteEventLog(openDatabase(clean));
  log.createSave({ saveId: ids.save("main"), campaignId: ids.campaign("c"), name: "main" });
  log.db.close();
  copyFileSync(clean, join(media, "clean.db"));
  // A database with frames still in its WAL: copied while its writer has it open.
  const live = join(dir, "live.db");
  const writer = new SqliteEventLog(openDatabase(live));
  writer.db.pragma("wal_autocheckpoint = 0");
  writer.createSave({ saveId: ids.save("main"), campaignId: ids.campaign("c"), name: "main" });
  copyFileSync(live, join(media, "live.db"));
  copyFileSync(`${live}-wal`, join(media, "live.db-wal"));
  writer.db.close();
  execFileSync("mount", ["-o", "remount,ro", media], { stdio: "ignore" });
});

afterAll(() => {
  if (mounted) execFileSync("umount", ["-l", media], { stdio: "ignore" });
  rmSync(dir, { recursive: true, force: true });
});

describe("openForReading on read-only media", () => {
  it("reads a cleanly closed WAL database", (ctx) => {
    if (!mounted) return ctx.skip();
    const db = openForReading(join(media, "clean.db"));
    expect(new SqliteEventLog(db).saves().map((s) => s.saveId)).toEqual(["main"]);
    db.close();
  });

  it("refuses one whose WAL still holds frames, naming it", (ctx) => {
    if (!mounted) return ctx.skip();
    const path = join(media, "live.db");
    let message = "";
    try {
      openForReading(path).close();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(path);
    expect(message).toContain("-wal");
    expect(message).not.toMatch(/\n/);
  });
});
