/**
 * The benchmark runner: `pnpm bench:run <name>` runs bench/<name>.ts; with no name it
 * lists the benches (each described by the first line of its header comment); `all`
 * runs every one in turn. A bench is a program: importing it runs it, or, if it exports
 * a default function (or an object with `run`), the runner calls that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tuneV8ForRuns } from "@hearsay/engine";

// Benches time runs as the `hearsay` commands make them, V8's tuning included.
tuneV8ForRuns();

const here = dirname(fileURLToPath(import.meta.url));

const benches = (): ReadonlyArray<string> =>
  readdirSync(here)
    .filter((f) => f.endsWith(".ts") && f !== "run.ts" && !f.endsWith(".d.ts"))
    .map((f) => f.slice(0, -3))
    .sort();

/** The first sentence-line of a file's header comment. */
const describe = (name: string): string => {
  const text = readFileSync(join(here, `${name}.ts`), "utf8");
  const m = /\/\*\*?\s*\n?\s*\*?\s*([^\n]*)/.exec(text);
  return (m?.[1] ?? "").replace(/\*\/\s*$/, "").trim();
};

const runOne = async (name: string): Promise<void> => {
  const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as {
    default?: (() => unknown) | { run?: () => unknown };
  };
  const entry = mod.default;
  if (typeof entry === "function") await entry();
  else if (entry && typeof entry.run === "function") await entry.run();
};

const main = async (): Promise<void> => {
  const [name] = process.argv.slice(2);
  const all = benches();
  if (name === undefined) {
    console.log("benches (run one with `pnpm bench:run <name>`, or `all`):");
    for (const b of all) console.log(`  ${b.padEnd(16)} ${describe(b)}`);
    return;
  }
  if (name === "all") {
    for (const b of all) await runOne(b);
    return;
  }
  if (!all.includes(name)) {
    console.error(
      `bench: no bench named '${name}' in bench/ (available: ${all.join(", ") || "none"})`,
    );
    process.exitCode = 2;
    return;
  }
  await runOne(name);
};

await main();
