/**
 * Every CLI command against every kind of bad database file: truncated, bit-flipped,
 * header-only, empty, not SQLite, another program's SQLite file, a hearsay file missing
 * its `saves` table, one from a newer schema — and a good one on read-only media. Each
 * must end non-zero with exactly one stderr line `hearsay: …` naming the file, and leave
 * the file byte-identical (for a foreign file: no hearsay schema added, no row touched).
 * On read-only media the read commands must work and the writing ones refuse in one line.
 *
 * Two cells are not refusals by design: an empty file is no database yet, so `run` and
 * `run --replace` write a new one there (what a run killed at its first instant leaves).
 *
 * A child process per cell (~3 s each): by default a quarter of the table runs, spread so
 * every command and every kind of file is in it, plus every read on read-only media;
 * HEARSAY_DEEP runs all of it.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileHash } from "../support/databaseDigest.ts";
import { type CliResult, spawnHearsay, tinySimulation } from "../support/hearsayCli.ts";
import { mountTmpfs, remountReadOnly, unmount } from "../support/mounts.ts";
import { runPool } from "../support/runPool.ts";
import {
  bitFlippedCopy,
  copyDatabase,
  foreignDatabase,
  futureCopy,
  headerOnlyCopy,
  makeGoodDatabase,
  noSavesCopy,
  truncatedCopy,
  writeText,
} from "./goodDatabase.ts";

const DEEP = process.env.HEARSAY_DEEP !== undefined && process.env.HEARSAY_DEEP !== "";

type Kind =
  | "truncated"
  | "bit-flipped"
  | "header-only"
  | "empty"
  | "not-sqlite"
  | "foreign"
  | "no-saves"
  | "newer-schema"
  | "read-only";

const kinds: ReadonlyArray<Kind> = [
  "truncated",
  "bit-flipped",
  "header-only",
  "empty",
  "not-sqlite",
  "foreign",
  "no-saves",
  "newer-schema",
  "read-only",
];

interface Command {
  readonly name: string;
  readonly args: (db: string, out: string) => ReadonlyArray<string>;
  /** Only reads: works on read-only media. */
  readonly reads: boolean;
  /** Serves until stopped once it is up (it prints its URL). */
  readonly serves?: true;
}

const commands: ReadonlyArray<Command> = [
  {
    name: "run --resume",
    args: (db) => ["run", tinySimulation, "--days", "2", "--db", db, "--resume", "--quiet"],
    reads: false,
  },
  {
    name: "run --replace",
    args: (db) => ["run", tinySimulation, "--days", "1", "--db", db, "--replace", "--quiet"],
    reads: false,
  },
  {
    name: "run",
    args: (db) => ["run", tinySimulation, "--days", "1", "--db", db, "--quiet"],
    reads: false,
  },
  { name: "replay", args: (db) => ["replay", "--db", db, "--quiet"], reads: true },
  {
    name: "branch",
    args: (db) => ["branch", "--db", db, "--at-day", "1", "--into", "b"],
    reads: false,
  },
  {
    name: "skip",
    args: (db) => ["skip", "--db", db, "--days", "1", "--simulation", tinySimulation, "--quiet"],
    reads: false,
  },
  {
    name: "dossier",
    args: (db) => ["dossier", "--db", db, "--npc", "ada", "--day", "1"],
    reads: true,
  },
  {
    name: "export",
    args: (db, out) => ["export", "--db", db, "--out", out],
    reads: true,
  },
  { name: "stats", args: (db) => ["stats", "--db", db], reads: true },
  {
    name: "inspect",
    args: (db) => ["inspect", "--db", db, "--port", "0"],
    reads: true,
    serves: true,
  },
  {
    name: "chat",
    args: (db) => ["chat", "--db", db, "--npc", "ada"],
    reads: false,
  },
  {
    name: "serve",
    args: (db) => ["serve", "--db", db, "--port", "0"],
    reads: false,
  },
];

/** Where a bad file of each kind is made from the good database. */
const makeFile = (kind: Kind, good: string, dir: string): string => {
  const at = (name: string) => join(dir, name);
  switch (kind) {
    case "truncated":
      return truncatedCopy(good, at("hearsay.db"), 0.5);
    case "bit-flipped":
      return bitFlippedCopy(good, at("hearsay.db"));
    case "header-only":
      return headerOnlyCopy(good, at("hearsay.db"));
    case "empty":
      return writeText(at("hearsay.db"), "");
    case "not-sqlite":
      return writeText(at("notes.sqlite"), "My notes. Not a database.\n");
    case "foreign":
      return foreignDatabase(at("other.sqlite"));
    case "no-saves":
      return noSavesCopy(good, at("hearsay.db"));
    case "newer-schema":
      return futureCopy(good, at("hearsay.db"), 99);
    case "read-only":
      return copyDatabase(good, at("hearsay.db"));
  }
};

