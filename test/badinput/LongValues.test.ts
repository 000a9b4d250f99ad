/**
 * A huge value in a bad input is quoted in its error cut short: no error line echoes a
 * 60 MB field. The world's decoder, the brain config and the CLI's one formatter each
 * cut every quoted value to a short prefix and an ellipsis, and the CLI prints one line
 * (the formatter's own cases: packages/cli/test/describeError.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSimulation } from "@hearsay/engine";
import { loadMindConfig } from "@hearsay/mind";
import { Effect } from "effect";
import { afterAll, describe, expect, it } from "vitest";
import { runHearsay, tinySimulation } from "../support/hearsayCli.ts";

const dir = mkdtempSync(join(tmpdir(), "hearsay-long-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The tiny world with `meta.tickMinutes` a string of `size` characters. */
const hugeWorld = (name: string, size: number): string => {
  const folder = join(dir, name);
  mkdirSync(folder);
  const world = JSON.parse(readFileSync(join(tinySimulation, "world.json"), "utf8"));
  world.meta.tickMinutes = "x".repeat(size);
  writeFileSync(join(folder, "world.json"), JSON.stringify(world));
  return folder;
};

const MAX_LINE = 600;

describe("huge values in errors are cut short", () => {
  it("a world field of 6 MB", () => {
    const folder = hugeWorld("six", 6_000_000);
    let message = "";
    try {
      loadSimulation(folder);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("meta.tickMinutes");
    expect(message).toContain("xxxx…");
    expect(message.length).toBeLessThan(MAX_LINE);
  });

  it("a config value of 1 MB", async () => {
    const path = join(dir, "long.config");
    writeFileSync(path, JSON.stringify({ ollama: { chatModel: "m".repeat(1_000_000) } }));
    const r = await Effect.runPromise(Effect.result(loadMindConfig({ path, env: {} })));
    expect(r._tag).toBe("Failure");
    if (r._tag === "Failure") {
      expect(r.failure.message).toContain("ollama.chatModel");
      expect(r.failure.message).toContain("mmmm…");
      expect(r.failure.message.length).toBeLessThan(MAX_LINE);
    }
  });

  it("through the CLI: a 60 MB world field, one short line", async () => {
    const folder = hugeWorld("sixty", 60_000_000);
    const r = await runHearsay(["run", folder, "--days", "1", "--db", join(dir, "x.db")]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^hearsay: .*world\.json: meta\.tickMinutes/);
    expect(lines[0]!.length).toBeLessThan(MAX_LINE);
  }, 120_000);

  it("through the CLI: a flag's value of 100,000 characters, one short line", async () => {
    const r = await runHearsay(["run", tinySimulation, "--days", "9".repeat(100_000)]);
    expect(r.code).toBe(2);
    const lines = r.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^hearsay: .*--days/);
    expect(lines[0]!.length).toBeLessThan(MAX_LINE);
  }, 120_000);
});
