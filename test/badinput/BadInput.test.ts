/**
 * Bad input changes nothing and is reported in one line. Every file of the corpus under
 * test/fixtures/badinput — malformed simulation folders, broken lore, bad
 * `hearsay.config` files, garbage model answers — and bad CLI arguments, a file that is
 * not SQLite, a truncated database and one from a newer schema version, must give a
 * typed error (in process) or a non-zero exit with exactly one stderr line
 * `hearsay: …` (through the real CLI), naming what is wrong and where. Where an
 * existing database is involved, a digest of every row of every table (or, for a file
 * that is no database, its bytes) is the same after as before.
 *
 * In process, every case runs. Through the CLI (a child process each, ~4 s to start),
 * a sample of every category runs by default and every case under HEARSAY_DEEP.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSimulation } from "@hearsay/engine";
import { decodeAnswer, loadMindConfig } from "@hearsay/mind";
import { chunkLore, decodeLoreText } from "@hearsay/retrieval";
import { openDatabase } from "@hearsay/store";
import { Effect, Result } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDigest, fileHash } from "../support/databaseDigest.ts";
import { type CliResult, runHearsay, tinySimulation } from "../support/hearsayCli.ts";
import { runPool } from "../support/runPool.ts";
import {
  answerCases,
  type BadCase,
  configCases,
  corpusDir,
  simulationCases,
} from "./badInputCorpus.ts";
import { brainInputs } from "./brainInputs.ts";
import {
  copyDatabase,
  futureCopy,
  makeGoodDatabase,
  truncatedCopy,
  writeText,
} from "./goodDatabase.ts";

const DEEP = process.env.HEARSAY_DEEP !== undefined && process.env.HEARSAY_DEEP !== "";

/** A message is one line that names every expected thing. */
const expectOneLine = (message: string, mentions: ReadonlyArray<string>, what: string): void => {
  expect(message, `${what}: one line`).not.toMatch(/\n/);
  expect(message.trim(), `${what}: says something`).not.toBe("");
  for (const m of mentions) expect(message, `${what}: names ${JSON.stringify(m)}`).toContain(m);
};

/** The error a synchronous call throws, or a failure when it throws nothing. */
const thrown = (f: () => unknown): { _tag?: string; message: string } => {
  try {
    f();
  } catch (e) {
    return e as { _tag?: string; message: string };
  }
  throw new Error("expected an error, got none");
};