/** Cells that are not refusals (see the header). */
const writesNew = (c: Command, k: Kind) =>
  k === "empty" && (c.name === "run" || c.name === "run --replace");

interface Cell {
  readonly command: Command;
  readonly kind: Kind;
}

const table: ReadonlyArray<Cell> = commands.flatMap((command, ci) =>
  kinds.flatMap((kind, ki) =>
    !writesNew(command, kind) &&
    (DEEP || (ci + ki) % 4 === 0 || (kind === "read-only" && command.reads))
      ? [{ command, kind }]
      : [],
  ),
);

/** Runs a cell's command; one that serves is stopped once it printed its URL. */
const runCell = async (
  c: Command,
  db: string,
  out: string,
): Promise<CliResult & { served: boolean }> => {
  const child = spawnHearsay(c.args(db, out), { HEARSAY_TOKEN: "" });
  let served = false;
  if (c.serves === true || c.name === "serve") {
    child.child.stdout?.on("data", (s: string) => {
      if (/http:\/\//.test(String(s)) && !served) {
        served = true;
        child.child.kill("SIGTERM");
      }
    });
  }
  const timer = setTimeout(() => child.child.kill("SIGKILL"), 60_000);
  try {
    return { ...(await child.done), served };
  } finally {
    clearTimeout(timer);
  }
};

describe("every command against every bad database: one line, non-zero, file unchanged", () => {
  let dir: string;
  let readOnlyDir: string | null = null;
  let outcomes: ReadonlyArray<
    Promise<{
      result: CliResult & { served: boolean };
      db: string;
      before: unknown;
      after: unknown;
    }>
  >;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearsay-baddb-"));
    const good = join(dir, "good.db");
    await makeGoodDatabase(good);
    const roDir = join(dir, "readonly");
    if (mountTmpfs(roDir, 8192)) {
      readOnlyDir = roDir;
      copyDatabase(good, join(roDir, "hearsay.db"));
      remountReadOnly(roDir);
    }
    outcomes = runPool(
      table.map((cell, i) => async () => {
        const caseDir = join(dir, `case-${i}`);
        mkdirSync(caseDir);
        const db =
          cell.kind === "read-only"
            ? join(readOnlyDir ?? roDir, "hearsay.db")
            : makeFile(cell.kind, good, caseDir);
        const before = fileHash(db);
        const result = await runCell(cell.command, db, join(caseDir, "out.jsonl"));
        return { result, db, before, after: fileHash(db) };
      }),
      3,
    );
  }, 120_000);

  afterAll(() => {
    if (readOnlyDir !== null) unmount(readOnlyDir);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(table.map((c, i) => [`${c.command.name} on ${c.kind}`, i] as const))(
    "%s",
    async (_name, i) => {
      const cell = table[i]!;
      if (cell.kind === "read-only" && readOnlyDir === null) {
        // Mounting a read-only file system needs root; say so rather than pass quietly.
        console.warn(`${cell.command.name} on read-only media: skipped (cannot mount here)`);
        return;
      }
      const { result, db, before, after } = await outcomes[i]!;
      const what = `${cell.command.name} on a ${cell.kind} file (${cell.command.args(db, "out.jsonl").join(" ")})`;
      expect(after, `${what}: the file is byte-identical`).toBe(before);
      if (cell.kind === "read-only" && cell.command.reads) {
        expect(result.stderr, `${what}: reads read-only media`).not.toMatch(/hearsay: /);
        if (cell.command.serves === true) expect(result.served, what).toBe(true);
        else expect(result.code, what).toBe(0);
        return;
      }
      expect(result.served, `${what}: must not serve`).toBe(false);
      expect(result.code, `${what}: exit code; stderr ${result.stderr}`).toBe(1);
      const lines = result.stderr.split("\n").filter((l) => l !== "");
      expect(lines, `${what}: exactly one line on stderr`).toHaveLength(1);
      expect(lines[0], what).toMatch(/^hearsay: /);
      expect(lines[0], `${what}: names the file`).toContain(db);
      expect(lines[0], `${what}: no internal error`).not.toMatch(/internal error/);
    },
    180_000,
  );
});
