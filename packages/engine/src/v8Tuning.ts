/**
 * How a program that runs the engine tunes the V8 it runs on, once, before its first tick.
 *
 * V8 pretenures an allocation site — allocates its objects straight into the old
 * generation — once most of the objects it made survived a young-generation collection.
 * A run's ticks defeat that guess: the same sites (an actor's next snapshot and context,
 * a tick's events and the rows kept for its dossiers) make objects that now and then
 * live across a collection and otherwise die within the tick. Once pretenured, every
 * one of them dies in the old generation, where only a full mark-compact frees it. On a
 * 1,000-NPC year, the young collections took about a third less time with pretenuring
 * off (bench/README.md, twenty-seventh session).
 *
 * The flag is process-wide (the append worker's isolate has it too), so it is the
 * program's to set, not the engine's: the `hearsay` commands that run ticks and the
 * benches call this; a program embedding the engine may. Node does not take the flag in
 * NODE_OPTIONS, hence `setFlagsFromString`; set after start-up it still takes effect (the
 * measurements above set it so).
 */
import { setFlagsFromString } from "node:v8";

export const tuneV8ForRuns = (): void => {
  setFlagsFromString("--no-allocation-site-pretenuring");
};
