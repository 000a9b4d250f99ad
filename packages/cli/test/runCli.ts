/** Runs the `hearsay` CLI as a child process from the repository root, as a user would. */
import { spawn } from "node:child_process";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..", "..");

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node --import tsx packages/cli/src/main.ts …args`, with its exit code and output. */
export const hearsay = (...args: ReadonlyArray<string>): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join("packages", "cli", "src", "main.ts"), ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

/**
 * As `hearsay`, with extra environment variables, killed after `timeoutMs` (a command
 * that should have refused to start but serves instead ends with code null).
 */
export const hearsayWith = (
  o: { readonly env?: Readonly<Record<string, string>>; readonly timeoutMs: number },
  ...args: ReadonlyArray<string>
): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join("packages", "cli", "src", "main.ts"), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: "1", ...o.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
