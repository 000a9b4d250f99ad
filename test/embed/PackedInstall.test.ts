/**
 * What a game gets from the registry: each public package packed as its tarball
 * (`pnpm pack`, which turns workspace ranges into versions), installed with npm into a
 * scratch folder with nothing of the workspace around it, and the library example run
 * there — then the installed `hearsay` command on the database it wrote, and the
 * packages' declarations type-checking a consumer's import. Third-party dependencies
 * come from the npm registry; better-sqlite3 may compile from source, so this takes a
 * minute or two. The scratch folder is removed afterwards.
 */
import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/hearsayCli.ts";
import { expectExampleRan } from "./runExample.ts";

/** The packages a game installs (testkit stays private). */
const PUBLIC = ["core", "store", "retrieval", "mind", "actors", "engine", "inspector", "cli"];
const MINUTES = 60_000;

const scratch = mkdtempSync(join(tmpdir(), "hearsay-packed-"));
const tarballs = join(scratch, "tarballs");
const app = join(scratch, "app");

// As .config/bootstrap.mjs: point node-gyp at this Node's headers when they are installed
// beside it, so better-sqlite3 compiles without downloading them.
const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", NO_COLOR: "1" };
const prefix = join(dirname(process.execPath), "..");
if (!env.npm_config_nodedir && existsSync(join(prefix, "include", "node", "node.h")))
  env.npm_config_nodedir = prefix;

const run = (cmd: string, args: ReadonlyArray<string>, opts: SpawnSyncOptions = {}) => {
  const r = spawnSync(cmd, args, { env, encoding: "utf8", maxBuffer: 64 * 2 ** 20, ...opts });
  if (r.error) throw r.error;
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
};
const must = (cmd: string, args: ReadonlyArray<string>, opts: SpawnSyncOptions = {}) => {
  const r = run(cmd, args, opts);
  if (r.code !== 0)
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
  return r;
};

/** pnpm as bootstrap finds it: the one on PATH if it is 12 or later, else a pinned one via npx. */
const pnpm = (args: ReadonlyArray<string>, opts: SpawnSyncOptions) => {
  const direct = run("pnpm", ["--version"]);
  return Number(direct.stdout.split(".")[0]) >= 12
    ? must("pnpm", args, opts)
    : must("npx", ["--yes", "pnpm@12.21.0", ...args], opts);
};

beforeAll(() => {
  // The built files are what gets packed: bring them up to date (tsc --build only
  // rewrites what changed; the inspector's page is built when it is missing, so a
  // browser test reading it meanwhile is never left without one).
  must(
    process.execPath,
    [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "--build", "tsconfig.build.json"],
    { cwd: repoRoot },
  );
  if (!existsSync(join(repoRoot, "packages", "inspector", "dist", "web", "index.html")))
    pnpm(["--filter", "@hearsay/inspector", "run", "build"], { cwd: repoRoot });
  must(process.execPath, ["build.mjs"], { cwd: join(repoRoot, "packages", "cli") });

  mkdirSync(tarballs);
  for (const p of PUBLIC)
    pnpm(["pack", "--pack-destination", tarballs], { cwd: join(repoRoot, "packages", p) });
  const files = readdirSync(tarballs);
  const tarball = (p: string) => {
    const f = files.find((n) => n.startsWith(`hearsay-${p}-`) && n.endsWith(".tgz"));
    if (f === undefined) throw new Error(`no tarball for @hearsay/${p} in ${files.join(", ")}`);
    return `file:${join(tarballs, f)}`;
  };
  const ours = Object.fromEntries(PUBLIC.map((p) => [`@hearsay/${p}`, tarball(p)]));

  mkdirSync(app);
  cpSync(join(repoRoot, "examples", "embed", "main.mjs"), join(app, "main.mjs"));
  cpSync(join(repoRoot, "examples", "embed", "world"), join(app, "world"), { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({
      name: "game",
      private: true,
      type: "module",
      dependencies: ours,
      overrides: ours,
    }),
  );
  writeFileSync(
    join(app, "check.mts"),
    [
      'import { ids, type Dossier } from "@hearsay/core";',
      'import { runSimulation, type SimulationSpec, TalkWorld } from "@hearsay/engine";',
      'import { ScriptedBrain } from "@hearsay/mind";',
      'import { openDatabase, SqliteEventLog } from "@hearsay/store";',
      "export const used: [unknown, unknown, unknown, unknown, unknown] = [ids.save, runSimulation, TalkWorld, ScriptedBrain.make, openDatabase];",
      "export type Used = [Dossier, SimulationSpec, SqliteEventLog];",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "nodenext",
        moduleResolution: "nodenext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(repoRoot, "node_modules", "@types")],
      },
      files: ["check.mts"],
    }),
  );
  must("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: app });
}, 15 * MINUTES);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the packed packages, installed by a game", () => {
  it("hold only their built files", () => {
    const listed = run("tar", [
      "-tzf",
      join(tarballs, readdirSync(tarballs).find((f) => f.startsWith("hearsay-engine-"))!),
    ]);
    const names = listed.stdout.split("\n").filter(Boolean);
    expect(names).toContain("package/dist/index.js");
    expect(names).toContain("package/dist/index.d.ts");
    expect(names.filter((n) => n.startsWith("package/src/"))).toEqual([]);
    expect(names).not.toContain("package/dist/.tsbuildinfo");
  });

  it("run the library example", () => {
    const r = run(process.execPath, ["main.mjs", join(app, "world.db")], { cwd: app });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectExampleRan(r.stdout);
  });

  it("give a working hearsay command", () => {
    const hearsay = join(app, "node_modules", ".bin", "hearsay");
    const help = run(hearsay, ["--help"], { cwd: app });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^\s+dossier\s+Show the dossier/m);
    const db = join(app, "world.db");
    const stats = run(hearsay, ["stats", "--db", db], { cwd: app });
    expect(stats.stderr).toBe("");
    expect(stats.stdout).toMatch(/no recorded brain calls/);
    const dossier = run(hearsay, ["dossier", "--db", db, "--npc", "ada", "--day", "0"], {
      cwd: app,
    });
    expect(dossier.stderr).toBe("");
    expect(dossier.stdout).toMatch(/^# Dossier of Ada Reed \(ada\) at day 0, 23:59/m);
  });

  it("type-check a consumer's imports against their declarations", () => {
    const r = run(
      process.execPath,
      [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
      { cwd: app },
    );
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});
