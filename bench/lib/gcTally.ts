/**
 * Garbage collections while something runs, by kind: how many, their pauses in all and
 * the longest (ms). `GCProfiler` records each collection as it ends, even in a loop that
 * never yields. A pause is wall time on the main thread: on a loaded machine it grows
 * with the load (the scavenger's helper threads wait for a core), so read it beside CPU.
 */
import { GCProfiler } from "node:v8";

export type GcTally = Map<string, { count: number; ms: number; max: number }>;

/** Starts counting collections; `stop` ends it and returns the tally. */
export const startGcTally = (): { stop(): GcTally } => {
  const gc = new GCProfiler();
  gc.start();
  return {
    stop: () => {
      const gcs: GcTally = new Map();
      for (const e of gc.stop()?.statistics ?? []) {
        const g = gcs.get(e.gcType) ?? { count: 0, ms: 0, max: 0 };
        g.count++;
        g.ms += e.cost / 1000;
        g.max = Math.max(g.max, e.cost / 1000);
        gcs.set(e.gcType, g);
      }
      return gcs;
    },
  };
};
