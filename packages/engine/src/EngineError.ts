/**
 * The engine's typed errors. Each carries what went wrong and the fix, so the CLI can
 * say it in one line.
 */
import { Schema } from "effect";

export class RunRefused extends Schema.TaggedError<RunRefused>()("RunRefused", {
  reason: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    return `${this.reason}: ${this.fix}`;
  }
}

export class SimulationNotFound extends Schema.TaggedError<SimulationNotFound>()(
  "SimulationNotFound",
  {
    path: Schema.String,
    fix: Schema.String,
  },
) {
  override get message(): string {
    return `${this.path}: no simulation there; ${this.fix}`;
  }
}

export class SimulationInvalid extends Schema.TaggedError<SimulationInvalid>()(
  "SimulationInvalid",
  {
    /** One line naming the file, the field and what was expected. */
    detail: Schema.String,
  },
) {
  override get message(): string {
    return this.detail;
  }
}
