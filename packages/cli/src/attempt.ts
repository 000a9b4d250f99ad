/**
 * Bridges the packages' synchronous APIs (which throw typed errors) into the CLI's
 * Effect handlers, keeping the error as it is so `describeError` can print its words.
 */
import { Effect, Schema } from "effect";

/** A failure the CLI itself reports (bad combinations of flags and the like). */
export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String,
}) {}

export const attempt = <A>(f: () => A): Effect.Effect<A, unknown> =>
  Effect.try({ try: f, catch: (e) => e });
