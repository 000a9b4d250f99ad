/**
 * Every failure of a command that works on a database names that database. Typed errors
 * that already say where they happened pass through; an SQLite error becomes the store's
 * typed error for the file; anything else (a row that did not decode, a value missing
 * where the schema promises one) is looked at again with SQLite's `quick_check`, and a
 * damaged file is reported as damaged rather than as an internal error.
 */
import { asDatabaseError, DatabaseDamaged, findDamage } from "@hearsay/store";
import { Effect } from "effect";
import { CliFailure } from "./attempt.ts";

const tagOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "_tag" in e ? String(e._tag) : undefined;

const messageOf = (e: unknown): string =>
  e instanceof Error || (typeof e === "object" && e !== null && "message" in e)
    ? String((e as { message: unknown }).message)
    : String(e);

/** The error `e` raised while working on the database at `path`, said about that file. */
export const nameDatabase = (path: string, e: unknown): unknown => {
  const typed = asDatabaseError(path, e);
  if (typed !== e) return typed;
  const tag = tagOf(e);
  if (tag !== undefined && tag !== "StoreFailure") return e;
  const damage = findDamage(path);
  if (damage !== null) return new DatabaseDamaged({ path, detail: damage });
  return tag === "StoreFailure" ? new CliFailure({ message: `${path}: ${messageOf(e)}` }) : e;
};

/** `effect` with every failure said about the database at `path`. */
export const onDatabase =
  (path: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, unknown, R> =>
    effect.pipe(
      // A throw outside `attempt` (a constructor preparing statements on a damaged file)
      // is a defect; it is said about the file all the same.
      Effect.catchDefect((d) => Effect.fail(d)),
      Effect.mapError((e) => nameDatabase(path, e)),
    );
