/**
 * The simulation a recorded run names (`SimulationStarted.simulation`, its world's name),
 * for the commands that take a save up again without being told its folder: `replay
 * --verify`, `skip`, `chat` and `serve`. A folder of that name is it; otherwise a name
 * that `scaleWorld` made (`haskerry-x1000`: a world grown to 1,000 NPCs by `hearsay run
 * --scale`) is the simulation it was grown from, scaled again the same way — its world
 * and hash are those the run recorded. Any other name is not found, as before.
 */
import { SimulationNotFound } from "./EngineError.ts";
import { type LoadedSimulation, loadSimulation } from "./loadSimulation.ts";
import { scaleSimulation } from "./scaleWorld.ts";

/** A scaled world's name: the name of the world it was grown from, `-x` and its NPCs. */
const SCALED = /^(.+)-x([1-9]\d{0,6})$/;

/** @throws SimulationNotFound naming `name` when neither it nor what it was scaled from is found */
export const loadRecordedSimulation = (
  name: string | undefined,
  cwd?: string,
): LoadedSimulation => {
  try {
    return loadSimulation(name, cwd);
  } catch (e) {
    const scaled = name === undefined ? null : SCALED.exec(name);
    if (!(e instanceof SimulationNotFound) || scaled === null) throw e;
    let base: LoadedSimulation;
    try {
      base = loadSimulation(scaled[1], cwd);
    } catch (inner) {
      // Not found under either name: say so of the name the run recorded.
      throw inner instanceof SimulationNotFound ? e : inner;
    }
    return scaleSimulation(base, Number(scaled[2]));
  }
};
