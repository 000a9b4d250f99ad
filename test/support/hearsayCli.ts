/**
 * The `hearsay` command as a child process, run from its TypeScript sources
 * (`node --import tsx packages/cli/src/main.ts …` from the repository root, the packages
 * resolved to their sources through the @hearsay/source condition vitest passes on). The proof
 * suites drive the real binary rather than its functions so that exit codes, stderr
 * wording and a SIGKILL at any instant are the ones a user meets.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

/** The repository root (where `packages/`, `simulations/` and `test/` live). */
export const repoRoot = resolve(import.meta.dirname, "..", "..");

/** The tiny world the engine's own tests use: 6 NPCs, 3 places, 2 factions. */
export const tinySimulation = join(repoRoot, "packages", "engine", "test", "fixtures", "tiny");

/** How a finished child ended and what it printed. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running child with its output collected and a promise of its end. */
export interface CliProcess {
  readonly child: ChildProcess;
  readonly done: Promise<CliResult>;
  /** True once the child has exited (by itself or by a signal). */
  exited(): boolean;
}

/** Starts `node --import tsx <args>` in the repository root. */
export const spawnNode = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
): CliProcess => {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let ended = false;
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  const done = new Promise<CliResult>((resolveDone, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      ended = true;
      resolveDone({ code, signal, stdout, stderr });
    });
  });
  return { child, done, exited: () => ended || child.exitCode !== null };
};

/** Starts `hearsay <args>` in the repository root. */
export const spawnHearsay = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
): CliProcess => spawnNode([join(repoRoot, "packages", "cli", "src", "main.ts"), ...args], env);

/** Runs a TypeScript file with node and tsx to its end. */
export const runNode = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> => spawnNode(args, env).done;

/** Runs `hearsay <args>` to its end. */
export const runHearsay = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> => spawnHearsay(args, env).done;
