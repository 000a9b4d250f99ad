/**
 * What is wrong with a world definition, said for a person: one line naming the file,
 * the field path inside it, what was expected and how to fix it, e.g.
 * `simulations/x/npcs.json: npcs[12].home: expected a known location id, got "docks2" —
 * fix the id or add the location`. The CLI prints `message` as it is.
 */
import { Schema } from "effect";
import { clipMessage } from "./clipText.ts";

/** A field path inside a world file: section name, then keys and list indexes. */
export type WorldPath = ReadonlyArray<string | number>;

/** One problem found in a world, located by its path in the merged world. */
export interface WorldProblem {
  readonly path: WorldPath;
  /** What was expected and what was found, lower-case, no trailing full stop. */
  readonly problem: string;
  /** How to fix it, imperative, lower-case; empty when the problem says it all. */
  readonly fix: string;
}

/** `npcs[12].home`, `locations[3].neighbours[0].to`, `meta`. */
export const formatWorldPath = (path: WorldPath): string =>
  path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? key : `${out}.${key}`),
    "",
  );

/** A JSON rendering of a found value, cut short so the message stays one line. */
export const showValue = (value: unknown): string => {
  const text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  const line = text.replace(/\s+/g, " ");
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
};

/** A world that failed to decode or to cross-validate. */
export class WorldError extends Schema.TaggedError<WorldError>()("WorldError", {
  /** The file the problem is in (as given to `decodeWorld`), or the folder. */
  file: Schema.String,
  /** The field path inside that file (`npcs[12].home`); empty for the whole file. */
  path: Schema.String,
  problem: Schema.String,
  fix: Schema.String,
  /** How many further problems were found after this one (0 when not counted). */
  more: Schema.Int,
  /** The one-line message: file, path, problem, fix. */
  message: Schema.String,
}) {}

/** Builds a `WorldError` and its one-line message. */
export const worldError = (fields: {
  readonly file: string;
  readonly path: string;
  readonly problem: string;
  readonly fix: string;
  readonly more?: number;
}): WorldError => {
  const more = fields.more ?? 0;
  const where = fields.path === "" ? fields.file : `${fields.file}: ${fields.path}`;
  const fix = fields.fix === "" ? "" : ` — ${fields.fix}`;
  const tail = more === 0 ? "" : ` (and ${more} more problem${more === 1 ? "" : "s"})`;
  const problem = clipMessage(fields.problem);
  const message = `${where}: ${problem}${fix}${tail}`.replace(/[\r\n]+/g, " ");
  return new WorldError({ ...fields, problem, more, message });
};
