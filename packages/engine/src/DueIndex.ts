/**
 * The due index lives with the world clock in `@hearsay/actors`; the engine's other
 * schedules (task deadlines, memory expiries) use the same structure.
 */
export { DueIndex } from "@hearsay/actors";
