/** The game time a retrieval request is for: its `t`, or the last minute of its `day`. */
import { type GameTime, MINUTES_PER_DAY } from "@hearsay/core";

/** `t` when given, else the last minute of `day`; a request with neither is a bug. */
export const requestTime = (r: { readonly t?: number; readonly day?: number }): GameTime => {
  if (r.t !== undefined) return r.t as GameTime;
  if (r.day !== undefined) return ((r.day + 1) * MINUTES_PER_DAY - 1) as GameTime;
  throw new RangeError("a retrieval request needs `t` or `day`");
};
