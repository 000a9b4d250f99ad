/**
 * Starts `serveFixtures.ts` in a child process and resolves with its URL and a `stop`.
 * A thread that blocks on the server (the engine's synchronous embedder) cannot serve it
 * from the same thread, so it runs the server here.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface FixtureServerProcess {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

export const startFixtureServerProcess = (
  options: { readonly embedCorpus?: ReadonlyArray<string> } = {},
): Promise<FixtureServerProcess> => {
  const args = ["--import", "tsx", fileURLToPath(new URL("./serveFixtures.ts", import.meta.url))];
  if (options.embedCorpus) {
    const file = join(tmpdir(), `hearsay-corpus-${process.pid}-${options.embedCorpus.length}.json`);
    writeFileSync(file, JSON.stringify(options.embedCorpus));
    args.push("--corpus", file);
  }
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`fixture server exited (${code})`)));
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        child.removeAllListeners("exit");
        resolve({
          url: line.trim(),
          stop: () =>
            new Promise<void>((done) => {
              child.on("exit", () => done());
              child.stdin.end();
            }),
        });
      }
    });
  });
};
