/**
 * The inspector's typed errors. Each is a `Schema.TaggedError` whose `message` is the one
 * line the CLI prints: what is wrong, where, and the fix.
 */
import { Schema } from "effect";

/** The web page has not been built, so there is nothing to serve. */
export class PageNotBuilt extends Schema.TaggedError<PageNotBuilt>()("PageNotBuilt", {
  dir: Schema.String,
}) {
  override get message(): string {
    return `the inspector page is not built (no index.html in ${this.dir}); build it with \`pnpm run build\` at the workspace root (or \`pnpm --filter @hearsay/inspector build\`)`;
  }
}

/** The inspector serves loopback only; another address was asked for. */
export class NotLoopback extends Schema.TaggedError<NotLoopback>()("NotLoopback", {
  host: Schema.String,
}) {
  override get message(): string {
    return `--host ${this.host}: the inspector serves this machine only; use 127.0.0.1, ::1 or localhost`;
  }
}

/** The file is missing, or not a hearsay database this build can read. */
export class NotInspectable extends Schema.TaggedError<NotInspectable>()("NotInspectable", {
  path: Schema.String,
  detail: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: ${this.detail}; ${this.fix}`;
  }
}

/** The database holds no save of that id (or none at all). */
export class NoSuchSave extends Schema.TaggedError<NoSuchSave>()("NoSuchSave", {
  path: Schema.String,
  saveId: Schema.String,
  known: Schema.Array(Schema.String),
}) {
  override get message(): string {
    return this.known.length === 0
      ? `${this.path}: holds no save yet; record one with \`hearsay run --db ${this.path}\``
      : `${this.path}: no save "${this.saveId}"; pass --save with one of: ${this.known.join(", ")}`;
  }
}

/** A request the API cannot answer as asked (bad parameter, unknown id). */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  status: Schema.Number,
  detail: Schema.String,
}) {
  override get message(): string {
    return this.detail;
  }
}
