import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  acquireWriterLock,
  DatabaseLocked,
  NotAHearsayDatabase,
  openDatabase,
  openForReading,
  openForWriting,
} from "@hearsay/store";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hearsay-open-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const catching = (f: () => unknown): { _tag?: string; message: string } => {
  try {
    f();
  } catch (e) {
    return e as { _tag?: string; message: string };
  }
  throw new Error("expected a throw");
};

const foreign = (path: string): string => {
  const db = new Database(path);
  db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  db.close();
  return path;
};

const objects = (path: string): number => {
  const db = new Database(path, { readonly: true });
  const n = db.prepare("SELECT count(*) FROM sqlite_schema").pluck().get() as number;
  db.close();
  return n;
};

describe("a foreign SQLite file is never migrated", () => {
  it.each([
    ["openDatabase", (p: string) => openDatabase(p)],
    ["openForReading", (p: string) => openForReading(p)],
    ["openForWriting create", (p: string) => openForWriting(p, { mode: "create" })],
    ["openForWriting replace", (p: string) => openForWriting(p, { mode: "replace" })],
  ] as const)("%s refuses it, naming it, and adds nothing", (_name, open) => {
    const path = foreign(join(dir, "other.sqlite"));
    const bytes = readFileSync(path);
    const e = catching(() => open(path));
    expect(e).toBeInstanceOf(NotAHearsayDatabase);
    expect(e.message).toContain(path);
    expect(e.message).toContain("t");
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(objects(path)).toBe(1);
    expect(existsSync(`${path}-lock`), "no lock file beside a foreign file").toBe(false);
  });
});

describe("openForReading", () => {
  it("refuses an empty file, a header without pages and a cut file, each in one line naming it", () => {
    const good = join(dir, "good.db");
    openDatabase(good).close();
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "");
    const header = join(dir, "header.db");
    writeFileSync(header, readFileSync(good).subarray(0, 100));
    const cut = join(dir, "cut.db");
    writeFileSync(cut, readFileSync(good).subarray(0, 8192));
    for (const [path, tag] of [
      [empty, "NotAHearsayDatabase"],
      [header, "DatabaseDamaged"],
      [cut, "DatabaseDamaged"],
    ] as const) {
      const e = catching(() => openForReading(path));
      expect(e._tag, path).toBe(tag);
      expect(e.message).toContain(path);
      expect(e.message).not.toMatch(/\n/);
    }
  });

  it("never writes: a database of an older schema is read as it is", () => {
    const path = join(dir, "a.db");
    openDatabase(path).close();
    const db = openForReading(path);
    expect(() => db.exec("CREATE TABLE x (y)")).toThrow(/readonly/);
    db.close();
  });
});

describe("the writer lock", () => {
  it("refuses a second writer and --replace while one holds the file, then lets them in", () => {
    const path = join(dir, "w.db");
    const first = openForWriting(path, { mode: "create" });
    const again = catching(() => openForWriting(path, { mode: "existing" }));
    expect(again).toBeInstanceOf(DatabaseLocked);
    expect(again.message).toContain(path);
    const replace = catching(() => openForWriting(path, { mode: "replace" }));
    expect(replace).toBeInstanceOf(DatabaseLocked);
    expect(existsSync(path)).toBe(true);
    // Readers are not writers: they never wait for the lock.
    openForReading(path).close();
    first.close();
    openForWriting(path, { mode: "replace" }).close();
  });

  it("a SIGKILLed holder leaves no lock behind", async () => {
    const path = join(dir, "k.db");
    openDatabase(path).close();
    const script = `
      const Database = require("better-sqlite3");
      const c = new Database(${JSON.stringify(`${path}-lock`)});
      c.exec("BEGIN EXCLUSIVE");
      process.stdout.write("held\\n");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["-e", script], {
      cwd: join(import.meta.dirname, ".."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    expect(catching(() => acquireWriterLock(path))).toBeInstanceOf(DatabaseLocked);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("close", resolve));
    const lock = acquireWriterLock(path);
    lock.release();
  });

  it("copies of the database do not share a lock", () => {
    const path = join(dir, "c.db");
    openDatabase(path).close();
    copyFileSync(path, join(dir, "c2.db"));
    const a = openForWriting(path, { mode: "existing" });
    openForWriting(join(dir, "c2.db"), { mode: "existing" }).close();
    a.close();
  });
});
