/**
 * The README's quick start is what CI runs: its two commands are the workspace's `start`
 * and `test` scripts, and .ci/run ends by running the README's test command verbatim. A
 * README that promised one command while CI ran another would fail here.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (path: string): string => readFileSync(join(root, path), "utf8");

/** The commands of the README's first `sh` block under "## Quick start", comments cut. */
const quickStart = (): Array<string> => {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("## Quick start"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/#.*$/, "").trim())
    .filter((l) => l !== "");
};

describe("the README's quick start", () => {
  it("is npm start and npm test, the workspace's own scripts", () => {
    expect(quickStart()).toEqual(["npm start", "npm test"]);
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.start).toBeDefined();
    expect(scripts.test).toBeDefined();
  });

  it("has its test command run verbatim by CI", () => {
    const ci = read(".ci/run")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"));
    expect(ci.at(-1)).toBe(quickStart()[1]);
  });
});
