/**
 * The flags that name where a command reads or writes — the database file and the save
 * within it — with one default each, so every command agrees on them; and the schema of
 * a seq or game-day flag.
 */
import { Schema } from "effect";
import { Flag } from "effect/cli";

/** A seq, day or hour flag's value: a whole number, 0 or more. */
export const NonNegative = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));

/** `--db PATH` (default `hearsay.db`), described for the command using it. */
export const dbFlag = (description: string) =>
  Flag.String("db").pipe(Flag.withDescription(description), Flag.withDefault("hearsay.db"));

/** `--save ID` (default `main`), described for the command using it. */
export const saveFlag = (description: string) =>
  Flag.String("save").pipe(Flag.withDescription(description), Flag.withDefault("main"));