describe("bad input, in process: typed errors in one line", () => {
  it.each(simulationCases)("simulation $name", (c: BadCase) => {
    const e = thrown(() => loadSimulation(join(corpusDir, "simulations", c.name)));
    expect(["SimulationInvalid", "SimulationNotFound"]).toContain(e._tag);
    expectOneLine(e.message, c.mentions, `simulation ${c.name}`);
  });

  it.each(["binary-lore", "invalid-utf8-lore", "empty-lore"])("lore file of %s", (name) => {
    const path = join(corpusDir, "simulations", name, "lore", "ledger.md");
    const bytes = readFileSync(path);
    const decoded = decodeLoreText(path, bytes);
    expect(Result.isFailure(decoded), `${name} decodes`).toBe(true);
    const chunked = chunkLore(path, bytes);
    expect(Result.isFailure(chunked), `${name} chunks`).toBe(true);
    if (Result.isFailure(chunked)) {
      expect(chunked.failure._tag).toBe("LoreFileError");
      expectOneLine(chunked.failure.message, [path], `lore ${name}`);
    }
  });

  it.each(configCases)("config $name", async (c: BadCase) => {
    const path = join(corpusDir, "config", `${c.name}.config`);
    const result = await Effect.runPromise(Effect.result(loadMindConfig({ path, env: {} })));
    expect(result._tag).toBe("Failure");
    if (result._tag === "Failure") {
      expect(result.failure._tag).toBe("MindConfigError");
      expectOneLine(result.failure.message, [path, ...c.mentions], `config ${c.name}`);
    }
  });

  it.each(answerCases)("$purpose answer $name", (c) => {
    const raw = readFileSync(join(corpusDir, "answers", c.purpose, `${c.name}.txt`), "utf8");
    const decoded = decodeAnswer(c.purpose, brainInputs[c.purpose] as never, raw, "test-model");
    expect(Result.isFailure(decoded), `${c.purpose}/${c.name} was accepted`).toBe(true);
    if (Result.isFailure(decoded)) {
      expect(decoded.failure._tag).toBe(c.tag);
      expectOneLine(decoded.failure.message, c.mentions, `answer ${c.purpose}/${c.name}`);
    }
  });

  it("databases: not SQLite, truncated, from a newer schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hearsay-badinput-"));
    try {
      const good = join(dir, "good.db");
      await makeGoodDatabase(good);
      const notDb = join(corpusDir, "files", "not-a-database.sqlite");
      const before = fileHash(notDb);
      const a = thrown(() => openDatabase(notDb));
      expect(a._tag).toBe("NotADatabase");
      expectOneLine(a.message, [notDb], "not SQLite");
      expect(fileHash(notDb)).toBe(before);

      const future = futureCopy(good, join(dir, "future.db"), 99);
      const rows = databaseDigest(future);
      const b = thrown(() => openDatabase(future));
      expect(b._tag).toBe("FutureSchemaVersion");
      expectOneLine(b.message, [future, "99"], "newer schema");
      expect(databaseDigest(future)).toEqual(rows);

      const cut = truncatedCopy(good, join(dir, "cut.db"), 0.5);
      const bytes = fileHash(cut);
      let message: string | null = null;
      try {
        // Opening may succeed (page 1 is intact); reading what is gone must not.
        const db = openDatabase(cut);
        try {
          db.prepare("SELECT count(*) FROM events").get();
          db.pragma("integrity_check");
          const check = db.pragma("integrity_check", { simple: true });
          if (check !== "ok") message = `integrity: ${String(check)}`;
        } finally {
          db.close();
        }
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, "a truncated database is noticed").not.toBeNull();
      expect(fileHash(cut)).toBe(bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** One run of the CLI against a database, and what must hold afterwards. */
interface CliCase {
  readonly name: string;
  /** Runs in the default test run too (else only under HEARSAY_DEEP). */
  readonly sample: boolean;
  /** Arguments, given the case's database path. */
  readonly args: (db: string) => ReadonlyArray<string>;
  /** The database the case starts from. */
  readonly db: "good" | "not-sqlite" | "truncated" | "future";
  readonly exit: 1 | 2;
  readonly mentions: (db: string) => ReadonlyArray<string>;
}

const sim = (name: string) => join(corpusDir, "simulations", name);
const config = (name: string) => join(corpusDir, "config", `${name}.config`);
const sampleSims = new Set(["bad-json", "binary-lore", "missing-lore-split"]);
const sampleConfigs = new Set(["bad-url", "misspelt-section"]);

const cliCases: ReadonlyArray<CliCase> = [
  ...simulationCases.map(
    (c): CliCase => ({
      name: `simulation ${c.name}`,
      sample: sampleSims.has(c.name),
      args: (db) => ["run", sim(c.name), "--days", "2", "--db", db, "--resume"],
      db: "good",
      exit: 1,
      mentions: () => c.mentions,
    }),
  ),
  ...configCases.map(
    (c): CliCase => ({
      name: `config ${c.name}`,
      sample: sampleConfigs.has(c.name),
      args: (db) => [
        "run",
        tinySimulation,
        "--brain",
        "ollama",
        "--config",
        config(c.name),
        "--db",
        db,
        "--resume",
      ],
      db: "good",
      exit: 1,
      mentions: () => [`${c.name}.config`, ...c.mentions],
    }),
  ),
  {
    name: "--days 0",
    sample: false,
    args: (db) => ["run", tinySimulation, "--days", "0", "--db", db],
    db: "good",
    exit: 2,
    mentions: () => ["days"],
  },
  {
    name: "--days abc",
    sample: false,
    args: (db) => ["run", tinySimulation, "--days", "abc", "--db", db],
    db: "good",
    exit: 2,
    mentions: () => ["days"],
  },
  {
    name: "--days 99999999",
    sample: false,
    args: (db) => ["run", tinySimulation, "--days", "99999999", "--db", db],
    db: "good",
    exit: 2,
    mentions: () => ["days"],
  },
  {
    name: "--seed 1.5",
    sample: false,
    args: (db) => ["run", tinySimulation, "--seed", "1.5", "--db", db],
    db: "good",
    exit: 2,
    mentions: () => ["seed"],
  },
  {
    name: "--brain gpt",
    sample: false,
    args: (db) => ["run", tinySimulation, "--brain", "gpt", "--db", db],
    db: "good",
    exit: 2,
    mentions: () => ["brain", "gpt"],
  },
  {
    name: "unknown flag",
    sample: true,
    args: (db) => ["run", tinySimulation, "--frobnicate", "--db", db],
    db: "good",
    exit: 2,
    mentions: () => ["frobnicate"],
  },
  {
    name: "unknown command",
    sample: false,
    args: () => ["frobnicate"],
    db: "good",
    exit: 2,
    mentions: () => ["frobnicate"],
  },
  {
    name: "--db without a value",
    sample: false,
    args: () => ["run", tinySimulation, "--db"],
    db: "good",
    exit: 2,
    mentions: () => ["db"],
  },
  {
    name: "--resume with --replace",
    sample: true,
    args: (db) => ["run", tinySimulation, "--db", db, "--resume", "--replace"],
    db: "good",
    exit: 1,
    mentions: () => ["--resume", "--replace"],
  },
  {
    name: "a second run without --resume",
    sample: false,
    args: (db) => ["run", tinySimulation, "--days", "2", "--db", db],
    db: "good",
    exit: 1,
    mentions: () => ["--resume"],
  },
  {
    name: "--resume with another world",
    sample: true,
    args: (db) => ["run", "haskerry", "--days", "2", "--db", db, "--resume"],
    db: "good",
    exit: 1,
    mentions: () => ["world"],
  },
  {
    name: "skip --days 0",
    sample: false,
    args: (db) => ["skip", "--db", db, "--days", "0"],
    db: "good",
    exit: 2,
    mentions: () => ["--days"],
  },
  {
    name: "skip --mode warp",
    sample: false,
    args: (db) => ["skip", "--db", db, "--days", "2", "--mode", "warp"],
    db: "good",
    exit: 2,
    mentions: () => ["--mode", "warp"],
  },
  {
    name: "skip a save that is not there",
    sample: true,
    args: (db) => ["skip", "--db", db, "--days", "2", "--save", "nope"],
    db: "good",
    exit: 1,
    mentions: (db) => [db, '"nope"', "--save"],
  },
  {
    name: "skip a database from a newer schema",
    sample: false,
    args: (db) => ["skip", "--db", db, "--days", "2"],
    db: "future",
    exit: 1,
    mentions: (db) => [db, "99"],
  },
  {
    name: "a file that is not SQLite",
    sample: false,
    args: (db) => ["run", tinySimulation, "--days", "1", "--db", db],
    db: "not-sqlite",
    exit: 1,
    mentions: (db) => [db, "SQLite"],
  },
  {
    name: "--replace over a file that is not SQLite",
    sample: true,
    args: (db) => ["run", tinySimulation, "--days", "1", "--db", db, "--replace"],
    db: "not-sqlite",
    exit: 1,
    mentions: (db) => [db, "SQLite"],
  },
  {
    name: "a truncated database",
    sample: true,
    args: (db) => ["run", tinySimulation, "--days", "2", "--db", db, "--resume"],
    db: "truncated",
    exit: 1,
    mentions: (db) => [db],
  },
  {
    name: "a database from a newer schema",
    sample: true,
    args: (db) => ["run", tinySimulation, "--days", "2", "--db", db, "--resume"],
    db: "future",
    exit: 1,
    mentions: (db) => [db, "99"],
  },
  {
    name: "--replace over a newer schema",
    sample: false,
    args: (db) => ["run", tinySimulation, "--days", "2", "--db", db, "--replace"],
    db: "future",
    exit: 1,
    mentions: (db) => [db, "99"],
  },
];

/** The environment without settings that would change which config is read. */
const cleanEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HEARSAY_") && !k.startsWith("OLLAMA_")) env[k] = v;
  }
  return env;
};

describe("bad input, through the CLI: non-zero exit, one line, nothing changed", () => {
  const chosen = cliCases.filter((c) => DEEP || c.sample);
  let dir: string;
  let outcomes: ReadonlyArray<
    Promise<{ result: CliResult; db: string; before: unknown; after: () => unknown }>
  >;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearsay-badinput-cli-"));
    const good = join(dir, "good.db");
    await makeGoodDatabase(good);
    const env = cleanEnv();
    outcomes = runPool(
      chosen.map((c, i) => async () => {
        const caseDir = join(dir, `case-${i}`);
        mkdirSync(caseDir);
        const db =
          c.db === "good"
            ? copyDatabase(good, join(caseDir, "hearsay.db"))
            : c.db === "future"
              ? futureCopy(good, join(caseDir, "hearsay.db"), 99)
              : c.db === "truncated"
                ? truncatedCopy(good, join(caseDir, "hearsay.db"), 0.5)
                : writeText(join(caseDir, "notes.sqlite"), "My notes. Not a database.\n");
        // Rows where there is a readable database; bytes where there is not.
        const digest =
          c.db === "good" || c.db === "future" ? () => databaseDigest(db) : () => fileHash(db);
        const before = digest();
        const result = await runHearsay(c.args(db), env);
        return { result, db, before, after: digest };
      }),
      DEEP ? 3 : 2,
    );
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(chosen.map((c, i) => [c.name, i] as const))(
    "%s",
    async (_name, i) => {
      const c = chosen[i]!;
      const { result, db, before, after } = await outcomes[i]!;
      const what = `${c.name} (${c.args(db).join(" ")})`;
      expect(result.code, `${what}: exit code; stderr ${result.stderr}`).toBe(c.exit);
      expect(result.stdout, `${what}: stdout`).toBe("");
      const lines = result.stderr.split("\n").filter((l) => l !== "");
      expect(lines, `${what}: exactly one line on stderr`).toHaveLength(1);
      expect(lines[0], what).toMatch(/^hearsay: /);
      expectOneLine(lines[0]!, c.mentions(db), what);
      expect(after(), `${what}: the database is unchanged`).toEqual(before);
    },
    120_000,
  );
});
