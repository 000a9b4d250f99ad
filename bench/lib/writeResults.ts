/**
 * Writes a benchmark's results as JSON to bench/results/<name>.json, with the machine it
 * ran on, so numbers from different runs and machines can be compared honestly. The file
 * is written to a temporary name and renamed, so a crash never leaves half a result.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { cpus, freemem, platform, release, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The machine and runtime a benchmark ran on. */
export interface MachineInfo {
  readonly platform: string;
  readonly release: string;
  readonly cpuModel: string;
  readonly cpuCount: number;
  readonly totalMemMiB: number;
  readonly freeMemMiB: number;
  readonly node: string;
  readonly v8: string;
}

/** Describes this machine. */
export const machineInfo = (): MachineInfo => {
  const cpu = cpus();
  return {
    platform: platform(),
    release: release(),
    cpuModel: cpu[0]?.model ?? "unknown",
    cpuCount: cpu.length,
    totalMemMiB: Math.round(totalmem() / 2 ** 20),
    freeMemMiB: Math.round(freemem() / 2 ** 20),
    node: process.versions.node,
    v8: process.versions.v8,
  };
};

/** The directory results go to: bench/results. */
export const resultsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "results");

/** Writes `{ name, finishedAt, machine, ...results }` to bench/results/<name>.json; returns the path. */
export const writeResults = (name: string, results: Record<string, unknown>): string => {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name}.json`);
  const tmp = `${path}.tmp`;
  const body = { name, finishedAt: new Date().toISOString(), machine: machineInfo(), ...results };
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`);
  renameSync(tmp, path);
  return path;
};
