/**
 * Start-up bench: how long the built `hearsay` command takes to start and finish, for
 * `hearsay --help` and `hearsay stats --db <a small run>`, against `node -e 0` timed in
 * the same run (the floor no Node program starts under on this machine at this moment).
 * Runs are interleaved so load on the machine falls on all three alike; the figure is the
 * median wall time. Target: each at most 0.5 s and at most 6× `node -e 0`.
 *
 *   pnpm run build && pnpm bench:run startup
 *   HEARSAY_BENCH_RUNS=30 pnpm bench:run startup
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { workspaceRoot } from "@hearsay/engine";
import { printTable } from "./lib/printTable.ts";
import { writeResults } from "./lib/writeResults.ts";

const RUNS = Number(process.env.HEARSAY_BENCH_RUNS ?? 15);
const TARGET_MS = 500;
const TARGET_RATIO = 6;
const root = workspaceRoot();
const bin = join(root, "packages", "cli", "bin", "hearsay.mjs");
const built = join(root, "packages", "cli", "dist", "main.js");
const tiny = join(root, "packages", "engine", "test", "fixtures", "tiny");

/** Runs node with `args` to its end; its wall time in ms. Throws on a non-zero exit. */
const timed = (args: ReadonlyArray<string>): number => {
  const began = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    // The built command, exactly as a user runs it: no source condition, no loader.
    env: { ...process.env, NODE_OPTIONS: "" },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - began) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
};

const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

export default function startup(): void {
  if (!existsSync(built)) {
    console.error(
      "startup bench: packages/cli/dist/main.js is missing — run `pnpm run build` first",
    );
    process.exitCode = 1;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "hearsay-startup-"));
  try {
    const db = join(dir, "small.db");
    timed([bin, "run", tiny, "--days", "1", "--db", db, "--quiet"]);
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
      ["node -e 0", ["-e", "0"]],
      ["hearsay --help", [bin, "--help"]],
      ["hearsay stats --db small.db", [bin, "stats", "--db", db]],
    ];
    for (const [, args] of cases) timed(args); // warm the file cache
    const times = new Map(cases.map(([name]) => [name, [] as number[]]));
    for (let i = 0; i < RUNS; i++)
      for (const [name, args] of cases) times.get(name)!.push(timed(args));
    const baseline = quantile(times.get("node -e 0")!, 0.5);
    const rows = cases.map(([name]) => {
      const xs = times.get(name)!;
      const median = quantile(xs, 0.5);
      return {
        name,
        medianMs: median,
        minMs: Math.min(...xs),
        p90Ms: quantile(xs, 0.9),
        ratio: median / baseline,
      };
    });
    const measured = rows.slice(1);
    const met = measured.every((r) => r.medianMs <= TARGET_MS && r.ratio <= TARGET_RATIO);
    printTable(
      `Start-up of the built hearsay command (${RUNS} interleaved runs each; target ≤ ${TARGET_MS} ms and ≤ ${TARGET_RATIO}× node -e 0)`,
      ["command", "median ms", "min ms", "p90 ms", "× node -e 0"],
      rows.map((r) => [r.name, r.medianMs, r.minMs, r.p90Ms, r.ratio]),
      1,
    );
    console.log(met ? "target met" : "target NOT met");
    const path = writeResults("startup", {
      config: { runs: RUNS, simulation: "engine test fixture tiny, 1 day, scripted brain" },
      rows,
      target: { maxMs: TARGET_MS, maxRatio: TARGET_RATIO, met },
      loadAverage: loadavg(),
    });
    console.log(`results: ${path}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
