/** A small world and a one-call run for the engine's tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  decodeWorld,
  type Event,
  ids,
  parseWorldSource,
  type SaveId,
  type StoredEvent,
  stateHash,
  type World,
} from "@hearsay/core";
import { runSimulation, type SimulationSpec } from "@hearsay/engine";
import { ScriptedBrain } from "@hearsay/mind";
import { openDatabase, SqliteEventLog } from "@hearsay/store";
import { Result } from "effect";

export const tinyWorld = (): World => {
  const path = join(import.meta.dirname, "fixtures", "tiny", "world.json");
  const source = parseWorldSource(path, readFileSync(path, "utf8"));
  if (Result.isFailure(source)) throw source.failure;
  const world = decodeWorld([source.success]);
  if (Result.isFailure(world)) throw world.failure;
  return world.success;
};

export const MAIN: SaveId = ids.save("main");

export const freshLog = (path = ":memory:") => new SqliteEventLog(openDatabase(path));

export const run = (log: SqliteEventLog, over: Partial<SimulationSpec> = {}) => {
  const world = over.world ?? tinyWorld();
  return runSimulation({
    world,
    worldHash: stateHash(world),
    lore: [],
    log,
    saveId: MAIN,
    days: 3,
    seed: 7,
    brain: ScriptedBrain.make(),
    recordBrain: false,
    dossiers: () => ({ dossier: () => null }),
    resume: false,
    ...over,
  });
};

/** The log as comparable data: every event without its (save-specific) envelope. */
export const logOf = (
  log: SqliteEventLog,
  saveId: SaveId = MAIN,
): ReadonlyArray<Event & { seq: number }> =>
  log.read(saveId).map((e: StoredEvent) => ({
    seq: e.seq,
    type: e.type,
    version: e.version,
    id: e.id,
    t: e.t,
    payload: e.payload,
  })) as never;

export const logHash = (log: SqliteEventLog, saveId: SaveId = MAIN): string =>
  stateHash(logOf(log, saveId));

export const ofType = <T extends Event["type"]>(log: SqliteEventLog, type: T) =>
  log.read(MAIN).filter((e): e is Extract<StoredEvent, { type: T }> => e.type === type);
