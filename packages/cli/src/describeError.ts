/**
 * Turns any failure into the one line a person reads: what went wrong, where, and the
 * fix. Typed errors from the packages already carry those words in `message`; anything
 * else is an internal fault and says so. Every line is cut by core's `clipMessage`:
 * a quoted value keeps its first 80 characters, so no error echoes a huge field.
 */
import { clipMessage } from "@hearsay/core";

export const describeError = (error: unknown): string => clipMessage(oneLine(error));

const oneLine = (error: unknown): string => {
  if (
    error instanceof Error ||
    (typeof error === "object" && error !== null && "message" in error)
  ) {
    const message = clipMessage(String((error as { message: unknown }).message))
      .replace(/\s*\n\s*/g, " ")
      .trim();
    const tag = (error as { _tag?: unknown })._tag;
    if (typeof tag === "string" && message !== "") return message;
    if (message !== "") return `internal error: ${message}`;
  }
  return `internal error: ${String(error)}`;
};
