/**
 * The typed failures of a brain call. Every adapter and wrapper fails with one of these,
 * never with a bare Error, so the engine (and the fallback chain) can tell a dead
 * server from a bad answer from a replay that has no recording. Each one's `message`
 * is a sentence a person can act on.
 */
import { Schema } from "effect";

/**
 * The model server could not be reached (`unreachable`), dropped the connection
 * mid-call (`lost`), answered with an HTTP error (`server_error`) or with something
 * that is not its API (`bad_response`).
 */
export class BrainUnavailable extends Schema.TaggedError<BrainUnavailable>()("BrainUnavailable", {
  brain: Schema.String,
  model: Schema.String,
  kind: Schema.Literals(["unreachable", "lost", "server_error", "bad_response"]),
  reason: Schema.String,
}) {
  override get message(): string {
    return `${this.brain} (${this.model}) unavailable: ${this.reason}`;
  }
}

/** The call took longer than its timeout and was aborted. */
export class BrainTimeout extends Schema.TaggedError<BrainTimeout>()("BrainTimeout", {
  brain: Schema.String,
  model: Schema.String,
  timeoutMs: Schema.Number,
}) {
  override get message(): string {
    return `${this.brain} (${this.model}) gave no answer within ${this.timeoutMs} ms`;
  }
}

/** The answer was not JSON, or did not decode by the purpose's output Schema. */
export class InvalidAnswer extends Schema.TaggedError<InvalidAnswer>()("InvalidAnswer", {
  brain: Schema.String,
  model: Schema.String,
  purpose: Schema.String,
  problem: Schema.String,
  /** The raw answer text, cut to a few hundred characters. */
  raw: Schema.String,
}) {
  override get message(): string {
    return `${this.brain} (${this.model}) answered ${this.purpose} with invalid output: ${this.problem}`;
  }
}

/** The answer named an id that the input did not offer. */
export class UnknownId extends Schema.TaggedError<UnknownId>()("UnknownId", {
  purpose: Schema.String,
  /** The answer field that holds it, e.g. `to`, `taskId`, `replyTo`. */
  field: Schema.String,
  kind: Schema.Literals(["npc", "location", "task"]),
  id: Schema.String,
  /** The ids that field may hold. */
  allowed: Schema.Array(Schema.String),
}) {
  override get message(): string {
    const shown = this.allowed.slice(0, 12).map((a) => JSON.stringify(a));
    const more = this.allowed.length > 12 ? `, … (${this.allowed.length} in all)` : "";
    const known =
      shown.length === 0 ? "none is available" : `use one of ${shown.join(", ")}${more}`;
    return `${this.purpose}: \`${this.field}\` names unknown ${this.kind} id ${JSON.stringify(this.id)}; ${known}`;
  }
}

/** The configured model is not installed on the server. */
export class ModelNotFound extends Schema.TaggedError<ModelNotFound>()("ModelNotFound", {
  model: Schema.String,
  reason: Schema.String,
}) {
  override get message(): string {
    return `model ${this.model} is not installed (${this.reason}); run \`ollama pull ${this.model}\``;
  }
}

/** Replay asked for a call the recording does not hold: a divergence, never a live call. */
export class RecordingMissing extends Schema.TaggedError<RecordingMissing>()("RecordingMissing", {
  purpose: Schema.String,
  npcId: Schema.NullOr(Schema.String),
  t: Schema.Number,
  inputHash: Schema.String,
}) {
  override get message(): string {
    return `no recorded ${this.purpose} call for ${this.npcId ?? "the world"} at t=${this.t} (input ${this.inputHash.slice(0, 12)}…): the run diverged from its recording`;
  }
}

/** Replay reached a call that failed when it was recorded; it fails the same way. */
export class RecordedFailure extends Schema.TaggedError<RecordedFailure>()("RecordedFailure", {
  purpose: Schema.String,
  npcId: Schema.NullOr(Schema.String),
  t: Schema.Number,
  error: Schema.String,
  /** The model the recorded call named, so its replayed record names it too. */
  model: Schema.String,
}) {
  override get message(): string {
    return `recorded ${this.purpose} call for ${this.npcId ?? "the world"} at t=${this.t} failed: ${this.error}`;
  }
}

/** A configured budget (calls or tokens) is spent. */
export class BudgetExhausted extends Schema.TaggedError<BudgetExhausted>()("BudgetExhausted", {
  budget: Schema.String,
  limit: Schema.Number,
  used: Schema.Number,
  /** Set when calls were left but held for this many higher-class calls of the same tick. */
  heldForHigher: Schema.optional(Schema.Number),
}) {
  override get message(): string {
    return this.heldForHigher === undefined
      ? `budget ${this.budget} spent (${this.used} of ${this.limit})`
      : `budget ${this.budget} held for ${this.heldForHigher} higher-class calls of this tick (${this.used} of ${this.limit} used)`;
  }
}

/** Any failure of a brain call. */
export type BrainError =
  | BrainUnavailable
  | BrainTimeout
  | InvalidAnswer
  | UnknownId
  | ModelNotFound
  | RecordingMissing
  | RecordedFailure
  | BudgetExhausted;
