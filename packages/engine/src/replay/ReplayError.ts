/**
 * Replay's typed refusals: what was asked cannot be done with this log (an unknown save,
 * a point outside its history, a changed world, a branch inside a tick), with the fix.
 * Each is refused before anything is written.
 */
import { Schema } from "effect";

export class ReplayRefused extends Schema.TaggedError<ReplayRefused>()("ReplayRefused", {
  reason: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    return `${this.reason}: ${this.fix}`;
  }
}
