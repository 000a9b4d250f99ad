/**
 * Reads a simulation folder: every `*.json` in it is a world file (decoded and
 * cross-checked by core's `decodeWorld`), and the lore files the world names are read,
 * hashed and chunked. Any problem is one line naming the file, the field and the fix.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  decodeWorld,
  ids,
  parseWorldSource,
  sha256,
  stateHash,
  type World,
  type WorldSource,
  worldOrigin,
} from "@hearsay/core";
import { chunkLore } from "@hearsay/retrieval";
import { Result } from "effect";
import { SimulationInvalid, SimulationNotFound } from "./EngineError.ts";
import type { LoreFile } from "./Genesis.ts";

/** The world a run uses when none is named. */
export const DEFAULT_SIMULATION = "haskerry";

/** The checkout's root (where `simulations/` and `lore/` live). */
export const workspaceRoot = (): string =>
  resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export interface LoadedSimulation {
  readonly dir: string;
  readonly world: World;
  readonly lore: ReadonlyArray<LoreFile>;
  /** sha256 over the world and its lore: what a resumed or replayed run must match. */
  readonly worldHash: string;
}

/** Finds a simulation by folder path or by name under `simulations/`. */
export const resolveSimulation = (
  nameOrPath: string = DEFAULT_SIMULATION,
  cwd = process.cwd(),
): string => {
  const candidates = [resolve(cwd, nameOrPath), join(workspaceRoot(), "simulations", nameOrPath)];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isDirectory());
  if (!found) {
    const known = existsSync(join(workspaceRoot(), "simulations"))
      ? readdirSync(join(workspaceRoot(), "simulations")).sort().join(", ")
      : "none";
    throw new SimulationNotFound({
      path: nameOrPath,
      fix: `name a folder holding world JSON files, or one of the bundled simulations (${known})`,
    });
  }
  return found;
};

export const loadSimulation = (nameOrPath?: string, cwd?: string): LoadedSimulation => {
  const dir = resolveSimulation(nameOrPath, cwd);
  const shown = (p: string) => relative(cwd ?? process.cwd(), p) || p;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  if (files.length === 0) {
    throw new SimulationInvalid({
      detail: `${shown(dir)}: no world files (*.json) in the simulation folder — add a world.json (see simulations/haskerry)`,
    });
  }
  const sources: Array<WorldSource> = [];
  for (const f of files) {
    const parsed = parseWorldSource(shown(join(dir, f)), readFileSync(join(dir, f), "utf8"));
    if (Result.isFailure(parsed)) throw new SimulationInvalid({ detail: parsed.failure.message });
    sources.push(parsed.success);
  }
  const decoded = decodeWorld(sources);
  if (Result.isFailure(decoded)) throw new SimulationInvalid({ detail: decoded.failure.message });
  const world = decoded.success;
  const lore: Array<LoreFile> = [];
  for (const [i, rel] of world.lore.entries()) {
    const path = resolve(dir, rel);
    if (!existsSync(path)) {
      // Blamed on the file that names it, not on whichever file sorts first.
      const origin = worldOrigin(sources, ["lore", i]);
      throw new SimulationInvalid({
        detail: `${origin.file}: ${origin.path}: "${rel}" does not exist — fix the path (relative to ${shown(dir)})`,
      });
    }
    const bytes = readFileSync(path);
    const chunked = chunkLore(shown(path), bytes);
    if (Result.isFailure(chunked)) throw new SimulationInvalid({ detail: chunked.failure.message });
    lore.push({
      sourceId: ids.loreSource(`lore:${rel}`),
      path: rel,
      contentHash: sha256(bytes.toString("utf8")),
      chunks: chunked.success,
    });
  }
  return {
    dir,
    world,
    lore,
    worldHash: stateHash({ world, lore: lore.map((l) => l.contentHash) }),
  };
};
