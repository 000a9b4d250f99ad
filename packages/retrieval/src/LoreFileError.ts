/**
 * Why a lore file cannot be imported. Each problem carries the file's path and a fix,
 * so the CLI can print one line that names the file, what is wrong and what to do.
 */
import { Schema } from "effect";

export const LoreProblem = Schema.Literals([
  "empty",
  "binary",
  "invalid-utf8",
  "no-text",
  "too-large",
  "unreadable",
]);
export type LoreProblem = typeof LoreProblem.Type;

const fixes: Record<LoreProblem, string> = {
  empty: "add markdown text (a heading and at least one paragraph) or remove the file",
  binary: "lore files must be UTF-8 markdown text; remove the file from the lore list",
  "invalid-utf8": "re-save the file as UTF-8",
  "no-text": "add at least one paragraph of text outside the front matter",
  "too-large": "split the file into several markdown files",
  unreadable: "check the path and its permissions",
};

/** A lore file was refused; nothing from it was written. */
export class LoreFileError extends Schema.TaggedError<LoreFileError>()("LoreFileError", {
  path: Schema.String,
  problem: LoreProblem,
  detail: Schema.String,
}) {
  override get message(): string {
    return `${this.path}: ${this.detail}; ${fixes[this.problem]}`;
  }
}
